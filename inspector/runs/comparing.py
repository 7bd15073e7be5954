"""Two runs set side by side: their steps aligned, and what differs in each aligned pair.

**Alignment.** Each step has a key: its kind and its name (a tool step's tool, else the span's name
of an imported step, else nothing: a model's steps all share the key ``("llm", "")``). The steps are
aligned as two sequences, in run order: a step is paired only with a step of the same key, and the
pairing keeps the most steps paired (a weighted longest common subsequence), preferring pairs of the
same round. An inserted or missing step (a retry, a round one run never reached) is a row of its own
("only in run N") and shifts nothing after it. A run without rounds (an imported trace, a single
operation) aligns by order and key alone (:mod:`.aligning` does it).

**Differences** of a pair, the second run against the first: the outcome (ok, failed, cancelled or
none: cancelled is never failed), the duration (see :func:`duration_change`; compared only between
two steps that ended alike: a call the user cancelled after 0.8 s was not "faster" than one that
timed out after 1.5 s), the arguments (a tool step's arguments; the tool calls a model's step asked
for, without their call ids; a tool step whose trace recorded none, as the mcp SDK's spans record none, has
none to differ: "other arguments" said of it sent a support engineer looking for a change that no one
made), the result (a tool step's result text, a failed call's its error; a model's reply) and the content
blocks (a tool step's blocks as stored: a resource link's address, an image's type and size and the
picture kept of it; two answers of the same text whose links differ are not alike). The last two only
between two steps that have an answer (:attr:`StepFacts.answered`): a cancelled call and one whose source
recorded no outcome have none (two calls with no outcome recorded ended alike; only their durations may
differ), and a call cancelled in one run and ok in the other is that outcome change, not "another result".

**The summary** counts the pairs: alike (no difference), slower, faster, with other arguments, with
another result, with other content blocks, and the outcome changes by their two outcomes. Each pair
counts once, under the first of its outcome change, its other arguments, its other answer (result,
content blocks) and its duration: a call cancelled in one run and ok in the other has, of course,
another duration and another result, and a call asked with other arguments another answer, which would
say nothing more (and made the counts add up to more than the rows). Its row says every difference.

Plain values only: no I/O. :func:`step_facts` reads a stored payload (leniently, as the timeline
does: every row ever stored must compare).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .aligning import align
from .ending import UNRECORDED, stored_failure
from .leg import Leg
from .step import StepKind
from .timeline import step_details, step_outcome

SLOWER_RATIO = 0.2
"""A duration counts as changed only when it differs by more than this part of the shorter one…"""
SLOWER_MS = 100.0
"""…and by more than this many milliseconds (both must hold: 5 ms against 8 ms is noise, and so is
20.0 s against 20.1 s)."""

class Difference(StrEnum):
    """One way an aligned pair of steps differs (the second run's step against the first's)."""

    OUTCOME = "outcome"
    SLOWER = "slower"
    FASTER = "faster"
    ARGUMENTS = "arguments"
    RESULT = "result"
    CONTENT_BLOCKS = "content_blocks"
    ONLY_FIRST = "only_first"
    ONLY_SECOND = "only_second"


@dataclass(frozen=True, slots=True)
class StepFacts:
    """What the comparison needs of one stored step (bounded: digests, not the texts)."""

    #: The step's number in its run (the window's "Step N").
    sequence: int
    kind: str
    #: ``None`` in a run without rounds.
    round: int | None
    #: The tool's name, an imported step's span name, or "".
    name: str
    #: "ok", "failed", "cancelled" or "" (none).
    outcome: str
    duration_ms: float
    #: The step's one-line details (English, as stored and exported).
    details: str
    arguments_digest: bytes | None
    result_digest: bytes | None
    #: A tool step's content blocks and the pictures kept of them (``None``: it has none).
    blocks_digest: bytes | None = None
    #: A tool step's structured content, or the cut text it kept of it (``None``: it kept none, as every
    #: step stored before steps kept it): compared only with another step's that kept some, as a replay is.
    structure_digest: bytes | None = None
    #: The stored step's row id (for a view that reads the whole step); 0 when not stored.
    step_id: int = 0
    #: A failed step's kind of failure its legs or the importer's finding tell ("timed_out", "refused";
    #: :func:`inspector.runs.ending.stored_failure`), what the views say after "failed"; ``None``: none known.
    #: Said only: the comparison compares the outcome alone.
    failure: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, self.name

    @property
    def ended(self) -> str:
        """How the step ended, as an outcome change says it: its outcome, :data:`~.ending.UNRECORDED` for a tool
        call whose source recorded none (its Outcome cell's "not recorded"), ``""`` for a step with none by nature."""
        return self.outcome or (UNRECORDED if self.kind == StepKind.TOOL else "")

    @property
    def answered(self) -> bool:
        """Whether the step has an answer to compare: a tool call that ended ok or failed (a failed call's text is its
        error), a step of another kind. A cancelled call and one whose source recorded no outcome have none: their
        text is our sentence of why (\"You cancelled the operation after…\", \"no outcome recorded: the client stopped
        waiting 10 ms before…\"), which differs with the moment and the source, not with what the tool said."""
        return self.kind != StepKind.TOOL or self.outcome in ("ok", "failed")


#: The differences a row is counted under in the summary, the first kinds it has: what follows from them (another
#: result from other arguments, another duration from another answer) is not counted again, so that the summary's
#: counts add up to the rows. Another result and other content blocks are one kind: both are the answer.
COUNTED_FIRST = (frozenset({Difference.OUTCOME}), frozenset({Difference.ONLY_FIRST, Difference.ONLY_SECOND}),
                 frozenset({Difference.ARGUMENTS}), frozenset({Difference.RESULT, Difference.CONTENT_BLOCKS}),
                 frozenset({Difference.SLOWER, Difference.FASTER}))


@dataclass(frozen=True, slots=True)
class AlignedRow:
    """One row of the comparison: a pair of steps, or a step only one run has."""

    first: StepFacts | None
    second: StepFacts | None
    differences: frozenset[Difference]

    @property
    def alike(self) -> bool:
        return not self.differences

    @property
    def duration_change_ms(self) -> float | None:
        """The second step's duration minus the first's (``None`` unless both are there)."""
        if self.first is None or self.second is None:
            return None
        return self.second.duration_ms - self.first.duration_ms

    @property
    def failed_both(self) -> bool:
        """Whether both steps are calls that failed (their texts are their errors)."""
        return all(step is not None and step.outcome == "failed" for step in (self.first, self.second))

    @property
    def counted_differences(self) -> frozenset[Difference]:
        """What the summary counts this row under, once: the first of its outcome change, its other arguments, its
        other result and content blocks, its duration (:data:`COUNTED_FIRST`)."""
        for kinds in COUNTED_FIRST:
            if found := self.differences & kinds:
                return found
        return self.differences


@dataclass(frozen=True)
class ComparisonSummary:
    """The counts of a comparison (see the module's doc for what each counts)."""

    alike: int = 0
    slower: int = 0
    slower_ms: float = 0.0
    faster: int = 0
    faster_ms: float = 0.0
    arguments: int = 0
    results: int = 0
    content_blocks: int = 0
    only_first: int = 0
    only_second: int = 0
    #: Of ``results`` and ``content_blocks``, the pairs counted under both (another text is another text block
    #: too): said once, so that the summary's counts add up to the rows.
    results_with_blocks: int = 0
    #: Of ``results``, the pairs of two failed calls (:attr:`AlignedRow.failed_both`): their text is their error,
    #: said as "another error message", not "another result", as their rows say it.
    error_messages: int = 0
    #: Of ``error_messages``, the pairs counted under ``content_blocks`` too (of ``results_with_blocks`` as well):
    #: "another error message and other content blocks".
    error_messages_with_blocks: int = 0
    #: (how the step ended in the first run, in the second: :attr:`StepFacts.ended`) -> how many pairs.
    outcome_changes: Mapping[tuple[str, str], int] = field(default_factory=dict)


@dataclass(frozen=True)
class RunComparison:
    """Two runs' steps aligned, with the summary of what differs."""

    rows: tuple[AlignedRow, ...]
    summary: ComparisonSummary
    #: How many plumbing steps of each run (first, second) were left out, hidden as ``runs show`` and the
    #: timeline hide them (Traceloop's stream writers): one run's 7 read as "9 steps only in run 5".
    hidden_plumbing: tuple[int, int] = (0, 0)


# -- facts of a stored step ------------------------------------------------------------------------

def _canonical(value: Any) -> str:
    """One text per JSON value, whatever the order of an object's keys (lists keep their order; 1 and
    1.0, "1" and 1, true and 1 stay apart)."""
    if isinstance(value, Mapping):
        items = sorted(((str(key), item) for key, item in value.items()), key=lambda pair: pair[0])
        return "{" + ",".join(f"{key!r}:{_canonical(item)}" for key, item in items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_canonical(item) for item in value) + "]"
    return repr(value)


def _digest(value: Any) -> bytes | None:
    if value is None:
        return None
    try:
        text = value if isinstance(value, str) else _canonical(value)
    except RecursionError:  # nested deeper than Python's stack: compared as written
        text = repr(value)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _name(payload: Mapping[str, Any]) -> str:
    name = payload.get("toolName")
    if isinstance(name, str) and name:
        return name
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, Mapping) else None
    span = otlp.get("name") if isinstance(otlp, Mapping) else None
    return span if isinstance(span, str) else ""


def _asked_calls(payload: Mapping[str, Any]) -> list[Any] | None:
    """The tool calls a model's step asked for, without their ids (a real model's ids differ each run)."""
    calls = payload.get("requestedToolCalls")
    if not isinstance(calls, (list, tuple)):
        return None
    return [{key: value for key, value in call.items() if key != "id"} if isinstance(call, Mapping) else call
            for call in calls]


def _blocks(payload: Mapping[str, Any]) -> list[Any] | None:
    """A tool step's content blocks as stored, with the pictures kept of them and the count of blocks
    left out; ``None`` for a step with none (an older step, a text-only answer: what a reply that
    never had blocks compares as)."""
    parts = [payload.get(key) for key in ("contentBlocks", "toolArtifacts", "contentBlocksDropped")]
    return None if not any(parts) else parts


def step_facts(payload: Mapping[str, Any], sequence: int, *, has_rounds: bool = True,
               step_id: int = 0, legs: Sequence[Leg] = ()) -> StepFacts:
    """The facts of a stored step payload; ``has_rounds``: whether its run numbers rounds at all;
    ``legs``: its stored legs (a failed call's tell its kind of failure)."""
    kind = payload.get("kind")
    kind = kind if isinstance(kind, str) else ""
    round_ = payload.get("round")
    round_ = round_ if isinstance(round_, int) and not isinstance(round_, bool) and has_rounds else None
    duration = payload.get("durationMs")
    duration = float(duration) if isinstance(duration, (int, float)) and not isinstance(duration, bool) else 0.0
    blocks = structured = None
    if kind == StepKind.TOOL:
        arguments, result, blocks = payload.get("toolArguments"), payload.get("toolResult"), _blocks(payload)
        # The tool's structured content is its result too (the text may say nothing of it).
        structured = payload.get("structuredContent", payload.get("structuredContentText"))
        if result == "" and isinstance(payload.get("raw"), Mapping):
            result = None  # a trace's call that kept no answer text (its importer keeps none empty): none recorded
    else:
        arguments, result = _asked_calls(payload), payload.get("content")
    result = result if isinstance(result, str) else None
    outcome = step_outcome(payload)
    return StepFacts(sequence=sequence, kind=kind, round=round_, name=_name(payload),
                     outcome=outcome, duration_ms=duration, details=step_details(payload),
                     arguments_digest=_digest(arguments),
                     result_digest=_digest(result), structure_digest=_digest(structured),
                     blocks_digest=_digest(blocks), step_id=step_id,
                     failure=stored_failure(outcome, legs, payload))


# -- the differences of a pair ---------------------------------------------------------------------

def duration_change(first_ms: float, second_ms: float) -> Difference | None:
    """SLOWER or FASTER when the second duration differs from the first by more than
    :data:`SLOWER_RATIO` of the shorter one and more than :data:`SLOWER_MS`; else ``None``."""
    change = second_ms - first_ms
    if abs(change) <= SLOWER_MS or abs(change) <= SLOWER_RATIO * min(first_ms, second_ms):
        return None
    return Difference.SLOWER if change > 0 else Difference.FASTER


def differences(first: StepFacts | None, second: StepFacts | None) -> frozenset[Difference]:
    """How ``second`` differs from ``first`` (one of them may be missing)."""
    if first is None and second is None:
        raise ValueError("a row has a step of at least one run")
    if second is None:
        return frozenset({Difference.ONLY_FIRST})
    if first is None:
        return frozenset({Difference.ONLY_SECOND})
    found = set()
    if first.outcome != second.outcome:
        found.add(Difference.OUTCOME)  # then neither slower nor faster: the two ended differently
    else:
        change = duration_change(first.duration_ms, second.duration_ms)
        if change is not None:
            found.add(change)
    if first.arguments_digest != second.arguments_digest and not _unrecorded_arguments(first, second):
        found.add(Difference.ARGUMENTS)
    if first.answered and second.answered:
        if not _same_result(first, second):
            found.add(Difference.RESULT)
        if first.blocks_digest != second.blocks_digest:
            found.add(Difference.CONTENT_BLOCKS)
    return frozenset(found)


def _unrecorded_arguments(first: StepFacts, second: StepFacts) -> bool:
    """Whether one of two tool steps has no arguments recorded (a trace's call whose spans kept none; a call
    made here keeps its arguments, ``{}`` for none), so that it has none to disagree with. A model's step
    that asked for no tool differs from one that did."""
    return first.kind == StepKind.TOOL and None in (first.arguments_digest, second.arguments_digest)


def _same_result(first: StepFacts, second: StepFacts) -> bool:
    """The same text, and the same structured content where both steps kept some: a step stored before
    steps kept it (a run of an earlier version, or imported from its file) has none to disagree with; nor has a
    tool call whose trace kept no answer text (the mcp SDK's spans keep none) another text."""
    texts = (first.result_digest, second.result_digest)
    structures = (first.structure_digest, second.structure_digest)
    return ((texts[0] == texts[1] or (first.kind == StepKind.TOOL and None in texts))
            and (None in structures or structures[0] == structures[1]))


# -- the comparison --------------------------------------------------------------------------------

def compare_steps(first: Sequence[StepFacts], second: Sequence[StepFacts]) -> RunComparison:
    """The comparison of two runs' steps (each in run order)."""
    rows = []
    for i, j in align(first, second):
        one = None if i is None else first[i]
        other = None if j is None else second[j]
        rows.append(AlignedRow(one, other, differences(one, other)))
    return RunComparison(tuple(rows), summarize(rows))


def summarize(rows: Sequence[AlignedRow]) -> ComparisonSummary:
    """The counts of the rows, each counted once (:attr:`AlignedRow.counted_differences`)."""
    counts = dict.fromkeys(Difference, 0)
    slower_ms = faster_ms = 0.0
    alike = both = errors = errors_with_blocks = 0
    changes: dict[tuple[str, str], int] = {}
    for row in rows:
        counted = row.counted_differences
        if not counted:
            alike += 1
        with_blocks = {Difference.RESULT, Difference.CONTENT_BLOCKS} <= counted
        # Another error message where the row says so (row_differences): whatever else differs with the text.
        error = Difference.RESULT in counted and row.failed_both
        both += with_blocks
        errors += error
        errors_with_blocks += error and with_blocks
        for difference in counted:
            counts[difference] += 1
        if Difference.OUTCOME in counted:
            key = (row.first.ended, row.second.ended)
            changes[key] = changes.get(key, 0) + 1
        elif Difference.SLOWER in counted:
            slower_ms += row.duration_change_ms
        elif Difference.FASTER in counted:
            faster_ms -= row.duration_change_ms
    return ComparisonSummary(
        alike=alike, slower=counts[Difference.SLOWER], slower_ms=slower_ms, faster=counts[Difference.FASTER],
        faster_ms=faster_ms, arguments=counts[Difference.ARGUMENTS], results=counts[Difference.RESULT],
        content_blocks=counts[Difference.CONTENT_BLOCKS],
        only_first=counts[Difference.ONLY_FIRST], only_second=counts[Difference.ONLY_SECOND], results_with_blocks=both,
        error_messages=errors, error_messages_with_blocks=errors_with_blocks,
        outcome_changes=dict(sorted(changes.items())))


__all__ = ["COUNTED_FIRST", "SLOWER_MS", "SLOWER_RATIO", "AlignedRow", "ComparisonSummary", "Difference",
           "RunComparison", "StepFacts", "compare_steps", "differences", "duration_change", "step_facts", "summarize"]
