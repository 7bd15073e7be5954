"""A tool's structured content holding NaN or an infinity (not JSON, yet Python's reader and writer take
them): it is stored as the text protobuf's JSON mapping spells them ("NaN", "Infinity", "-Infinity"),
as the receiver stores them and as an export writes them. Stored as numbers, the payload was no JSON
for SQLite: the Runs tab's row of the step lost its tool's name and result (the row is read from the
payload in SQL), Find skipped it, and an export and its import no longer gave the step back as stored.
Real parts: a stdio server that sends them (tests/support/stdio_faults.py), the command line, a real
SQLite file, a real export and import."""

from __future__ import annotations

import shlex
import sqlite3
import sys
from pathlib import Path

from inspector.store import RunStore
from inspector.store.browse import timeline_page
from inspector.transfer import export, import_trace
from tests.support.cli_process import cli

SERVER = f"{shlex.quote(sys.executable)} -m tests.support.stdio_faults notnumbers"
KEPT = {"ratio": "NaN", "high": "Infinity", "low": "-Infinity", "huge": "Infinity", "kept": [1.5]}


def test_structured_content_with_nan_and_infinities_is_stored_as_json(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    done = cli("call", "--stdio", SERVER, "shape", "--era", "handshake", "--db", str(db))
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT json_valid(payload), CASE WHEN json_valid(payload) THEN "
                            "json_extract(payload, '$.toolName') END FROM steps").fetchall() == [(1, "shape")]
    store = RunStore.open(db)
    try:
        run = store.list_runs()[0]
        (row,) = timeline_page(store, run.id, 0, 10)
        assert row.detail_fields.get("toolName") == "shape"  # the Runs tab's row names the tool
        (stored,) = store.iter_steps(run.id)
        assert stored.payload["structuredContent"] == KEPT
        export(store, None, None, tmp_path / "t.json")
    finally:
        store.close()
    again = RunStore.open(tmp_path / "again.db")
    try:
        import_trace(again, tmp_path / "t.json")
        (imported,) = again.iter_steps(again.list_runs()[0].id)
        assert imported.payload["structuredContent"] == KEPT
    finally:
        again.close()


def test_call_json_writes_them_as_text_so_a_strict_reader_takes_the_answer(tmp_path: Path) -> None:
    """`call --json` printed `"ratio": NaN`: no JSON, and a script's reader (``jq``, a strict parser)
    refused the whole answer. It now spells them as the stored step does."""
    import json

    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")

    done = cli("call", "--stdio", SERVER, "shape", "--era", "handshake", "--json", "--db", str(tmp_path / "r.db"))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout, parse_constant=refuse)
    assert answer["structured_content"] == KEPT
