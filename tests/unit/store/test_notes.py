"""Notes: a reviewer's finding on a run or a step; kept, searched, refused when too long or when the
step is damaged, and carried through both export formats and back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.runs import RunStep, StepKind
from inspector.store import RunStore, StoreError, UnknownRunError
from inspector.store.browse import RunFilter, find_in_timeline, list_runs, step_in_full
from inspector.store.notes import (
    MAX_NOTE_CHARS,
    NoteTooLongError,
    step_id_of,
    step_note,
    write_run_note,
    write_step_note,
)
from inspector.traces.redact import REDACTED
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace
from tests.support.sample_runs import mixed_run

FINDING = "The server hangs on hang; the client was right to give up. Ticket 4711."
STEP_FINDING = "Never answered: the server's worker pool was full (see its log at 09:14)."


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    with RunStore.open(tmp_path / "runs.db") as opened:
        yield opened


def test_a_run_note_is_kept_searched_and_removed(store: RunStore) -> None:
    run_id, other = mixed_run(store), mixed_run(store, "another run")
    assert write_run_note(store, run_id, f"  {FINDING}\n") == FINDING
    assert store.get_run(run_id).note == FINDING and store.get_run(other).note == ""
    assert [run.id for run in list_runs(store, RunFilter(text="ticket 4711"))] == [run_id]
    assert write_run_note(store, run_id, "   ") == ""
    assert store.get_run(run_id).note == "" and list_runs(store, RunFilter(text="4711")) == []
    with pytest.raises(UnknownRunError):
        write_run_note(store, 999, "x")


def test_a_step_note_lives_in_its_payload_and_find_finds_it(store: RunStore) -> None:
    run_id = mixed_run(store)
    step_id = step_id_of(store, run_id, 5)
    write_step_note(store, step_id, STEP_FINDING)
    assert step_note(store, step_id) == STEP_FINDING == step_in_full(store, step_id).note
    stored = [s for s in store.iter_steps(run_id) if s.id == step_id][0]
    assert stored.step.note == STEP_FINDING and stored.payload["toolName"] == "hang"  # nothing else changed
    assert stored.outcome == "cancelled" and [leg.method for leg in stored.step.legs][-1] == "tools/call"
    assert find_in_timeline(store, run_id, "worker pool") == [4]
    write_step_note(store, step_id, "")
    assert step_note(store, step_id) == "" and "note" not in json.loads(
        store.db.execute("SELECT payload FROM steps WHERE id = ?", (step_id,)).fetchone()[0])
    with pytest.raises(UnknownRunError):
        step_id_of(store, run_id, 99)


def test_the_run_list_search_finds_a_run_by_the_note_on_one_of_its_steps(store: RunStore) -> None:
    run_id, other = mixed_run(store), mixed_run(store, "another run")
    write_step_note(store, step_id_of(store, run_id, 5), STEP_FINDING)
    assert [run.id for run in list_runs(store, RunFilter(text="WORKER POOL"))] == [run_id]
    # A step's text is searched too, as Find sees it: both runs' steps hold "hang".
    assert [run.id for run in list_runs(store, RunFilter(text="hang"))] == [other, run_id]
    # A damaged payload is passed over (not an error); a step whose content quotes a note is found by its
    # content, as Find finds it.
    store.db.execute("UPDATE steps SET payload = ? WHERE id = ?",
                     ('{"note":"worker pool" damaged', step_id_of(store, other, 2)))
    assert [run.id for run in list_runs(store, RunFilter(text="worker pool"))] == [run_id]
    mentions = step_id_of(store, other, 1)
    store.db.execute("UPDATE steps SET payload = json_set(payload, '$.content', ?) WHERE id = ?",
                     ('{"note": "worker pool"}', mentions))
    assert [run.id for run in list_runs(store, RunFilter(text="worker pool"))] == [other, run_id]
    write_step_note(store, step_id_of(store, run_id, 5), "")
    assert [run.id for run in list_runs(store, RunFilter(text="worker pool"))] == [other]


def test_the_search_in_step_notes_reads_only_the_steps_that_have_one(store: RunStore) -> None:
    """Without the index the search would read every payload of every run (a second on a large
    database, at each pause in typing)."""
    from inspector.store.browse import _run_clauses

    clauses, params = _run_clauses(store, RunFilter(text="anything"))
    plan = " ".join(str(row[3]) for row in store.db.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM runs WHERE " + " AND ".join(clauses), params))
    assert "USING INDEX steps_with_note" in plan, plan
    run_id = mixed_run(store)
    write_step_note(store, step_id_of(store, run_id, 3), "noted")
    indexed = store.db.execute("SELECT run_id FROM steps INDEXED BY steps_with_note WHERE run_id = ?"
                               " AND mentions_note = 1", (run_id,)).fetchall()
    assert indexed == [(run_id,)]


def test_a_note_too_long_or_on_a_damaged_step_is_refused_and_nothing_is_written(store: RunStore) -> None:
    run_id = mixed_run(store)
    with pytest.raises(NoteTooLongError) as refused:
        write_run_note(store, run_id, "x" * (MAX_NOTE_CHARS + 1))
    assert "at most 20000" in str(refused.value) and store.get_run(run_id).note == ""
    step_id = step_id_of(store, run_id, 1)
    store.db.execute("UPDATE steps SET payload = '[1, 2]' WHERE id = ?", (step_id,))
    with pytest.raises(StoreError) as damaged:
        write_step_note(store, step_id, "x")
    assert "damaged" in str(damaged.value)
    assert store.db.execute("SELECT payload FROM steps WHERE id = ?", (step_id,)).fetchone()[0] == "[1, 2]"


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_notes_travel_with_both_export_formats_redacted(store: RunStore, tmp_path: Path, file_format: str) -> None:
    run_id = mixed_run(store)
    secret = "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXBheWxvYWQ.c2lnbmF0dXJlLXNlY3JldA"
    write_run_note(store, run_id, f"{FINDING} They pasted: Authorization: {secret}")
    write_step_note(store, step_id_of(store, run_id, 5), STEP_FINDING)
    path = tmp_path / f"notes.{file_format}.json"
    export(store, [run_id], None, path, format=file_format)
    text = path.read_text(encoding="utf-8")
    assert secret not in text and "eyJhbGciOiJIUzI1NiJ9" not in text
    if file_format == "otlp":
        assert '"run_inspector.run.note"' in text and '"run_inspector.step.note"' in text
    with RunStore.open(tmp_path / "elsewhere.db") as elsewhere:
        import_trace(elsewhere, path)
        (run,) = elsewhere.list_runs(limit=None)
        assert run.note.startswith(FINDING) and REDACTED in run.note
        notes = [s.step.note for s in elsewhere.iter_steps(run.id)]
        assert notes == [None, None, None, None, STEP_FINDING, None]


def test_a_step_a_run_does_not_have_is_refused_naming_the_steps_it_has(store: RunStore) -> None:
    """"Run 5 has steps 1 to 6", in English and German, for a run of many steps, one step and none; a
    number past what SQLite holds is never looked up."""
    from inspector.i18n import set_language
    from inspector.i18n.messages import translate

    many = mixed_run(store)
    one = store.start_run("one", "live", None)
    store.append_step(one, RunStep(kind=StepKind.LLM, round=1, duration_ms=1.0, content="the only step"))
    empty = store.start_run("empty", "live", None)
    said = {}
    for run_id, sequence in ((many, 0), (many, 2**70), (one, 2), (empty, 1)):
        with pytest.raises(UnknownRunError) as refused:
            step_id_of(store, run_id, sequence)
        said[run_id] = refused.value
    assert str(said[many]) == f"Run {many} has no step {2**70}: it has steps 1 to 6."
    assert str(said[one]) == f"Run {one} has no step 2: it has only step 1."
    assert str(said[empty]) == f"Run {empty} has no step 1: it has no steps."
    set_language("de")
    assert translate(said[one]) == f"Lauf {one} hat keinen Schritt 2: er hat nur Schritt 1."
    assert translate(said[empty]) == f"Lauf {empty} hat keinen Schritt 1: er hat keine Schritte."
