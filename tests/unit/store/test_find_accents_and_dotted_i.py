"""The Runs search and Find compare letters as a reader sees them: an accent typed precomposed ("ä", what a
keyboard gives) finds it stored decomposed ("a" and a combining diaeresis, as macOS writes file names), and the
other way round; and the dotted capital I ("İSTANBUL", which ``casefold`` makes "i" and a combining dot) is found by
"istanbul". Before, each of these found nothing. A real database."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.runs import RunStep, StepKind
from inspector.store import RunStore
from inspector.store.browse import RunFilter, find_in_timeline, listed_ids

DECOMPOSED_ARGER = "A\u0308rger im Bu\u0308ro"  # "Ärger im Büro" as macOS spells it
PRECOMPOSED_CAFE = "Caf\u00e9 Olé"


@pytest.fixture
def store(tmp_path: Path):
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def _found(store: RunStore, text: str) -> list[int]:
    return listed_ids(store, RunFilter(text=text))


def test_the_runs_search_finds_accents_composed_or_not_and_a_dotted_capital_i(store: RunStore) -> None:
    decomposed = store.start_run(DECOMPOSED_ARGER, "live", None)
    precomposed = store.start_run(PRECOMPOSED_CAFE, "live", None)
    dotted = store.start_run("Flug nach İSTANBUL", "live", None)
    plain = store.start_run("istanbul by night", "live", None)
    store.start_run("other", "live", None)
    assert _found(store, "ärger") == _found(store, "BÜRO") == [decomposed]
    assert _found(store, "cafe\u0301") == _found(store, "OLE\u0301") == [precomposed]
    assert _found(store, "istanbul") == _found(store, "Istanbul") == _found(store, "İstanbul") == [plain, dotted]


def test_find_in_a_run_finds_accents_composed_or_not_and_a_dotted_capital_i(store: RunStore) -> None:
    run_id = store.start_run("steps", "live", None)
    for text in (DECOMPOSED_ARGER, PRECOMPOSED_CAFE, "İSTANBUL", "plain"):
        store.append_step(run_id, RunStep(kind=StepKind.LLM, round=0, duration_ms=1.0, content=text))
    assert find_in_timeline(store, run_id, "ärger") == find_in_timeline(store, run_id, "büro") == [0]
    assert find_in_timeline(store, run_id, "cafe\u0301") == [1]
    assert find_in_timeline(store, run_id, "istanbul") == find_in_timeline(store, run_id, "İstanbul") == [2]
