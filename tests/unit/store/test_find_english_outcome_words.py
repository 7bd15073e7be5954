"""In a German window Find finds the Outcome words both as the window shows them ("Zeitüberschreitung",
"nicht erfasst", "widersprechen") and as the command line and an English screenshot say them ("timed
out", "not recorded", "disagree"); the English ones as whole words only, so a piece of an English word
("imed ou") finds in German no row its Outcome does not show. Before, the English words found nothing in
German (they are not stored: the Outcome is said from the step's outcome and legs)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.i18n import set_language
from inspector.i18n.find_said import cancel_notes_holding
from inspector.store import RunStore
from inspector.store.browse import find_in_timeline, find_step_ids
from inspector.transfer.importing import import_trace
from tests.unit.store.test_find_outcome_words import FIXTURES, TRACES, _run_with_kinds_of_failure


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


@pytest.fixture
def german() -> Iterator[None]:
    set_language("de")
    yield
    set_language("en")


#: The English words and the German ones the window shows for the same rows.
SAME_ROWS = (("not recorded", "nicht erfasst"), ("failed", "fehlgeschlagen"), ("disagree", "widersprechen"))


def test_the_english_outcome_words_find_in_german_what_the_german_ones_find(store: RunStore, german: None) -> None:
    found = 0
    for trace in TRACES:
        for run_id in import_trace(store, FIXTURES / trace).run_ids:
            for english, shown in SAME_ROWS:
                rows = find_in_timeline(store, run_id, shown)
                assert set(rows) <= set(find_in_timeline(store, run_id, english.upper())), (trace, english)
                found += len(rows)
    assert found  # the real traces have rows of these outcomes


def test_a_time_out_is_found_by_its_english_words_in_german_and_no_piece_of_them(store: RunStore,
                                                                                 german: None) -> None:
    # Stored texts that name no kind of failure ("the server went quiet"): only the Outcome says it.
    run_id, (slow, late, fail, echo, _model) = _run_with_kinds_of_failure(store)
    assert find_step_ids(store, run_id, "Zeitüberschreitung") == [slow]
    assert find_step_ids(store, run_id, "timed out") == [slow]
    assert find_step_ids(store, run_id, "Timed Out") == [slow]
    assert find_step_ids(store, run_id, "failed: timed out") == [slow]
    assert find_step_ids(store, run_id, "failed") == [slow, late, fail]
    assert find_step_ids(store, run_id, "ok") == [echo]
    # Pieces of English words are not what a reader of German saw nor what an English reader pasted.
    for piece in ("imed ou", "tim", "ailed"):
        assert find_step_ids(store, run_id, piece) == [], piece
    set_language("en")  # in English, any piece of the words shown (as before)
    assert find_step_ids(store, run_id, "imed ou") == [slow]


def test_the_notes_on_a_cancelled_call_are_found_by_their_english_words_in_german(german: None) -> None:
    assert cancel_notes_holding("unterwegs abgebrochen") == (True,)
    assert cancel_notes_holding("cancelled in flight") == (True,)
    assert cancel_notes_holding("cancelled before the request was sent") == (False,)
    assert cancel_notes_holding("ancelled in fl") == ()
