"""What the sign-in view and the Servers panel say about a sign-in, in words: pure functions, no widgets.

A sign-in's steps are its legs (named by :mod:`inspector.mcp.signin.flow`); each row of the view
is one leg with its state (running, done, failed, cancelled), the sentence the flow said about
what the step found, and for the browser step the address it opened. The sentences name
servers, clients and scopes the server chose: the view shows them as plain text.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from inspector.i18n import _
from inspector.i18n.formatting import format_datetime, format_time
from inspector.i18n.messages import translate
from inspector.mcp.signin.flow import STEP_BROWSER, STEP_WORDS, SignInStep
from inspector.mcp.signin.model import TokenSet

from ..widgets.plain_text import cell_text

#: The states of a step as the view marks them (an outcome's icon, word and colour go with each).
RUNNING, DONE, FAILED, CANCELLED = "running", "ok", "failed", "cancelled"
#: The most characters of one value in a sentence (an issuer, a subject): a server chose them.
VALUE_CHARS = 200


def step_words(step: str) -> str:
    """A step's name in words ("Finding the authorization server"), for the leg named ``step``;
    a leg without words keeps its name."""
    words = STEP_WORDS.get(step)
    return _(words) if words else step


def state_words(state: str) -> str:
    """The word beside a step's mark: running, done, failed, cancelled."""
    return {RUNNING: _("running"), DONE: _("done"), FAILED: _("failed"), CANCELLED: _("cancelled")}.get(state, state)


@dataclass(frozen=True)
class StepRow:
    """One row of the sign-in view: the step (its leg's name), its state, what it found, where the browser went."""

    step: str
    state: str
    detail: str
    address: str | None = None


def step_rows(legs: list[Any], seen: list[SignInStep], failed_step: str | None = None,
              failure: str = "") -> list[StepRow]:
    """The rows for a sign-in's ``legs`` (its :class:`BarState` legs, in order) and the steps it
    reported (``seen``); the failing leg's detail is ``failure`` (the error's sentence)."""
    details: dict[str, str] = {}
    addresses: dict[str, str] = {}
    for step in seen:
        details[step.step] = translate(step.detail)
        if step.address:
            addresses[step.step] = step.address
    rows = []
    for leg in legs:
        method = leg.method
        if leg.outcome is None:
            state = RUNNING
        elif leg.outcome == "ok":
            state = DONE
        elif leg.outcome == "cancelled":
            state = CANCELLED
        else:
            state = FAILED
        detail = details.get(method, "")
        if state == FAILED and method == failed_step and failure:
            detail = failure
        elif state == RUNNING and method == STEP_BROWSER and method in addresses:
            detail = _("Waiting for you to sign in in the browser.")
        elif state == CANCELLED:
            detail = _("Cancelled before this step was done.")
        rows.append(StepRow(method, state, detail, addresses.get(method)))
    return rows


def signed_in_text(tokens: TokenSet, now: float | None = None) -> str:
    """"Signed in as alice with https://auth.example until 14:03:00" (the date too when not today)."""
    issuer = cell_text(tokens.issuer, VALUE_CHARS)
    subject = cell_text(tokens.subject, VALUE_CHARS) if tokens.subject else None
    if tokens.expires_at is None:
        if subject:
            return _("Signed in as {subject} with {issuer}.").format(subject=subject, issuer=issuer)
        return _("Signed in with {issuer}.").format(issuer=issuer)
    if tokens.expires_within(0, now):
        until = expiry_text(tokens.expires_at, now)
        if subject:
            return _("Signed in as {subject} with {issuer}; the sign-in expired {until} (it is refreshed when "
                     "next used, if it can be).").format(subject=subject, issuer=issuer, until=until)
        return _("Signed in with {issuer}; the sign-in expired {until} (it is refreshed when next used, if it can "
                 "be).").format(issuer=issuer, until=until)
    until = expiry_text(tokens.expires_at, now)
    if subject:
        return _("Signed in as {subject} with {issuer} until {until}.").format(subject=subject, issuer=issuer,
                                                                              until=until)
    return _("Signed in with {issuer} until {until}.").format(issuer=issuer, until=until)


def panel_signed_in_text(tokens: TokenSet, now: float | None = None) -> str:
    """"Signed in as alice until 14:03:00" (the issuer left to :func:`signed_in_text`)."""
    subject = cell_text(tokens.subject, VALUE_CHARS) if tokens.subject else None
    if tokens.expires_at is None or tokens.expires_within(0, now):
        return _("Signed in as {subject}.").format(subject=subject) if subject else _("Signed in.")
    until = expiry_text(tokens.expires_at, now)
    if subject:
        return _("Signed in as {subject} until {until}.").format(subject=subject, until=until)
    return _("Signed in until {until}.").format(until=until)


def expiry_text(expires_at: float, now: float | None = None) -> str:
    """When a sign-in ends, in the reader's language: the time today, else date and time."""
    from datetime import datetime, timezone

    moment = datetime.fromtimestamp(expires_at, timezone.utc)
    today = datetime.fromtimestamp(time.time() if now is None else now, timezone.utc).astimezone().date()
    if moment.astimezone().date() == today:
        return format_time(moment)
    return format_datetime(moment, "short")


def server_signin_text(tokens: TokenSet | None, needs: bool, command: bool, kept: bool = True, *,
                       demo: bool = False, answered: bool = False) -> str:
    """The Servers panel's line on sign-in for the selected server (``kept``: the vault outlives the
    window; ``demo``: the window's own demo server, which never asks; ``answered``: it answered an
    operation here without a sign-in, and has not asked for one since)."""
    if command:
        return _("Sign-in: a server started as a command takes its credentials from its environment.")
    if demo:
        return _("Sign-in: the demo server asks for none; it answers without credentials.")
    if tokens is not None:
        # Short (the panel is narrow; the issuer and the whole reason are the line's tooltip): who is
        # signed in until when, then, without a keyring, that it ends with the window.
        short = panel_signed_in_text(tokens)
        return short if kept else "\n".join((short, _("No keyring: this session only.")))
    if needs:
        return _("Needs sign-in: the server refused an operation until you sign in.")
    if answered:
        # Said before Sign in is pressed: a server that needs a sign-in says so with HTTP 401 first.
        return _("Not signed in. This server answered without asking for a sign-in (a server that needs one "
                 "answers HTTP 401 and the window asks you then).")
    # Nothing is known of its wanting a sign-in (it has not answered, cannot be reached, or was signed
    # out of): "Not signed in." would suggest that a sign-in is what is missing.
    return _("No sign-in kept.")


__all__ = ["CANCELLED", "DONE", "FAILED", "RUNNING", "StepRow", "expiry_text", "server_signin_text",
           "signed_in_text", "state_words", "step_rows", "step_words"]
