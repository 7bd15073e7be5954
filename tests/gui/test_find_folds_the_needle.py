"""Find in the window compares the needle and the words each step shows with one fold
(:mod:`inspector.i18n.folding`), as the store's search does: a step whose text came from a macOS file name
("A" and a combining diaeresis) was not found by "ärger" typed, nor "Café" by "cafe" and a combining
acute, in the words the window says (the store's search, which folds both, found them). A real database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.gui.runs.shown_words import ShownWords
from inspector.runs import RunStep, StepKind
from inspector.store import RunStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def test_the_words_shown_are_compared_with_accents_composed_or_not(qtbot, store: RunStore) -> None:
    run_id = store.start_run("steps", "live", None)
    for text in ("A\u0308rger im Bu\u0308ro", "Caf\u00e9 Olé", "İSTANBUL", "plain"):
        store.append_step(run_id, RunStep(kind=StepKind.LLM, round=0, duration_ms=1.0, content=text))
    steps = [step_id for (step_id,) in store.db.conn.execute("SELECT id FROM steps WHERE run_id = ? ORDER BY id",
                                                             (run_id,))]
    words = ShownWords(store)
    run = store.get_run(run_id)
    assert words.holding(run, "ärger") == words.holding(run, "BÜRO") == [steps[0]]
    assert words.holding(run, "cafe\u0301") == [steps[1]]
    assert words.holding(run, "istanbul") == words.holding(run, "İstanbul") == [steps[2]]


def test_find_and_the_runs_search_find_the_same_steps(qtbot, store: RunStore) -> None:
    """Find in the window and the Runs search fold alike: the window's Find found "file" in a step showing "ﬁle" (a
    PDF's ligature), "k hot" in "300 K hot" (the Kelvin sign) and "se" in "Straße", the search not that run."""
    from inspector.gui.runs.timeline_model import TimelineModel
    from inspector.store.browse import RunFilter, listed_ids
    from tests.unit.store.test_runs_search_any_case import FOLDED_TO_ASCII

    model = TimelineModel(store)
    for stored, typed in (*FOLDED_TO_ASCII, ("ΟΔΟΣ", "οδος"), ("ＡＢＣ", "abc"), ("cafe\u0301", "CAFE")):
        run_id = store.start_run("steps", "live", None)
        store.append_step(run_id, RunStep(kind=StepKind.LLM, round=0,
                                          duration_ms=1.0, content=stored))
        model.set_run(store.get_run(run_id))
        found = model.find(typed)
        assert bool(found) == (run_id in listed_ids(store, RunFilter(text=typed))), (stored, typed, found)
