"""Two runs' steps aligned: which step of one run stands beside which of the other.

A step is paired only with a step of the same key (its kind and name); the pairing keeps the most
steps paired, preferring pairs of the same round (a weighted longest common subsequence: a pair of
the same round weighs 3, of other rounds 2). The steps both runs begin and end with alike are paired
first; when the rest would need a table of more than :data:`MAX_ALIGNED_CELLS` cells (two very long
runs that differ early), it is aligned greedily, looking :data:`LOOKAHEAD` steps ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

MAX_ALIGNED_CELLS = 4_000_000
"""The largest table the exact alignment fills (the steps that differ in the middle, one run's
count times the other's): about a second of work and 4 MB."""
LOOKAHEAD = 50
"""How far the greedy alignment of very long runs looks ahead for the next pair."""


class Aligned(Protocol):
    """What the alignment reads of a step."""

    @property
    def key(self) -> tuple[str, str]: ...

    @property
    def round(self) -> int | None: ...


Pair = tuple[int | None, int | None]


def align(first: Sequence[Aligned], second: Sequence[Aligned]) -> list[Pair]:
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


def _same_place(one: Aligned, other: Aligned) -> bool:
    return one.key == other.key and one.round == other.round


def _aligned_exactly(first: Sequence[Aligned], second: Sequence[Aligned]) -> list[Pair]:
    """The pairing of the greatest weight (a weighted longest common subsequence), by dynamic programming:
    two rows of scores and a byte per cell for the way back (4 MB for :data:`MAX_ALIGNED_CELLS`).

    Between two pairs, the steps only one run has come in the order of their rounds; in the same
    round (or without one), those only the first run has come first (as a diff lists the removed
    lines before the added ones)."""
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
    return _gaps_in_round_order(pairs, first, second)


def _gaps_in_round_order(pairs: list[Pair], first: Sequence[Aligned], second: Sequence[Aligned]) -> list[Pair]:
    """Between two pairs, the steps only one run has merged by round (each run's in its own order;
    in the same round, or where a round is missing, the first run's first)."""
    ordered: list[Pair] = []
    mine: list[Pair] = []
    theirs: list[Pair] = []

    def merge() -> None:
        while mine and theirs:
            one, other = first[mine[0][0]].round, second[theirs[0][1]].round  # type: ignore[index]
            take_theirs = one is not None and other is not None and other < one
            ordered.append(theirs.pop(0) if take_theirs else mine.pop(0))
        ordered.extend(mine + theirs)
        mine.clear()
        theirs.clear()

    for pair in pairs:
        if pair[0] is not None and pair[1] is not None:
            merge()
            ordered.append(pair)
        elif pair[0] is not None:
            mine.append(pair)
        else:
            theirs.append(pair)
    merge()
    return ordered


def _aligned_greedily(first: Sequence[Aligned], second: Sequence[Aligned]) -> list[Pair]:
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


__all__ = ["LOOKAHEAD", "MAX_ALIGNED_CELLS", "Aligned", "Pair", "align"]
