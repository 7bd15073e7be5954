"""A run's Server, Steps and Duration as the window's Runs list and ``runs list`` both say them: the same
words and the same rounding, whichever shows the run; and where its Status cell has no room for the whole reason
(a narrow column, a narrow terminal), the cuts of the reason both choose from, and its fewest words (no Qt)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Protocol
from urllib.parse import urlsplit

from inspector.runs.loopback import recorded_elsewhere

from . import _, formatting
from .entry_names import shown_name
from .recovery import Reason
from .scenarios import own_demo_server
from .words import failure_word, outcome_text

#: The words of a reason a cut Status cell keeps at least ("2 of…"): fewer say nothing the status word does not.
LEAST_REASON_WORDS = 2
ELLIPSIS = "…"


class RunRecord(Protocol):
    """What of a stored run (``inspector.store.RunRecord``) its cells say."""

    @property
    def server(self) -> str | None: ...
    @property
    def source(self) -> str: ...
    @property
    def origin(self) -> str | None: ...
    @property
    def step_count(self) -> int | None: ...
    @property
    def started_at(self) -> datetime | None: ...
    @property
    def finished_at(self) -> datetime | None: ...


def format_duration(seconds: float | None) -> str:
    """A duration for a reader in the current language ("0.35 s", "8.0 s", "2 min 5 s"); "" if unknown."""
    if seconds is None:
        return ""
    return formatting.format_duration(seconds)


def server_shown(server: str, names: dict[str, str]) -> str:
    """What the server column says: the registry's name for the address (the window's demo entry's in the
    reader's language), else the address without its scheme (host, port and path: what tells servers apart);
    the tooltip has the whole address."""
    if server in names:
        return shown_name(names[server], server) or names[server]
    parts = urlsplit(server)
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.netloc}{parts.path.rstrip('/')}"
    return server


def names_for(run: RunRecord, names: dict[str, str]) -> dict[str, str]:
    """The names that may name ``run``'s server: none for a run imported with a loopback address (its
    127.0.0.1 was the machine it was recorded on, not this one: the developer's demo server at
    127.0.0.1:8765 is not the server a support engineer named at that address), else ``names``."""
    return {} if run.server and recorded_elsewhere(run.server, run.source == "imported") else names


def run_server(run: RunRecord, names: dict[str, str]) -> str:
    """The Server cell: the name the user gave the server; a server not registered (an imported run's) by its
    address; a demo server started for the run alone by that name (its address died with the run); for an
    imported run whose trace names no server (an MCP client's spans that say nothing of it), that, in words."""
    if not run.server and run.source == "imported" and not own_demo_server(run.origin):
        return unnamed_server()
    return own_demo_server(run.origin) or server_shown(run.server or "", names_for(run, names))


def unnamed_server() -> str:
    """What is said of the server of an imported run whose trace names none: not a blank that reads as a
    cell not filled, nor a guess (the agent's own service is not its server)."""
    # Translators: the Server of a run read from a trace that does not say which server the agent called.
    return _("not named in the trace")


def unnamed_server_tip() -> str:
    """The tooltip of :func:`unnamed_server`: what the trace lacks."""
    return _("The trace does not say which server this run called: none of its spans names one (no server address, "
             "no server side of a call).")


def run_steps(run: RunRecord) -> str:
    """The Steps cell: how many steps the run has, as a number in the reader's language."""
    return formatting.format_number(run.step_count or 0)


def run_duration(run: RunRecord) -> float | None:
    if run.started_at is None or run.finished_at is None:
        return None
    return max((run.finished_at - run.started_at).total_seconds(), 0.0)


def cut_reasons(text: str, word: str) -> list[str]:
    """``text``, a status ``word`` and its reason in brackets ("failed (2 of 4 tool calls failed, 1 cancelled)"),
    cut after each whole word of the reason with "…", the longest first, each keeping at least
    :data:`LEAST_REASON_WORDS` whole words ("failed (2 of…", never "fehlgeschlagen (der Tool-…"); none for any
    other text (a step's "failed: timed out"). Where none fits, a cell says the status word alone."""
    opening = f"{word} ("
    if not text.startswith(opening):
        return []
    reason = text[len(opening):]
    # After a space, or after the hyphen of a compound ("Tool-…" of German "Tool-Aufrufe").
    ends = [at for at, letter in enumerate(reason) if letter == " "] + \
           [at + 1 for at, letter in enumerate(reason) if letter == "-"]
    return [opening + reason[:end].rstrip(" ,;") + ELLIPSIS for end in sorted(set(ends), reverse=True)
            if whole_words(reason[:end]) >= LEAST_REASON_WORDS]


def short_reason(status: str, reason: Reason | None) -> str | None:
    """A failed run's reason in the fewest words, for a Status cell too narrow for it: how every failed call
    ended where that is known ("timed out", "not sent"), as a step's Outcome cell says it beside the failed
    icon; ``None`` for any other run (its reason cut, or its status word, says it)."""
    kind = reason[3] if reason is not None and len(reason) > 3 else None
    return failure_word(kind) if status == "failed" and kind in ("timed_out", "refused") else None


def fitted_status(text: str, word: str, short: str | None, fits: Callable[[str], bool],
                  alone: str | None = None) -> str | None:
    """What a Status cell too narrow for ``text`` (a status ``word`` and its reason) shows, the window's and the
    terminal's alike: the first that ``fits`` of ``text`` whole, its cuts (:func:`cut_reasons`) that still say
    ``short`` (the reason's kind of failure, :func:`short_reason`), ``alone`` (that kind said alone: the window's
    cell says ``short`` beside the failed icon, a terminal with the status word, :func:`short_status`), the other
    cuts; ``None`` where none fits (the cell says the status word)."""
    cuts = cut_reasons(text, word)
    said = [cut for cut in cuts if short in cut] if short else []
    alone = alone or short
    return next((shown for shown in (text, *said, *([alone] if alone else []), *cuts) if fits(shown)), None)


def short_status(status: str, reason: Reason | None) -> str | None:
    """:func:`short_reason` with the status word before it, where no icon says it ("failed: timed out", as a
    step's Outcome cell says it whole); ``None`` where there is no short reason."""
    short = short_reason(status, reason)
    return None if short is None else outcome_text(status, reason[3] if reason is not None else None)


def whole_words(kept: str) -> int:
    """How many whole words ``kept`` has: a compound's first part before its hyphen is none ("der Tool-" has
    one, and says no more than the status word; "2 von 4 Tool-" has three, the counts)."""
    words = kept.split()
    return len(words) - (1 if words and words[-1].endswith("-") else 0)


__all__ = ["LEAST_REASON_WORDS", "cut_reasons", "fitted_status", "format_duration", "names_for", "run_duration",
           "run_server", "run_steps", "server_shown", "short_reason", "short_status", "unnamed_server",
           "unnamed_server_tip", "whole_words"]
