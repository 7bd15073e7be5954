"""Schema version 17: the indexes of the steps with a note and of the plumbing steps select on columns the writer sets
(inspector/store/payload_mentions.py), not on the payload's text, which SQLite searched in every payload an import
wrote (6.7% of its thread). Every reader answers as before: the runs list's plumbing traces, the search in notes, the
window's plumbing notes, Find.

The older database is a real one: tests/fixtures/stores/schema16_notes.db.gz, written by the Run Inspector of commit
05223019 (tests/fixtures/stores/make_older_databases.py says how)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.store import SCHEMA_VERSION, RunStore, StoreError
from inspector.store.browse import RunFilter, find_step_ids, list_runs, span_nodes
from inspector.store.notes import noted_steps, plumbing_notes, step_id_of, write_step_note
from inspector.store.payload_mentions import payload_mentions
from inspector.store.plumbing_traces import plumbing_traces_among
from inspector.transfer.importing import import_trace
from tests.fixtures.stores.make_older_databases import IMPORTED, NOTES_16
from tests.support.older_schema import imported, stored_database

TRACES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"
SEARCHED = ("4711", "läuft nicht", "vorläufig", "Grüße", "session/init")


def older_database(folder: Path) -> Path:
    return stored_database(folder / "older.db", "schema16_notes.db.gz")


def fresh_import(folder: Path) -> Path:
    """The same traces imported and the same notes written by this Run Inspector."""
    path = imported(folder / "fresh.db", IMPORTED)
    with RunStore.open(path) as store:
        for run, step, text in NOTES_16:
            write_step_note(store, step_id_of(store, run, step), text)
    return path


def answers(store: RunStore) -> dict[str, Any]:
    """What each reader of the two indexes answers, for every run."""
    run_ids = [run.id for run in store.list_runs(limit=None)]
    return {
        "listed": [run.uid for run in store.list_runs(plumbing_traces=False, limit=None)],
        "plumbing traces": store.count_runs(plumbing_traces=True),
        "among": sorted(plumbing_traces_among(store.db.conn, range(1, max(run_ids) + 1))),
        "searched": {text: [run.uid for run in list_runs(store, RunFilter(text=text), limit=None)]
                     for text in SEARCHED},
        "searched listed": {text: [run.uid for run in list_runs(store, RunFilter(text=text, plumbing_traces=False),
                                                                limit=None)] for text in SEARCHED},
        "noted steps": {run_id: noted_steps(store, [run_id]) for run_id in run_ids},
        "plumbing notes": {run_id: plumbing_notes(store, run_id, span_nodes(store, run_id)) for run_id in run_ids},
        "found": {run_id: find_step_ids(store, run_id, "4711") for run_id in run_ids},
    }


def mentions(path: Path) -> dict[tuple[str, int], tuple[int, int]]:
    conn = sqlite3.connect(path)
    try:
        return {(uid, sequence): (note, plumbing) for uid, sequence, note, plumbing in conn.execute(
            "SELECT uid, sequence, mentions_note, mentions_plumbing FROM steps JOIN runs ON runs.id = steps.run_id")}
    finally:
        conn.close()


def tables(path: Path) -> dict[str, Any]:
    """Every table's columns and rows, and the schema's text."""
    conn = sqlite3.connect(path)
    try:
        names = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                                  " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        found: dict[str, Any] = {name: (conn.execute(f"PRAGMA table_info({name})").fetchall(),
                                        conn.execute(f"SELECT * FROM {name} ORDER BY rowid").fetchall())
                                 for name in names}
        found["schema"] = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
        found["version"] = conn.execute("PRAGMA user_version").fetchone()[0]
        return found
    finally:
        conn.close()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore.open(fresh_import(tmp_path)) as opened:
        yield opened


def test_an_upgraded_database_answers_as_a_fresh_import(tmp_path: Path) -> None:
    older, fresh = older_database(tmp_path), fresh_import(tmp_path)
    with RunStore.open(older) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        upgraded = answers(store)
    with RunStore.open(fresh) as store:
        assert answers(store) == upgraded
    assert upgraded["plumbing traces"] == 26 and len(upgraded["listed"]) == 5
    assert upgraded["noted steps"][2] == upgraded["noted steps"][10] == 1 and sum(upgraded["noted steps"].values()) == 2
    assert upgraded["plumbing notes"][2] == 1 and upgraded["found"][10] and not upgraded["searched"]["vorläufig"]
    assert len(upgraded["searched"]["Grüße"]) == 1 and not upgraded["searched listed"]["Grüße"]
    assert mentions(older) == mentions(fresh)
    for kind, payload, note, plumbing in sqlite3.connect(older).execute(
            "SELECT kind, payload, mentions_note, mentions_plumbing FROM steps"):
        assert (note, plumbing) == payload_mentions(kind, payload)


def test_an_import_searches_no_payload_for_the_indexes(tmp_path: Path) -> None:
    """SQLite's ``instr`` is asked of no payload an import writes (before: of each, once or twice)."""
    with RunStore.open(tmp_path / "runs.db") as store:
        asked: list[str] = []

        def instr(text: Any, words: Any) -> int | None:
            asked.append(words)
            return None if text is None or words is None else str(text).find(str(words)) + 1

        store.db.conn.create_function("instr", 2, instr, deterministic=True)
        import_trace(store, TRACES / "openlit.jsonl")
        assert store.db.execute("SELECT COUNT(*) FROM steps").fetchone()[0] == 54
        assert [words for words in asked if words in ('"note":', '"plumbing"')] == []
        assert store.count_runs(plumbing_traces=True) == 7


def test_a_note_written_later_is_found_and_one_removed_is_not(store: RunStore) -> None:
    step_id = step_id_of(store, 23, 4)
    searched = RunFilter(text="Rückruf")
    assert list_runs(store, searched) == [] and noted_steps(store, [23]) == 0
    write_step_note(store, step_id, "Rückruf morgen")
    assert [run.id for run in list_runs(store, searched)] == [23] and noted_steps(store, [23]) == 1
    assert find_step_ids(store, 23, "Rückruf")
    write_step_note(store, step_id, "")
    assert list_runs(store, searched) == [] and noted_steps(store, [23]) == 0
    assert store.db.execute("SELECT mentions_note FROM steps WHERE id = ?", (step_id,)).fetchone() == (0,)


def test_a_payload_written_over_is_mentioned_anew(store: RunStore) -> None:
    """A step written over (as a joined call's is) gets its columns from its new payload and kind."""
    plumbing = step_id_of(store, 2, 1)
    assert store.count_runs(plumbing_traces=True) == 26
    with store.transaction():
        store.db.execute("UPDATE steps SET kind = 'tool' WHERE id = ?", (plumbing,))
    assert store.db.execute("SELECT mentions_plumbing FROM steps WHERE id = ?", (plumbing,)).fetchone() == (0,)
    assert store.count_runs(plumbing_traces=True) == 25
    with store.transaction():
        store.db.execute("UPDATE steps SET kind = 'request' WHERE id = ?", (plumbing,))
    assert store.count_runs(plumbing_traces=True) == 26


def test_a_failed_upgrade_leaves_the_database_as_it_was(tmp_path: Path) -> None:
    """The upgrade fails after the columns were added (a trigger of the database refuses the steps' update, as SQLite
    would refuse a write for want of room): schema 16 again, its columns, indexes and rows as they were."""
    older = older_database(tmp_path)
    conn = sqlite3.connect(older, isolation_level=None)
    conn.execute("CREATE TRIGGER no_room BEFORE UPDATE ON steps BEGIN SELECT RAISE(ABORT, 'no room'); END")
    conn.close()
    before = tables(older)
    with pytest.raises(StoreError) as caught:
        RunStore.open(older)
    assert f"could not be upgraded from schema 16 to {SCHEMA_VERSION} (no room)" in str(caught.value)
    assert tables(older) == before
    assert before["version"] == 16 and "mentions_note" not in str(before["steps"][0])
