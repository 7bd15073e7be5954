"""A file in our format that an older version exported gets the plumbing marks a fresh import gives.

The file is a real one: tests/fixtures/exports/openlit_mcp2_3834074f.json, written by the Run Inspector of commit
3834074f of its import of openlit_mcp2.jsonl (tests/fixtures/stores/make_older_databases.py says how). Its steps
keep the marks of that time: imported, its 12 plumbing traces were listed as runs, where a fresh import of the OTLP
file lists 1 run and says "Not listed: 12 plumbing traces". The import asks the importer's own rule
(inspector/traces/plumbing_mark.py) of each request step's kept span, as the upgrade to schema 14 does of a
database's."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace
from tests.support.cli_process import cli_here

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
OLDER = FIXTURES / "exports" / "openlit_mcp2_3834074f.json"
FRESH = FIXTURES / "otel" / "openlit_mcp2.jsonl"


def stored_payloads(path: Path) -> dict[tuple[str, int], str]:
    """Each step's stored payload (its text), by its run's uid and its sequence."""
    conn = sqlite3.connect(path)
    found = {(uid, sequence): payload for uid, sequence, payload in conn.execute(
        "SELECT uid, sequence, payload FROM steps JOIN runs ON runs.id = steps.run_id")}
    conn.close()
    return found


def marks(path: Path) -> dict[tuple[str, int], tuple[Any, Any]]:
    """Each step's plumbing marks (its own span's, its server side's; None: no mark)."""
    found = {}
    for key, payload in stored_payloads(path).items():
        otlp = json.loads(payload).get("raw", {}).get("otlp", {})
        found[key] = (otlp.get("plumbing"), otlp.get("server", {}).get("plumbing"))
    return found


def imported(folder: Path, name: str, trace: Path) -> Path:
    path = folder / name
    with RunStore.open(path) as store:
        import_trace(store, trace)
    return path


def runs_list(db: Path) -> str:
    result = cli_here("runs", "list", "--db", str(db), env={"TZ": "UTC", "COLUMNS": "160"})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_an_older_export_lists_what_a_fresh_import_lists(tmp_path: Path) -> None:
    older, fresh = tmp_path / "older.db", tmp_path / "fresh.db"
    said = cli_here("import", str(OLDER), "--db", str(older))
    assert said.returncode == 0, said.stderr
    assert "12 of the runs are plumbing traces" in said.stdout
    assert cli_here("import", str(FRESH), "--db", str(fresh)).returncode == 0
    listed = runs_list(older)
    assert listed == runs_list(fresh)
    rows = [line for line in listed.splitlines() if line.split() and line.split()[0].isdigit()]
    assert len(rows) == 1 and rows[0].endswith("invoke_agent support-agent")
    assert listed.splitlines()[-1].startswith("Not listed: 12 plumbing traces (")
    assert marks(older) == marks(fresh)


def test_only_the_marks_are_added_at_the_end_of_the_kept_span(tmp_path: Path) -> None:
    db = imported(tmp_path, "older.db", OLDER)
    in_file = {(run["uid"], step["sequence"]): step["payload"] for run in json.loads(OLDER.read_text())["runs"]
               for step in run["steps"]}
    stored = stored_payloads(db)
    added = 0
    for key, payload in in_file.items():
        expected = json.loads(json.dumps(payload))
        otlp = expected["raw"]["otlp"]
        own, server = marks(db)[key]
        if own and "plumbing" not in otlp:
            otlp["plumbing"] = True
            added += 1
        if server and "plumbing" not in otlp.get("server", {}):
            otlp["server"]["plumbing"] = True
            added += 1
        assert json.dumps(json.loads(stored[key])) == json.dumps(expected), key  # the same keys in the same order
    assert added == 12  # nine `mcp session/init`, `notifications/initialized`, two `notifications/cancelled`


def edited(folder: Path, change: Any) -> Path:
    """The older file with ``change(run)`` made to each of its runs."""
    document = json.loads(OLDER.read_text())
    for run in document["runs"]:
        change(run)
    path = folder / "edited.json"
    path.write_text(json.dumps(document))
    return path


def file_marks(path: Path) -> dict[tuple[str, int], tuple[Any, Any]]:
    """Each step's plumbing marks as the file gives them."""
    found = {}
    for run in json.loads(path.read_text())["runs"]:
        for step in run["steps"]:
            otlp = step["payload"]["raw"]["otlp"]
            found[(run["uid"], step["sequence"])] = (otlp.get("plumbing"), otlp.get("server", {}).get("plumbing"))
    return found


def test_a_mark_the_file_gives_is_kept(tmp_path: Path) -> None:
    def unmark(run: dict[str, Any]) -> None:
        for step in run["steps"]:
            otlp = step["payload"]["raw"]["otlp"]
            if otlp["name"] in ("mcp session/init", "mcp transport/request"):
                otlp["plumbing"] = False

    trace = edited(tmp_path, unmark)
    db = imported(tmp_path, "older.db", trace)
    with RunStore.open(db) as store:
        assert store.count_runs(plumbing_traces=True) == 3  # notifications/initialized, two notifications/cancelled
    given = {key: own for key, (own, _) in file_marks(trace).items() if own is False}
    assert len(given) == 15  # nine `mcp session/init`, six `mcp transport/request`
    assert {key: marks(db)[key][0] for key in given} == given


@pytest.mark.parametrize("source", ["live", "scenario"])
def test_a_run_of_ours_is_never_marked(tmp_path: Path, source: str) -> None:
    trace = edited(tmp_path, lambda run: run.update(source=source))
    db = imported(tmp_path, "ours.db", trace)
    with RunStore.open(db) as store:
        assert store.count_runs(plumbing_traces=True) == 0
    assert marks(db) == file_marks(trace)


def unmarked(run: dict[str, Any]) -> None:
    """A run as a version that marked no request step plumbing would have exported it (the parts of the rule
    written since older versions marked spans mark request spans alone)."""
    for step in run["steps"]:
        if step["payload"]["kind"] != "request":
            continue
        otlp = step["payload"].get("raw", {}).get("otlp", {})
        otlp.pop("plumbing", None)
        if isinstance(otlp.get("server"), dict):
            otlp["server"].pop("plumbing", None)


@pytest.mark.parametrize("fixture", sorted(path.name for path in (FIXTURES / "otel").glob("*.jsonl")))
def test_every_mark_of_a_fresh_import_comes_back_to_an_export_without_marks(tmp_path: Path, fixture: str) -> None:
    fresh = imported(tmp_path, "fresh.db", FIXTURES / "otel" / fixture)
    with RunStore.open(fresh) as store:
        export(store, None, None, tmp_path / "export.json")
    document = json.loads((tmp_path / "export.json").read_text())
    for run in document["runs"]:
        unmarked(run)
    (tmp_path / "unmarked.json").write_text(json.dumps(document))
    db = imported(tmp_path, "unmarked.db", tmp_path / "unmarked.json")
    assert marks(db) == marks(fresh)
