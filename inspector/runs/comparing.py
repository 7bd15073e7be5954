"""Two runs set side by side: their steps aligned, and what differs in each aligned pair.

**Alignment.** Each step has a key: its kind and its name (a tool step's tool, else the span's name
of an imported step, else nothing: a model's steps all share the key ``("llm", "")``). The steps are
aligned as two sequences, in run order: a step is paired only with a step of the same key, and the
pairing keeps the most steps paired (a weighted longest common subsequence), preferring pairs of the
same round. An inserted or missing step (a retry, a round one run never reached) is a row of its own
("only in run N") and shifts nothing after it. A run without rounds (an imported trace, a single
operation) aligns by order and key alone. Beyond :data:`MAX_ALIGNED_CELLS` cells of the alignment's
table, the middle of two long runs is aligned greedily, looking :data:`LOOKAHEAD` steps ahead.

**Differences** of a pair, the second run against the first: the outcome (ok, failed, cancelled or
none: cancelled is never failed), the duration (see :func:`duration_change`), the arguments (a tool
step's arguments; the tool calls a model's step asked for, without their call ids) and the result
(a tool step's result text; a model's reply).

**The summary** counts the pairs: alike (no difference), slower, faster, with other arguments, with
another result, and the outcome changes by their two outcomes. A pair whose outcome changed counts
under its outcome change only: a call cancelled in one run and ok in the other has, of course,
another duration and another result, which would say nothing more.

Plain values only: no I/O. :func:`step_facts` reads a stored payload (leniently, as the timeline
does: every row ever stored must compare).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .step import StepKind
from .timeline import step_details, step_outcome

SLOWER_RATIO = 0.2
"""A duration counts as changed only when it differs by more than this part of the shorter one…"""
SLOWER_MS = 100.0
"""…and by more than this many milliseconds (both must hold: 5 ms against 8 ms is noise, and so is
20.0 s against 20.1 s)."""

MAX_ALIGNED_CELLS = 4_000_000
"""The largest table the exact alignment fills (the steps that differ in the middle, one run's
count times the other's): about a second of work and 4 MB."""
LOOKAHEAD = 50
"""How far the greedy alignment of very long runs looks ahead for the next pair."""


class Difference(StrEnum):
    """One way an aligned pair of steps differs (the second run's step against the first's)."""

    OUTCOME = "outcome"
    SLOWER = "slower"
    FASTER = "faster"
    ARGUMENTS = "arguments"
    RESULT = "result"
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
    #: The stored step's row id (for a view that reads the whole step); 0 when not stored.
    step_id: int = 0

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, self.name


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
    def counted_differences(self) -> frozenset[Difference]:
        """What the summary counts this row under: an outcome change hides the rest."""
        if Difference.OUTCOME in self.differences:
            return frozenset({Difference.OUTCOME})
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
    only_first: int = 0
    only_second: int = 0
    #: (outcome in the first run, outcome in the second) -> how many pairs.
    outcome_changes: Mapping[tuple[str, str], int] = field(default_factory=dict)


@dataclass(frozen=True)
class RunComparison:
    """Two runs' steps aligned, with the summary of what differs."""

    rows: tuple[AlignedRow, ...]
    summary: ComparisonSummary


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


def step_facts(payload: Mapping[str, Any], sequence: int, *, has_rounds: bool = True,
               step_id: int = 0) -> StepFacts:
    """The facts of a stored step payload; ``has_rounds``: whether its run numbers rounds at all."""
    kind = payload.get("kind")
    kind = kind if isinstance(kind, str) else ""
    round_ = payload.get("round")
    round_ = round_ if isinstance(round_, int) and not isinstance(round_, bool) and has_rounds else None
    duration = payload.get("durationMs")
    duration = float(duration) if isinstance(duration, (int, float)) and not isinstance(duration, bool) else 0.0
    if kind == StepKind.TOOL:
        arguments, result = payload.get("toolArguments"), payload.get("toolResult")
    else:
        arguments, result = _asked_calls(payload), payload.get("content")
    return StepFacts(sequence=sequence, kind=kind, round=round_, name=_name(payload),
                     outcome=step_outcome(payload), duration_ms=duration, details=step_details(payload),
                     arguments_digest=_digest(arguments), result_digest=_digest(result if isinstance(result, str)
                                                                                 else None),
                     step_id=step_id)


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
        found.add(Difference.OUTCOME)
    change = duration_change(first.duration_ms, second.duration_ms)
    if change is not None:
        found.add(change)
    if first.arguments_digest != second.arguments_digest:
        found.add(Difference.ARGUMENTS)
    if first.result_digest != second.result_digest:
        found.add(Difference.RESULT)
    return frozenset(found)


# -- the alignment ---------------------------------------------------------------------------------

Pair = tuple[int | None, int | None]


def align(first: Sequence[StepFacts], second: Sequence[StepFacts]) -> list[Pair]:
    """The rows of the alignment as index pairs (``None``: no step of that run in the row), in order.

    The steps both runs begin and end with alike (same key and round) are paired first; the middle
    is aligned exactly (:func:`_aligned_exactly`) or, when very long, greedily."""
    start = 0
    while start < len(first) and start < len(second) and _same_place(first[start], second[start]):
        start += 1
    end_first, end_second = len(first), len(second)
    while end_first > start and end_second > start and _same_place(first[end_first - 1],
                                                                      second[end_second - 1]):
        end_first -= 1
        end_second -= 1
    middle_first, middle_second = first[start:end_first], second[start:end_second]
    if len(middle_first) * len(middle_second) <= MAX_ALIGNED_CELLS:
        middle = _aligned_exactly(middle_first, middle_second)
    else:
        middle = _aligned_greedily(middle_first, middle_second)
    pairs: list[Pair] = [(index, index) for index in range(start)]
    pairs.extend((None if i is None else start + i, None if j is None else start + j) for i, j in middle)
    pairs.extend((end_first + offset, end_second + offset) for offset in range(len(first) - end_first))
    return pairs


def _same_place(one: StepFacts, other: StepFacts) -> bool:
    return one.key == other.key and one.round == other.round


def _weight(one: StepFacts, other: StepFacts) -> int:
    """What pairing two steps is worth: nothing for different keys; more for the same round."""
    if one.key != other.key:
        return 0
    return 3 if one.round == other.round else 2


def _aligned_exactly(first: Sequence[StepFacts], second: Sequence[StepFacts]) -> list[Pair]:
    """The pairing of the greatest weight (a weighted longest common subsequence), by dynamic programming:
    two rows of scores and a byte per cell for the way back (4 MB for :data:`MAX_ALIGNED_CELLS`).

    Between two pairs, the steps only the first run has come before those only the second run has
    (as a diff lists the removed lines before the added ones)."""
    rows, columns = len(first), len(second)
    # Keys as small numbers and the rounds in lists: the inner loop runs millions of times.
    numbers: dict[tuple[str, str], int] = {}
    keys_second = [numbers.setdefault(step.key, len(numbers)) for step in second]
    rounds_second = [step.round for step in second]
    way = bytearray((rows + 1) * (columns + 1))  # 0: skip the first's step, 1: skip the second's, 2: pair
    above = [0] * (columns + 1)
    for i in range(1, rows + 1):
        here = [0] * (columns + 1)
        base = i * (columns + 1)
        key, round_ = numbers.get(first[i - 1].key, -1), first[i - 1].round
        for j in range(1, columns + 1):
            best, step = above[j], 0
            if here[j - 1] > best:
                best, step = here[j - 1], 1
            if keys_second[j - 1] == key:
                diagonal = above[j - 1] + (3 if rounds_second[j - 1] == round_ else 2)
                if diagonal >= best:
                    best, step = diagonal, 2
            here[j] = best
            way[base + j] = step
        above = here
    pairs: list[Pair] = []
    i, j = rows, columns
    while i > 0 and j > 0:
        step = way[i * (columns + 1) + j]
        if step == 2:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif step == 1:
            pairs.append((None, j - 1))
            j -= 1
        else:
            pairs.append((i - 1, None))
            i -= 1
    pairs.extend((None, index) for index in range(j - 1, -1, -1))
    pairs.extend((index, None) for index in range(i - 1, -1, -1))
    pairs.reverse()
    return _first_only_before_second_only(pairs)


def _first_only_before_second_only(pairs: list[Pair]) -> list[Pair]:
    """Between two pairs, the steps only the first run has come before those only the second has."""
    ordered: list[Pair] = []
    run: list[Pair] = []
    for pair in pairs:
        if pair[0] is not None and pair[1] is not None:
            ordered.extend(sorted(run, key=lambda p: p[0] is None))  # stable: each run keeps its order
            run = []
            ordered.append(pair)
        else:
            run.append(pair)
    ordered.extend(sorted(run, key=lambda p: p[0] is None))
    return ordered


def _aligned_greedily(first: Sequence[StepFacts], second: Sequence[StepFacts]) -> list[Pair]:
    """Pair the steps in order; where they disagree, skip to the nearest pair within :data:`LOOKAHEAD`."""
    pairs: list[Pair] = []
    i = j = 0
    while i < len(first) and j < len(second):
        if first[i].key == second[j].key:
            pairs.append((i, j))
            i, j = i + 1, j + 1
            continue
        ahead_second = next((k for k in range(1, LOOKAHEAD + 1)
                             if j + k < len(second) and second[j + k].key == first[i].key), None)
        ahead_first = next((k for k in range(1, LOOKAHEAD + 1)
                            if i + k < len(first) and first[i + k].key == second[j].key), None)
        if ahead_first is not None and (ahead_second is None or ahead_first <= ahead_second):
            pairs.extend((i + k, None) for k in range(ahead_first))
            i += ahead_first
        elif ahead_second is not None:
            pairs.extend((None, j + k) for k in range(ahead_second))
            j += ahead_second
        else:
            pairs.extend(((i, None), (None, j)))
            i, j = i + 1, j + 1
    pairs.extend((index, None) for index in range(i, len(first)))
    pairs.extend((None, index) for index in range(j, len(second)))
    return pairs


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
    """The counts of the rows (an outcome change hides a pair's other differences)."""
    counts = dict.fromkeys(Difference, 0)
    slower_ms = faster_ms = 0.0
    alike = 0
    changes: dict[tuple[str, str], int] = {}
    for row in rows:
        counted = row.counted_differences
        if not counted:
            alike += 1
        for difference in counted:
            counts[difference] += 1
        if Difference.OUTCOME in counted:
            key = (row.first.outcome, row.second.outcome)
            changes[key] = changes.get(key, 0) + 1
        elif Difference.SLOWER in counted:
            slower_ms += row.duration_change_ms
        elif Difference.FASTER in counted:
            faster_ms -= row.duration_change_ms
    return ComparisonSummary(
        alike=alike, slower=counts[Difference.SLOWER], slower_ms=slower_ms, faster=counts[Difference.FASTER],
        faster_ms=faster_ms, arguments=counts[Difference.ARGUMENTS], results=counts[Difference.RESULT],
        only_first=counts[Difference.ONLY_FIRST], only_second=counts[Difference.ONLY_SECOND],
        outcome_changes=dict(sorted(changes.items())))


__all__ = ["LOOKAHEAD", "MAX_ALIGNED_CELLS", "SLOWER_MS", "SLOWER_RATIO", "AlignedRow", "ComparisonSummary",
           "Difference", "RunComparison", "StepFacts", "align", "compare_steps", "differences",
           "duration_change", "step_facts", "summarize"]
