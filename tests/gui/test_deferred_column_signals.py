"""The collectors of a column's words say that it grew on the next turn of the event loop, after the paint that
found the word. A collector gone before that turn (its pane closed; a language switch reaching the collectors of a
window a test had just closed) raised "Signal source has been deleted" in the event loop: the full run failed in a
test that only switched the language. Now the deferred signal goes with its collector.

Real parts: the collectors, deleted as Qt deletes them, and the event loop (pytest-qt fails a test on any
exception caught in it)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import shiboken6
from PySide6.QtCore import QObject

from inspector.gui.runs.column_words import ColumnWords
from inspector.gui.runs.said_outcomes import SaidOutcomes


def _grow_words(words: ColumnWords) -> None:
    words.note_kind("tool")


def _grow_outcomes(outcomes: SaidOutcomes) -> None:
    outcomes.note_failures({"timed_out"})


@pytest.mark.parametrize(("make", "grow"), [(ColumnWords, _grow_words), (SaidOutcomes, _grow_outcomes)])
def test_a_collector_deleted_before_its_signal_is_due_says_nothing(qtbot, make: Callable[[], QObject],
                                                                   grow: Callable[[QObject], None]) -> None:
    collector = make()
    grow(collector)
    shiboken6.delete(collector)
    qtbot.wait(50)  # the deferred signal's turn: without the fix, "Signal source has been deleted" here


@pytest.mark.parametrize(("make", "grow", "signal"),
                         [(ColumnWords, _grow_words, "grew"), (SaidOutcomes, _grow_outcomes, "changed")])
def test_a_living_collector_still_says_it_grew(qtbot, make: Callable[[], QObject], grow: Callable[[QObject], None],
                                               signal: str) -> None:
    collector = make()
    with qtbot.waitSignal(getattr(collector, signal), timeout=2000):
        grow(collector)
    shiboken6.delete(collector)
