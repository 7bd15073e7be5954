"""Schema version 14: a database whose traces were imported before plumbing traces were marked reads as a fresh
import of them would (inspector/store/plumbing_upgrade.py).

The older database is a real one: tests/fixtures/stores/schema12_plumbing.db.gz, written by the Run Inspector of
commit 3834074f (its make_older_databases.py says how). Upgraded to schema 13 alone it listed every plumbing trace:
openlit.jsonl's 9 runs where a fresh import lists 2, and importing the file again changed nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from inspector.store import SCHEMA_VERSION, RunStore, StoreError
from inspector.store.payload_mentions import payload_mentions
from inspector.transfer.importing import import_trace
from tests.support.older_schema import imported, stored_database

TRACES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"
IMPORTED = ("openlit.jsonl", "openlit_mcp2.jsonl", "logfire_mcp2.jsonl", "mcp_sdk.jsonl")
MARK = ',"plumbing":true'


def older_database(folder: Path) -> Path:
    return stored_database(folder / "older.db", "schema12_plumbing.db.gz")


def fresh_import(folder: Path) -> Path:
    return imported(folder / "fresh.db", IMPORTED)


def marks(path: Path) -> dict[tuple[str, int], tuple[bool, bool]]:
    """Each step's plumbing marks (its own span's, its server side's), by its run's uid and its sequence."""
    conn = sqlite3.connect(path)
    found = {}
    for uid, sequence, payload in conn.execute("SELECT uid, sequence, payload FROM steps JOIN runs ON runs.id = "
                                               "steps.run_id"):
        otlp = json.loads(payload).get("raw", {}).get("otlp", {})
        found[(uid, sequence)] = (otlp.get("plumbing") is True, otlp.get("server", {}).get("plumbing") is True)
    conn.close()
    return found


def tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of ours, in the order of its key."""
    conn = sqlite3.connect(path)
    names = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                                              "'sqlite_%' ORDER BY name")]
    rows = {name: conn.execute(f"SELECT * FROM {name} ORDER BY rowid").fetchall() for name in names}
    conn.close()
    return rows


def listing(store: RunStore) -> tuple[list[str], int]:
    return [run.uid for run in store.list_runs(plumbing_traces=False, limit=None)], store.count_runs(
        plumbing_traces=True)


def test_an_older_import_lists_what_a_fresh_import_lists(tmp_path: Path) -> None:
    older, fresh = older_database(tmp_path), fresh_import(tmp_path)
    with RunStore.open(older) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        upgraded = listing(store)
        openlit = [run for run in store.list_runs(limit=None) if run.origin == "openlit.jsonl"]
        assert len(openlit) == 9
        assert len([run for run in store.list_runs(plumbing_traces=False, limit=None)
                    if run.origin == "openlit.jsonl"]) == 2
    with RunStore.open(fresh) as store:
        assert upgraded == listing(store)
    assert upgraded[1] == 26 and len(upgraded[0]) == 5
    assert marks(older) == marks(fresh)


def test_nothing_but_the_marks_changes(tmp_path: Path) -> None:
    """Every table as it was, apart from the marks, each the one text ``,"plumbing":true`` put before the end of
    the span's object: the rest of its payload byte for byte (the reviewer's note with its escapes and accents)."""
    older = older_database(tmp_path)
    before = tables(older)
    RunStore.open(older).close()
    after = tables(older)
    assert before.keys() == after.keys()
    for name in before.keys() - {"steps"}:
        assert after[name] == before[name], name
    marked = 0
    for old, new in zip(before["steps"], after["steps"], strict=True):
        *columns, payload = new[:len(old)]  # (then what schema 17 adds: what the payload mentions)
        assert old[:-1] == tuple(columns)
        assert new[len(old):] == payload_mentions(new[3], payload)
        if old[-1] != payload:
            start = next(at for at, (a, b) in enumerate(zip(old[-1], payload, strict=False)) if a != b)
            assert payload == old[-1][:start] + MARK + old[-1][start:]
            assert json.loads(payload)["raw"]["otlp"]["plumbing"] is True
            marked += 1
    assert marked == 27  # openlit.jsonl 8, openlit_mcp2.jsonl 12, logfire_mcp2.jsonl 4, mcp_sdk.jsonl 3
    noted = [new[len(old) - 1] for old, new in zip(before["steps"], after["steps"], strict=True)
             if '"note":' in new[len(old) - 1]]
    assert [json.loads(payload)["note"] for payload in noted] == ['Kunde sagt: "läuft nicht"\nSiehe Ticket #12 — '
                                                                  'Grüße']
    assert MARK in noted[0]


def test_importing_again_after_the_upgrade_adds_nothing(tmp_path: Path) -> None:
    older = older_database(tmp_path)
    with RunStore.open(older) as store:
        report = import_trace(store, TRACES / "openlit.jsonl")
        assert (report.runs_imported, report.runs_already_present) == (0, 9)
        assert [run.title for run in store.list_runs(plumbing_traces=False, limit=None)
                if run.origin == "openlit.jsonl"] == ["mcp server/run", "invoke_agent support-agent"]


def test_a_failed_upgrade_leaves_the_database_as_it_was_and_says_so(tmp_path: Path) -> None:
    """A step of the upgrade that fails (here a trigger of the database refuses the marks' update, as SQLite
    would refuse a write for want of room) undoes every step: schema 12 again, no index of schema 13."""
    older = older_database(tmp_path)
    conn = sqlite3.connect(older, isolation_level=None)
    conn.execute("CREATE TRIGGER no_marks BEFORE UPDATE OF payload ON steps BEGIN SELECT RAISE(ABORT, "
                 "'no marks here'); END")
    conn.close()
    before = tables(older)
    with pytest.raises(StoreError) as caught:
        RunStore.open(older)
    said = str(caught.value)
    assert f"{older} could not be upgraded from schema 12 to {SCHEMA_VERSION} (no marks here)" in said
    assert "the database was left as it was" in said
    conn = sqlite3.connect(older)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 12
    assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'steps_plumbing'").fetchone()[0] == 0
    conn.close()
    assert tables(older) == before
