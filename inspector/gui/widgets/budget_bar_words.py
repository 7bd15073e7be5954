"""The budget bar's words: a leg's label and tooltip, the countdown, the ending, the description a
screen reader gets; each said in the language of the moment it is shown. Pure Python, no Qt."""

from __future__ import annotations

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_duration, format_fixed, format_number
from inspector.i18n.formatting import format_seconds as format_seconds_number
from inspector.i18n.messages import translate
from inspector.i18n.refused_probe import refused_probe_word, unanswered_probe_word, unserved_probe_word
from inspector.i18n.transport_probe import transport_found_word
from inspector.i18n.words import OUTCOME_MARKS, failure_word, leg_outcome_word, marked_outcome_text, step_outcome_word
from inspector.mcp.leg_names import leg_name
from inspector.runs import Leg
from inspector.runs.ending import GRANT_REACHED_TOLERANCE_S, UNRECORDED, ending_outcome

from .budget_state import ERA_FOUND, PASSED_THROUGH, BarState, LegState, ProgressMark, leg_kind
from .budget_waits import WAITING, waiting_label, waiting_state, waiting_words
from .leg_wire_words import wire_words

#: At most this many methods are named in a merged segment's tooltip.
MERGED_METHODS_NAMED = 4


def leg_said(method: str) -> str:
    """A leg's name in the current language ("tools/call (Runde 2)"); it is kept in English."""
    return translate(leg_name(method))


def format_seconds(seconds: float) -> str:
    """A time spent, for a label: the window's one duration format ("0.04 s", "6.3 s")."""
    return format_duration(max(0.0, seconds))


def leg_label(leg: LegState, spent: float) -> str:
    """A leg's label on the bar: its method, what it spent and its grant, or what it found."""
    if leg_kind(leg) == WAITING:
        return waiting_label(leg.method, format_seconds(spent), leg.granted_s)
    if leg.outcome == Leg.NOT_SENT:
        return _("{method}: not sent, budget used up").format(method=leg_said(leg.method))
    if leg.refused_probe and leg.granted_s is not None:
        return _("{method}: not offered, {spent} / grant {grant} s").format(
            method=leg_said(leg.method), spent=format_seconds(spent), grant=leg.granted_s)
    if leg.unserved_probe and leg.granted_s is not None:
        return _("{method}: answered HTTP {status}, {spent} / grant {grant} s").format(
            method=leg_said(leg.method), status=leg.http_status, spent=format_seconds(spent), grant=leg.granted_s)
    if leg.unanswered_probe and leg.granted_s is not None:
        return _("{method}: no answer, {spent} / grant {grant} s").format(
            method=leg_said(leg.method), spent=format_seconds(spent), grant=leg.granted_s)
    if leg.transport_found and leg.granted_s is not None:
        return _("{method}: older transport found, {spent} / grant {grant} s").format(
            method=leg_said(leg.method), spent=format_seconds(spent), grant=leg.granted_s)
    if leg.granted_s is None:
        return _("{method} {spent}").format(method=leg_said(leg.method), spent=format_seconds(spent))
    return _("{method} {spent} / grant {grant} s").format(method=leg_said(leg.method), spent=format_seconds(spent),
                                                          grant=leg.granted_s)


def leg_short_label(leg: LegState, spent: float) -> str:
    """The label without the method: what is shown where the whole one does not fit."""
    if leg_kind(leg) == WAITING:
        return waiting_label(leg.method, format_seconds(spent), None)
    if leg.outcome == Leg.NOT_SENT or leg.granted_s is None:
        return ""
    return _("{spent} / grant {grant} s").format(spent=format_seconds(spent), grant=leg.granted_s)


def spent_text(state: BarState, at_s: float) -> str:
    """How much of the budget is spent, for the bar's header: "6.3 s of 20 s spent"; with no deadline,
    the time taken and why none was set ("2.6 s · no deadline: the agent's own call, passed through")."""
    if state.no_deadline is not None:
        return _("{spent} · no deadline: {why}").format(spent=format_seconds(max(0.0, at_s)),
                                                        why=no_deadline_words(state.no_deadline))
    return _("{spent} of {budget} s spent").format(spent=format_seconds(max(0.0, at_s)),
                                                   budget=format_seconds_number(state.budget_s))


def no_deadline_words(why: str) -> str:
    """Why an operation had no deadline (:attr:`BarState.no_deadline`), in words."""
    if why == PASSED_THROUGH:
        return _("the agent's own call, passed through")
    return _("the trace records none")


def _rounded_up(leg: LegState, budget_s: float) -> bool:
    """Was the leg granted more than was left of the budget when it started (whole seconds, at least one)?"""
    return leg.granted_s is not None and leg.granted_s > budget_s - leg.start_s + GRANT_REACHED_TOLERANCE_S


def leg_tooltip(leg: LegState, spent: float, budget_s: float | None = None, transport: str = "http") -> str:
    """A leg's tooltip: its state, grant and time spent, and what travelled (in ``transport``'s words)."""
    kind = leg_kind(leg)
    if leg.refused_probe:
        words = refused_probe_word()
    elif leg.unanswered_probe:
        words = unanswered_probe_word()
    elif leg.unserved_probe:
        words = unserved_probe_word(leg.http_status)
    elif leg.transport_found:
        words = transport_found_word(leg.http_status)
    else:
        words = {
            "running": _("running"), "ok": _("ok"), "failed": _("failed"),
            "timed_out": _("failed: timed out at its grant"), "cancelled": _("cancelled"),
            "not_sent": _("not sent: the budget was used up"), WAITING: waiting_state(leg.method),
        }[kind]
    grant = _("none") if leg.granted_s is None else _("{seconds} s").format(
        seconds=format_seconds_number(leg.granted_s))
    if budget_s is not None and _rounded_up(leg, budget_s):
        grant = _("{grant} (the {left} left of the budget, rounded up to whole seconds)").format(
            grant=grant, left=format_seconds(budget_s - leg.start_s))
    lines = [_("{method}: {state}\ngrant {grant}, spent {spent}").format(
        method=leg_said(leg.method), state=words, grant=grant, spent=format_seconds(spent))]
    if leg.transport_found:
        lines.append(_("how the transport was found, not a failure: the operation went on over the older "
                       "HTTP+SSE transport"))
    elif kind == ERA_FOUND:
        lines.append(_("the probe's finding, not a failure: the operation went on with the handshake"))
    if kind != WAITING:  # a wait on input: nothing travelled, no status, no bytes to speak of
        lines.append(wire_words(transport, leg.method, outcome=leg.outcome, http_status=leg.http_status,
                                bytes_received=leg.bytes_received, sent=leg.sent, answered=leg.answered))
    return "\n".join(line for line in lines if line)


def outcome_and_kind(state: BarState) -> tuple[str, str | None]:
    """The outcome of a finished operation and, for a failure, its kind (timed out and refused are
    kinds of failed)."""
    return ending_outcome(state.ending or "", state.reason)


def ending_text(state: BarState) -> str:
    """The word(s) for how the operation ended, with the mark that goes with them (the vocabulary of
    :mod:`inspector.i18n.words`: timed out and refused are kinds of failed)."""
    if state.ending == UNRECORDED:
        return step_outcome_word("tool", None)
    return marked_outcome_text(*outcome_and_kind(state))


def kind_ending_text(state: BarState) -> str | None:
    """A failure's kind alone beside the failed mark ("✗ timed out"), for a place too narrow for
    :func:`ending_text`'s whole words (the timeline's Outcome cell says so too); ``None`` for an ending
    that is no failure of a kind."""
    outcome, kind = outcome_and_kind(state)
    if state.ending == UNRECORDED or outcome != "failed" or not kind:
        return None
    return _("{mark} {outcome}").format(mark=OUTCOME_MARKS["failed"], outcome=failure_word(kind))


def merged_words(legs: list[LegState], spent: float) -> tuple[str, str, str]:
    """What a segment of legs too narrow to draw one by one says: its label, its short label and
    its tooltip (how many they are, which methods, what they spent)."""
    count = len(legs)
    methods = list(dict.fromkeys(leg_said(leg.method) for leg in legs))
    named = ", ".join(methods[:MERGED_METHODS_NAMED]) + (", …" if len(methods) > MERGED_METHODS_NAMED else "")
    spent_text = format_seconds(spent)
    label = ngettext("{count} leg, {spent}", "{count} legs, {spent}", count).format(
        count=format_number(count), spent=spent_text)
    short = ngettext("{count} leg", "{count} legs", count).format(count=format_number(count))
    tooltip = ngettext("{count} leg ({methods}), each too short to draw alone\nspent {spent} in all",
                       "{count} legs ({methods}), each too short to draw alone\nspent {spent} in all",
                       count).format(count=format_number(count), methods=named, spent=spent_text)
    return label, short, tooltip


def progress_tooltip(mark: ProgressMark) -> str:
    """A progress mark's tooltip: how far, when, and the server's message."""
    amount = (_("{progress} of {total}").format(progress=format_number(mark.progress),
                                                total=format_number(mark.total))
              if mark.total is not None else format_number(mark.progress))
    text = _("progress {amount} at {time}").format(amount=amount, time=format_seconds(mark.at_s))
    return f"{text}\n{mark.message}" if mark.message else text


def describe(state: BarState, at_s: float) -> str:
    """What the bar shows, in words, for a screen reader."""
    budget = _("{seconds} s").format(seconds=format_seconds_number(state.budget_s))
    if state.finished:
        legs = "; ".join(_leg_phrase(leg) for leg in state.legs) or _("no legs")
        ending = ending_text(state).lstrip("✓⊘✗ ")
        if state.no_deadline is not None:
            return _("{ending} after {spent}, no deadline: {why}; {legs}").format(
                ending=ending, spent=format_seconds(at_s), why=no_deadline_words(state.no_deadline), legs=legs)
        return _("{ending} after {spent} of a {budget} budget; {legs}").format(
            ending=ending, spent=format_seconds(at_s), budget=budget, legs=legs)
    return describe_running(state, at_s, next((leg for leg in state.legs if leg.running), None))


def shown_tenths(remaining_s: float) -> int:
    """What the countdown shows of ``remaining_s``, in tenths of a second: below zero past the deadline,
    and never zero: a call with any time left shows at least 0.1 s left, one at or past its deadline at
    least 0.1 s over (rounded as it was, a twentieth of a second either side read "0.0 s left")."""
    tenths = round(remaining_s * 10)
    if tenths == 0:
        return 1 if remaining_s > 0 else -1
    return tenths


def remaining_text(remaining_s: float) -> str:
    """The bar's countdown: "12.6 s left", or past the deadline (a leg granted whole seconds runs on
    into the second the deadline allowed it) "0.3 s over", never "0.0 s left" while it still runs
    (:func:`shown_tenths`)."""
    tenths = shown_tenths(remaining_s)
    if tenths < 0:
        return _("{seconds} s over").format(seconds=format_fixed(-tenths / 10, 1))
    return _("{seconds} s left").format(seconds=format_fixed(tenths / 10, 1))


def describe_running(state: BarState, at_s: float, running: LegState | None) -> str:
    """What the bar of a running operation shows, in words: the running leg and the time left (as the
    countdown says it, :func:`shown_tenths`), or how far past the deadline it runs."""
    budget = _("{seconds} s").format(seconds=format_seconds_number(state.budget_s))
    tenths = shown_tenths(state.budget_s - at_s)
    left = _("{seconds} s").format(seconds=format_fixed(tenths / 10, 1))
    over = format_seconds(at_s - state.budget_s)
    if running is None:
        if tenths < 0:
            return _("running; {over} past the {budget} budget").format(over=over, budget=budget)
        return _("running; {left} of {budget} left").format(left=left, budget=budget)
    spent, grant = format_seconds(max(0.0, at_s - running.start_s)), format_seconds_number(running.granted_s)
    if not _rounded_up(running, state.budget_s):
        if tenths < 0:  # its grant ran out with the budget: it is about to end "timed out"
            return _("{method}: {spent} spent of a {grant} s grant; {over} past the {budget} budget").format(
                method=running.method, spent=spent, grant=grant, over=over, budget=budget)
        return _("{method}: {spent} spent of a {grant} s grant; {left} of {budget} left").format(
            method=running.method, spent=spent, grant=grant, left=left, budget=budget)
    # Less than its grant was left when it started: the grant is that rest rounded up to whole seconds,
    # and the leg may run past the deadline (the grant is not what the budget still holds).
    granted_of = format_seconds(state.budget_s - running.start_s)
    if tenths > 0:
        return _("{method}: {spent} spent of a {grant} s grant (the {granted_of} left of the budget, rounded up to "
                 "whole seconds); {left} of {budget} left").format(
            method=running.method, spent=spent, grant=grant, granted_of=granted_of, left=left, budget=budget)
    return _("{method}: {spent} spent of a {grant} s grant (the {granted_of} left of the budget, rounded up to "
             "whole seconds); {over} past the {budget} budget").format(
        method=running.method, spent=spent, grant=grant, granted_of=granted_of, budget=budget, over=over)


def _leg_phrase(leg: LegState) -> str:
    spent = leg.elapsed_s or 0.0
    if leg_kind(leg) == WAITING:
        return _("{waiting} for {spent}").format(waiting=waiting_words(leg.method), spent=format_seconds(spent))
    kind = leg_kind(leg)
    if kind == ERA_FOUND:  # a sentence of its own
        finding = (refused_probe_word() if leg.refused_probe else unanswered_probe_word() if leg.unanswered_probe
                   else unserved_probe_word(leg.http_status) if leg.unserved_probe
                   else transport_found_word(leg.http_status))
        return _("{method} in {spent}, {finding}").format(method=leg_said(leg.method), spent=format_seconds(spent),
                                                          finding=finding)
    kind = _("timed out") if kind == "timed_out" else leg_outcome_word(kind)  # the command line's words too
    return _("{method} {kind} in {spent}").format(method=leg_said(leg.method), kind=kind, spent=format_seconds(spent))
