"""What a budget bar shows: an operation's budget, its legs and its progress notes; pure Python, no Qt.

The live operation (fed by the client's reports) and a replay (from the stored legs of a step)
both become a :class:`BarState`; :func:`~.budget_bar_layout.layout` turns a state at a moment into
geometry (:mod:`.budget_bar_words` words it), so the drawing can be tested on a fake clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from inspector.i18n.refused_probe import (
    PROBE_METHOD,
    is_refused_probe,
    is_unanswered_probe,
    is_unserved_probe,
    legs_seen,
)
from inspector.i18n.transport_probe import CONNECT_METHOD, is_transport_found, is_transport_refusal
from inspector.runs import Leg
from inspector.runs.ending import ENDINGS, ending_of, leg_timed_out
from inspector.runs.progress import KEEP_FIRST, KEEP_LAST

from .budget_waits import WAITING, is_input_leg
from .leg_wire_words import exchange_sides

#: The kind of a ``server/discover`` probe whose refusal or silence found the handshake era, and of
#: the ``initialize`` POST whose 404 or 405 found the older HTTP+SSE transport: a finished leg,
#: neither ok nor failed (its stored outcome stays as it is), drawn neutral.
ERA_FOUND = "era_found"
#: Why a replayed operation had no deadline (:attr:`BarState.no_deadline`): the agent's own call the
#: recording proxy passed through with no budget of ours, or a step from a trace that records none.
PASSED_THROUGH = "passed_through"
RECORDED_ELSEWHERE = "recorded_elsewhere"
#: The most progress notes a bar keeps: past it, every other note between the first and the last ones
#: goes (a call may report progress for hours; the ticks a bar draws merge by the pixel anyway).
MAX_MARKS = 2_000
#: The first and the last notes a bar always keeps: those a step keeps.
MARKS_FIRST, MARKS_LAST = KEEP_FIRST, KEEP_LAST


@dataclass
class LegState:
    """One leg as the bar knows it: ``elapsed_s`` is ``None`` while it runs."""

    method: str
    start_s: float
    granted_s: int | None
    elapsed_s: float | None = None
    outcome: str | None = None  # ok, failed, not_sent, cancelled; None while running
    http_status: int | None = None
    #: ``None``: not known (a stored leg keeps no count of the bytes it received).
    bytes_received: int | None = 0
    error_kind: str | None = None
    #: A ``server/discover`` probe the server refused: stored ``ok`` (the refusal is its finding),
    #: said in words (:func:`inspector.i18n.refused_probe.refused_probe_word`), never a bare "ok".
    refused_probe: bool = False
    #: A ``server/discover`` probe refused with an HTTP error status where no server answered after it
    #: either (the handshake refused too, no older transport found): stored ``ok``, said as what it saw
    #: (:func:`inspector.i18n.refused_probe.unserved_probe_word`), claiming no era.
    unserved_probe: bool = False
    #: A ``server/discover`` probe a command server never answered, after which the operation
    #: opened with ``initialize``: stored ``failed``, said as what the silence found
    #: (:func:`inspector.i18n.refused_probe.unanswered_probe_word`).
    unanswered_probe: bool = False
    #: Live: the leg would be an unanswered probe if ``initialize`` came next.
    unanswered_if_initialize: bool = False
    #: The ``initialize`` POST refused with 404 or 405 after which the older HTTP+SSE transport's event
    #: stream opened (live: is being opened): stored ``failed``, said as the transport it found
    #: (:func:`inspector.i18n.transport_probe.transport_found_word`).
    transport_found: bool = False
    #: Whether its request went out and an answer came back, as its kept exchange tells (``None``:
    #: nothing kept): what a leg on a pipe can say of itself.
    sent: bool | None = None
    answered: bool | None = None

    @property
    def running(self) -> bool:
        return self.outcome is None

    @property
    def timed_out(self) -> bool:
        # A replayed leg has no error kind: a failed leg that used its whole grant hit it.
        return leg_timed_out(self.outcome, self.granted_s, self.elapsed_s, self.error_kind)


@dataclass(frozen=True)
class ProgressMark:
    """A progress notification and when (seconds into the operation) it arrived."""

    at_s: float
    progress: float
    total: float | None
    message: str | None


@dataclass
class BarState:
    """An operation's budget and legs; ``ended_s`` and ``ending`` are set when it is over."""

    budget_s: float
    legs: list[LegState] = field(default_factory=list)
    #: The progress notes, in order: at most :data:`MAX_MARKS` of them, spread over the operation.
    marks: list[ProgressMark] = field(default_factory=list)
    #: How many progress notes were added, the ones thinned out of :attr:`marks` too.
    marks_heard: int = 0
    #: Between the first and the last notes kept, one is kept per span of this many seconds (0: all).
    _mark_span_s: float = field(default=0.0, compare=False, repr=False)
    ended_s: float | None = None
    ending: str | None = None  # one of ENDINGS
    #: The kind of failure (a key of :func:`inspector.i18n.words.failure_word`: "tool_error",
    #: "unreachable", ...), said in the language of the moment it is shown.
    reason: str | None = None
    #: Bumped by every change made through the methods: what :func:`layout` made of the legs that
    #: have ended is kept until it moves (a frame lays out the running leg, not the history).
    version: int = field(default=0, compare=False, repr=False)
    #: Bumped by every change but a progress note: what a line's mini bar shows (it draws no notes).
    legs_version: int = field(default=0, compare=False, repr=False)
    kept: dict = field(default_factory=dict, compare=False, repr=False)
    #: How the server is reached ("http", "sse" or "stdio"): how a leg's tooltip says what travelled.
    transport: str = "http"
    #: ``None``: ``budget_s`` is the operation's deadline. Else why nobody set one (:data:`PASSED_THROUGH`,
    #: :data:`RECORDED_ELSEWHERE`): ``budget_s`` is then only the time the bar's track shows.
    no_deadline: str | None = None

    @property
    def finished(self) -> bool:
        return self.ending is not None

    def touch(self) -> None:
        """Say that something the bar shows changed (what was laid out is laid out again)."""
        self.version += 1
        self.legs_version += 1

    def reset(self) -> None:
        """Back to no legs, no marks, no ending (an operation that starts afresh)."""
        self.legs.clear()
        self.marks.clear()
        self.marks_heard = 0
        self._mark_span_s = 0.0
        self.ended_s = self.ending = self.reason = None
        self.touch()

    def add_mark(self, mark: ProgressMark) -> None:
        """A progress note: kept whole among the first and the last ones; between them, once there are
        :data:`MAX_MARKS`, the latest of each span of time (spans that double as the call goes on)."""
        marks = self.marks
        marks.append(mark)
        self.marks_heard += 1
        joined = len(marks) - MARKS_LAST - 1  # the note that just left the last ones for the middle
        if self._mark_span_s and joined > MARKS_FIRST and \
                self._span_of(marks[joined]) == self._span_of(marks[joined - 1]):
            del marks[joined - 1]
        if len(marks) > MAX_MARKS:  # memory stays bounded, the notes spread over the whole call
            self._mark_span_s = self._mark_span_s * 2 or max((mark.at_s - marks[0].at_s) / (MAX_MARKS // 2), 1e-3)
            middle = {self._span_of(kept): kept for kept in marks[MARKS_FIRST:-MARKS_LAST]}
            self.marks = marks[:MARKS_FIRST] + list(middle.values()) + marks[-MARKS_LAST:]
        self.version += 1  # the full bar draws it; a line's mini bar does not (legs_version stays)

    def _span_of(self, mark: ProgressMark) -> int:
        return int(mark.at_s // self._mark_span_s)

    def leg_started(self, method: str, granted_s: int, start_s: float) -> None:
        if self.legs and method == "initialize":
            self.legs[-1].unanswered_probe = self.legs[-1].unanswered_if_initialize
        if self.legs and method == CONNECT_METHOD:  # the refused POST found the older transport, if it opens
            before = self.legs[-1]
            before.transport_found = is_transport_refusal(before.method, before.outcome, before.http_status)
        self.legs.append(LegState(method, start_s, granted_s))
        self._recheck_probes()
        self.touch()

    def _recheck_probes(self) -> None:
        """Tell again, now that the legs after it are known, whether a ``server/discover`` probe refused
        with an HTTP error status found the era or found no server there (only the two legs after a probe
        tell it: the probes among the last three legs)."""
        for index in range(max(0, len(self.legs) - 3), len(self.legs)):
            leg = self.legs[index]
            if leg.method == PROBE_METHOD and (leg.refused_probe or leg.unserved_probe):
                later = legs_seen(self.legs[index + 1:])
                unserved = is_unserved_probe(leg.method, leg.outcome, leg.http_status, later)
                if unserved or leg.unserved_probe:  # refused with a status: the era, or no server there
                    leg.refused_probe = not unserved
                leg.unserved_probe = unserved

    def leg_finished(self, method: str, granted_s: int | None, elapsed_s: float | None, outcome: str,
                     http_status: int | None = None, bytes_received: int = 0,
                     error_kind: str | None = None, now_s: float | None = None, exchange: object = None) -> None:
        """Close the running leg of that method, or add a leg that never started (not sent).
        ``exchange``: what the leg kept of what travelled (it tells a probe refused with a JSON-RPC error)."""
        self.touch()
        for index in range(len(self.legs) - 1, -1, -1):
            leg = self.legs[index]
            if leg.method == method and leg.running:
                if method == CONNECT_METHOD and index and str(outcome) != Leg.OK:
                    self.legs[index - 1].transport_found = False  # no event stream: the refusal was the failure
                leg.elapsed_s, leg.outcome = elapsed_s, outcome
                leg.http_status, leg.bytes_received, leg.error_kind = http_status, bytes_received, error_kind
                leg.refused_probe = is_refused_probe(method, outcome, http_status, exchange)
                leg.unanswered_if_initialize = is_unanswered_probe(method, outcome, http_status, exchange,
                                                                   "initialize")
                leg.sent, leg.answered = exchange_sides(exchange)
                self._recheck_probes()
                return
        start = now_s if now_s is not None else self.spent_until()
        self.legs.append(LegState(method, start, granted_s, elapsed_s if elapsed_s is not None else 0.0
                                  if outcome != Leg.NOT_SENT else None, outcome, http_status,
                                  bytes_received, error_kind))

    def spent_until(self) -> float:
        """Where the last finished leg ended (seconds into the operation)."""
        ends = [leg.start_s + (leg.elapsed_s or 0.0) for leg in self.legs if not leg.running]
        return max(ends, default=0.0)

    def finish(self, ended_s: float, ending: str, reason: str | None = None) -> None:
        if ending not in ENDINGS:
            raise ValueError(f"unknown ending {ending!r}")
        self.ended_s, self.ending, self.reason = ended_s, ending, reason
        self.touch()

    @classmethod
    def replay(cls, legs: Sequence[Leg], budget_s: float, status: str, ended_s: float | None = None,
               transport: str | None = None, no_deadline: str | None = None) -> BarState:
        """A finished operation from its stored legs; legs ran one after another from 0.

        ``ended_s``: when the operation ended (its step's duration), as the live bar ends. The one
        deadline counts wall time from the operation's start, the time between and after the legs
        too, so the bar has spent that much, not only the sum of its legs (a stored leg keeps no
        start: that time is drawn after the last leg). ``transport``: the step's ("http" if none).
        ``no_deadline``: why the operation had none (:attr:`no_deadline`)."""
        state = cls(budget_s, transport=transport or "http", no_deadline=no_deadline)
        at = 0.0
        seen = legs_seen(legs)
        for index, leg in enumerate(legs):
            elapsed = None if leg.elapsed_ms is None else leg.elapsed_ms / 1000
            after = legs[index + 1] if index + 1 < len(legs) else None
            following = after.method if after is not None else None
            state.legs.append(LegState(leg.method, at, leg.granted_s, elapsed, leg.outcome, leg.http_status, None,
                                       refused_probe=is_refused_probe(leg.method, leg.outcome, leg.http_status,
                                                                      leg.exchange, seen[index + 1:]),
                                       unserved_probe=is_unserved_probe(leg.method, leg.outcome, leg.http_status,
                                                                        seen[index + 1:]),
                                       unanswered_probe=is_unanswered_probe(leg.method, leg.outcome, leg.http_status,
                                                                            leg.exchange, following),
                                       transport_found=is_transport_found(
                                           leg.method, leg.outcome, leg.http_status, following,
                                           after.outcome if after is not None else None)))
            state.legs[-1].sent, state.legs[-1].answered = exchange_sides(leg.exchange)
            at += elapsed or 0.0
        state.finish(max(at, ended_s or 0.0), ending_for(status, state.legs))
        return state


def why_no_deadline(legs: Sequence[Leg], run_source: str, budget_s: float | None = None) -> str | None:
    """Why a stored step's legs had no deadline, or ``None`` when one was set (a leg was granted
    time, or the step records its operation's budget: one cancelled before its first leg was sent
    grants nothing): a live run's were the agent's own, passed through by the recording proxy without a
    budget; any other run's (imported) were recorded by another tool that keeps no grant."""
    if budget_s is not None or any(leg.granted_s is not None for leg in legs):
        return None
    return PASSED_THROUGH if run_source == "live" else RECORDED_ELSEWHERE


def legs_status(legs: Sequence[Leg]) -> str:
    """How a stored step whose payload records no outcome (a request step: tools/list, ping...)
    ended, as its legs tell it: as its last leg did (ok, cancelled, else failed)."""
    last = legs[-1].outcome if legs else Leg.OK
    return last if last in (Leg.OK, Leg.CANCELLED) else Leg.FAILED


def ending_for(status: str, legs: Sequence[LegState], error_kind: str | None = None) -> str:
    """The ending to draw for an operation's status (ok/failed/cancelled) and its legs (the rule
    ``runs show`` says a stored step's outcome by: :mod:`inspector.runs.ending`)."""
    return ending_of(status, not_sent=any(leg.outcome == Leg.NOT_SENT for leg in legs),
                     timed_out=any(leg.timed_out for leg in legs), error_kind=error_kind)



def leg_kind(leg: LegState) -> str:
    """How a leg is drawn and said: running, ok, failed, timed_out, cancelled, not_sent, waiting
    (:mod:`.budget_waits`) or :data:`ERA_FOUND`."""
    if is_input_leg(leg.method) and (leg.running or leg.outcome == Leg.OK):
        return WAITING  # its end (failed, cancelled) is drawn as any leg's
    if leg.running:
        return "running"
    if leg.refused_probe or leg.unanswered_probe or leg.transport_found or leg.unserved_probe:
        return ERA_FOUND  # its finding, not a failure (nor a plain ok): whatever it is stored as
    if leg.outcome == Leg.NOT_SENT:
        return "not_sent"
    if leg.outcome == Leg.CANCELLED:
        return "cancelled"
    if leg.outcome == Leg.FAILED:
        return "timed_out" if leg.timed_out else "failed"
    return "ok"
