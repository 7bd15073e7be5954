"""What the run timeline shows for each step: its outcome, label and details.

These functions read raw stored payloads rather than :class:`RunStep`
objects on purpose: the timeline must render every row ever stored,
including rows from the reference and rows written before outcomes existed,
and must not refuse one because a newer rule would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, ClassVar

from .outcome import ToolOutcome
from .step import StepKind

LABEL_KEY_PREFIX = "outcome."
"""Prefix of the translation msgid of an outcome label; the outcome string follows."""

MAX_DETAILS_CHARS = 120
"""Details longer than this are shortened with an ellipsis; the column is one line."""

CANCELLED_IN_FLIGHT_NOTE = (
    "cancelled in flight (the request had been sent; whether the remote side acted on it is unknown)"
)
CANCELLED_BEFORE_SEND_NOTE = "cancelled before the request was sent"


@dataclass(frozen=True)
class TimelineEntry:
    """One row of a run's timeline.

    ``time`` is an aware datetime in UTC (an aware time in another zone is
    converted; a naive one is refused because its zone is a guess) or
    ``None`` when the row has no time. ``outcome`` is one of the
    ``OUTCOME_*`` constants; ``OUTCOME_NONE`` means the step states none.
    Rows sort by time, then by ``sequence`` (see :meth:`sort_key`).
    """

    # Taken from ToolOutcome rather than spelled again: the same string has
    # to reach the label key, or the cell renders empty without an error.
    OUTCOME_OK: ClassVar[str] = ToolOutcome.OK.value
    OUTCOME_FAILED: ClassVar[str] = ToolOutcome.FAILED.value
    OUTCOME_CANCELLED: ClassVar[str] = ToolOutcome.CANCELLED.value
    OUTCOME_NONE: ClassVar[str] = ""
    OUTCOMES: ClassVar[tuple[str, ...]] = (OUTCOME_OK, OUTCOME_FAILED, OUTCOME_CANCELLED, OUTCOME_NONE)

    time: datetime | None
    source: str
    kind: str
    round: int
    duration_ms: float
    outcome: str
    details: str
    sequence: int

    def __post_init__(self) -> None:
        if self.time is not None:
            if not isinstance(self.time, datetime):
                raise ValueError(f"time must be a datetime or None, got {type(self.time).__name__}")
            if self.time.utcoffset() is None:
                raise ValueError("time must be timezone-aware (UTC); a naive time's zone is a guess")
            object.__setattr__(self, "time", self.time.astimezone(timezone.utc))
        if self.outcome not in self.OUTCOMES:
            raise ValueError(f"outcome must be one of {list(self.OUTCOMES)}, got {self.outcome!r}")
        # A str subclass (a ToolOutcome member) becomes a plain str, so two
        # entries for the same row compare equal however they were built.
        object.__setattr__(self, "outcome", str.__str__(self.outcome))

    def sort_key(self) -> tuple[bool, datetime, int]:
        """Key ordering rows by time, then sequence; rows without a time go first (as the
        store orders them: an unknown time sorts before every known one)."""
        return (
            self.time is not None,
            self.time or datetime.min.replace(tzinfo=timezone.utc),
            self.sequence,
        )

    @classmethod
    def from_step_payload(
        cls,
        payload: Mapping[str, Any],
        *,
        sequence: int,
        time: datetime | None = None,
        source: str = "",
    ) -> TimelineEntry:
        """Build the row for a stored step payload.

        Lenient by design: a missing or mistyped kind, round or duration
        shows as empty/zero instead of hiding the row.
        """
        kind = payload.get("kind")
        round_ = payload.get("round")
        duration = payload.get("durationMs")
        return cls(
            time=time,
            source=source,
            kind=kind if isinstance(kind, str) else "",
            round=round_ if isinstance(round_, int) and not isinstance(round_, bool) else 0,
            duration_ms=float(duration)
            if isinstance(duration, (int, float)) and not isinstance(duration, bool)
            else 0.0,
            outcome=step_outcome(payload),
            details=step_details(payload),
            sequence=sequence,
        )


def ordered(entries: Iterable[TimelineEntry]) -> list[TimelineEntry]:
    """Return the rows in timeline order: by time, then by step sequence."""
    return sorted(entries, key=TimelineEntry.sort_key)


def step_outcome(payload: Mapping[str, Any]) -> str:
    """Return the outcome a stored step payload shows, or ``""`` for none.

    ``toolIsError`` decides WHETHER a step states an outcome: it is the key
    every tool step has always carried. ``toolOutcome`` decides WHICH one.
    Reading the boolean first is what makes a row written before outcomes
    existed show "ok"/"failed" exactly as it always did.
    """
    if type(payload) is not dict and not isinstance(payload, Mapping):  # (a dict: without the ABC's check)
        return TimelineEntry.OUTCOME_NONE
    is_error = payload.get("toolIsError")
    if not isinstance(is_error, bool):
        return TimelineEntry.OUTCOME_NONE
    outcome = ToolOutcome.parse(payload.get("toolOutcome"))
    if outcome is not None:
        return outcome.value
    return TimelineEntry.OUTCOME_FAILED if is_error else TimelineEntry.OUTCOME_OK


def outcome_label_key(outcome: str) -> str:
    """Return the translation msgid for an outcome's label, e.g. ``"outcome.cancelled"``.

    The msgid ends with the outcome string itself, so the label cannot drift
    from the value. ``""`` (no outcome) has no label and gives ``""``.
    An unknown outcome raises ``ValueError``: a silently missing label is
    the failure this guards against.
    """
    if outcome == TimelineEntry.OUTCOME_NONE:
        return ""
    if ToolOutcome.parse(outcome) is None:
        raise ValueError(f"no label for unknown outcome {outcome!r}")
    return f"{LABEL_KEY_PREFIX}{str.__str__(outcome)}"


class DetailWords:
    """The words :func:`step_details` puts around a step's own text, in English.

    The stored and exported details are English; a display layer passes a subclass that says the
    same in the user's language (``inspector.i18n.details``). Each method returns a whole phrase,
    so a language can order its parts as it needs.
    """

    def cancelled_in_flight(self) -> str:
        return CANCELLED_IN_FLIGHT_NOTE

    def cancelled_before_send(self) -> str:
        return CANCELLED_BEFORE_SEND_NOTE

    def dropped_sources(self, count: int) -> str:
        return f"dropped {count} source{'s' if count != 1 else ''}"

    def wrote(self, target: str) -> str:
        return f"wrote {target}"

    def result_and_write(self, result: str, target: str) -> str:
        return f"{result} (wrote {target})".strip()

    def requested_tool_calls(self, count: int) -> str:
        return f"requested {count} tool call{'s' if count != 1 else ''}"

    def tool_and_detail(self, tool: str, detail: str) -> str:
        return ": ".join(part for part in (tool, detail) if part)

    def result_line(self, payload: Mapping[str, Any], line: str) -> str:
        """The first line of a step's result as shown; the stored one here (a display layer may say
        a sentence the importer wrote, kept with its template, in the user's language)."""
        return line

    def content_line(self, payload: Mapping[str, Any], line: str) -> str:
        """The first line of a step's content as shown; the stored one here (a display layer may say
        the sentence of ours it begins with, kept as data in ``wording``, in the user's language)."""
        return line


ENGLISH_DETAILS = DetailWords()


def step_details(payload: Mapping[str, Any], words: DetailWords = ENGLISH_DETAILS,
                 limit: int = MAX_DETAILS_CHARS) -> str:
    """Return a short one-line description of a stored step payload.

    Tool steps give the tool name and the first line of the result (or, for
    a cancelled call, whether the request had been sent); llm steps give a
    preview of the reply. ``words`` says the parts that are ours (English by default);
    ``limit``: the characters past which the description is shortened (a terminal may give more).
    """
    if not isinstance(payload, Mapping):
        return ""
    kind = payload.get("kind")
    if kind == StepKind.TOOL:
        text = _tool_details(payload, words, limit)
    elif kind == StepKind.LLM:
        text = _llm_details(payload, words)
    elif kind == StepKind.DROPPED and isinstance(payload.get("droppedSources"), list):
        text = words.dropped_sources(len(payload["droppedSources"]))
    elif kind == StepKind.TOOL_WRITE and isinstance(payload.get("writeTargetTable"), str):
        text = words.wrote(_write_target(payload))
    else:
        text = words.content_line(payload, _first_line(payload.get("content")))
        # A request read from a trace that failed (or never ended) says so beside its name: its kind
        # has no outcome column to say it in.
        text = words.tool_and_detail(text, words.result_line(payload, _span_note(payload)))
    return _shorten(text, limit)


def _span_note(payload: Mapping[str, Any]) -> str:
    """The first sentence the trace importer wrote of a step's span (``raw.otlp.notes``: how it
    failed, that it never ended), or ""."""
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, Mapping) else None
    notes = otlp.get("notes") if isinstance(otlp, Mapping) else None
    first = notes[0] if isinstance(notes, list) and notes else None
    return _first_line(first.get("text")) if isinstance(first, Mapping) else ""


def _tool_details(payload: Mapping[str, Any], words: DetailWords, limit: int) -> str:
    name = _text(payload.get("toolName"))
    in_flight = payload.get("cancelledInFlight")
    if step_outcome(payload) == TimelineEntry.OUTCOME_CANCELLED and isinstance(in_flight, bool):
        # The cancellation note replaces the result line: what the operator
        # needs first is whether the remote side may have acted.
        detail = words.cancelled_in_flight() if in_flight else words.cancelled_before_send()
        # A long tool name gives way, so the note is never cut short.
        name = _shorten(name, limit - len(words.tool_and_detail("", detail)) - len(": "))
    else:
        detail = words.result_line(payload, _first_line(payload.get("toolResult")))
        if isinstance(payload.get("writeTargetTable"), str):
            detail = words.result_and_write(detail, _write_target(payload))
    return words.tool_and_detail(name, detail)


def _llm_details(payload: Mapping[str, Any], words: DetailWords) -> str:
    preview = words.content_line(payload, _first_line(payload.get("content")))
    if preview:
        return preview
    calls = payload.get("requestedToolCalls")
    if isinstance(calls, list) and calls:
        return words.requested_tool_calls(len(calls))
    return _text(payload.get("finishReason"))


def _write_target(payload: Mapping[str, Any]) -> str:
    uid = payload.get("writeTargetUid")
    table = _text(payload.get("writeTargetTable"))
    return f"{table} #{uid}" if isinstance(uid, int) and not isinstance(uid, bool) else table


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _first_line(value: object) -> str:
    for line in _text(value).splitlines():
        if line.strip():
            return line.strip()
    return ""


def _shorten(text: str, limit: int = MAX_DETAILS_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + "…"
