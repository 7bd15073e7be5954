"""Files of very many runs: the per-run bookkeeping moves to disk and gives the same result;
a pipe, a folder or a device is refused at once; a million ids are not printed."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from test_trace_support import (
    LLM_PAYLOAD,
    TOOL_PAYLOAD,
    fingerprint,
    otlp_doc,
    run_doc,
    settle,
    snapshot,
    span,
    step_doc,
    trace_doc,
    write_json,
)

from inspector.store import RunStore
from inspector.traces import reader
from inspector.traces.format import TraceImportError
from inspector.transfer import importing, spill
from inspector.transfer.importing import import_trace
from tests.support.cli_process import cli_here

ROOT = Path(__file__).resolve().parents[3]


def many_traces(tmp: Path, count: int) -> Path:
    """Our runs (two steps each) and foreign one-span traces, interleaved, in one OTLP file."""
    spans = []
    for n in range(count):
        spans.append(span(f"{n + 1:032x}", f"{n + 1:016x}", name=f"GET /{n}",
                          start=str(1_700_000_000_000_000_000 + n), end=str(1_700_000_000_000_000_500 + n)))
    path = write_json(tmp / "many.otlp.json", otlp_doc(*spans))
    return path


def many_runs(tmp: Path, count: int) -> Path:
    runs = [run_doc(uid=f"run-{n}", steps=[step_doc(1, TOOL_PAYLOAD), step_doc(2, LLM_PAYLOAD)])
            for n in range(count)]
    return write_json(tmp / "many.trace.json", trace_doc(runs))


def imported(tmp: Path, path: Path, name: str) -> list:
    with RunStore.open(tmp / f"{name}.db") as store:
        report = import_trace(store, path)
        assert report.runs_imported == len(store.list_runs(limit=None))
        return snapshot(store)


@pytest.fixture
def tiny_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables move to disk after 5 entries; steps are never cached (the file is read twice)."""
    monkeypatch.setattr(spill, "SPILL_AFTER", 5)
    monkeypatch.setattr(reader.TracePlan, "_MANY_RUNS", 5)


@pytest.mark.parametrize("make", [many_traces, many_runs], ids=["otlp", "trace"])
@pytest.mark.parametrize("cache_budget", [0, reader.CACHE_BUDGET])
def test_tables_on_disk_give_the_same_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make,
                                           cache_budget: int) -> None:
    path = make(tmp_path, 60)
    monkeypatch.setattr(importing, "CACHE_BUDGET", cache_budget)
    in_memory = imported(tmp_path, path, "memory")
    monkeypatch.setattr(spill, "SPILL_AFTER", 5)
    monkeypatch.setattr(reader.TracePlan, "_MANY_RUNS", 5)
    on_disk = imported(tmp_path, path, "disk")
    assert on_disk == in_memory and len(on_disk) == 60


def test_a_spilled_table_keeps_insertion_order_and_replacements() -> None:
    with spill.SpillArea(spill_after=3) as area:
        table = area.table()
        for n in range(10):
            table[f"k{n}"] = n
        table["k2"] = "changed"
        assert table.spilled and len(table) == 10 and "k9" in table and "nope" not in table
        assert list(table) == [f"k{n}" for n in range(10)]
        assert table["k2"] == "changed" and table.get("nope", 7) == 7
        assert table.setdefault("k3", 99) == 3 and table.setdefault("new", 5) == 5
        del table["k0"]
        assert next(iter(table.items())) == ("k1", 1)


@pytest.mark.parametrize("spill_after", [3, 100], ids=["on disk", "in memory"])
def test_a_table_pops_as_a_dict_does(spill_after: int) -> None:
    with spill.SpillArea(spill_after=spill_after) as area:
        table, plain = area.table(), {}
        for n in range(10):
            table[f"k{n}"] = plain[f"k{n}"] = n
        assert table.spilled == (spill_after == 3)
        assert table.pop("k4") == plain.pop("k4") == 4
        assert table.pop("nope", None) is plain.pop("nope", None) is None
        with pytest.raises(KeyError):
            table.pop("k4")
        table["k4"] = plain["k4"] = "again"  # back at the end
        assert list(table.items()) == list(plain.items()) and len(table) == 9 + 1


def test_duplicates_are_still_found_once_the_tables_are_on_disk(tmp_path: Path, tiny_tables: None) -> None:
    runs = [run_doc(uid=f"run-{n}") for n in range(20)] + [run_doc(uid="run-3")]
    with RunStore.open(tmp_path / "runs.db") as store:
        settle(store)
        with pytest.raises(TraceImportError, match="'run-3' appears twice"):
            import_trace(store, write_json(tmp_path / "dup.json", trace_doc(runs)))
        runs = [run_doc(uid=f"run-{n}") for n in range(20)]
        runs[15]["steps"].append(step_doc(1, LLM_PAYLOAD))
        with pytest.raises(TraceImportError, match="sequence 1 appears twice"):
            import_trace(store, write_json(tmp_path / "dup-seq.json", trace_doc(runs)))
        assert store.list_runs(limit=None) == []


def _fifo(tmp: Path) -> Path:
    path = tmp / "pipe.json"
    os.mkfifo(path)
    return path


def _folder(tmp: Path) -> Path:
    path = tmp / "folder.json"
    path.mkdir()
    return path


def _device(tmp: Path) -> Path:
    path = tmp / "zero"
    try:
        os.mknod(path, stat.S_IFCHR | 0o444, os.makedev(1, 5))  # the zero device: endless bytes
    except PermissionError:
        return Path("/dev/zero")
    return path


@pytest.mark.timeout(30)
@pytest.mark.parametrize("make, kind", [(_fifo, "named pipe"), (_folder, "folder"), (_device, "device")])
def test_only_regular_files_are_read(tmp_path: Path, make, kind: str) -> None:
    db = tmp_path / "runs.db"
    RunStore.open(db).close()
    before = fingerprint(db)
    done = subprocess.run([sys.executable, "-m", "inspector", "import", str(make(tmp_path)), "--db", str(db)],
                          capture_output=True, text=True, cwd=ROOT, env=os.environ.copy(), timeout=20)
    assert done.returncode == 2, done.stderr
    assert f"is a {kind}, not a regular file" in done.stderr and done.stderr.count("\n") == 1
    assert fingerprint(db) == before


def test_very_many_new_runs_are_named_by_their_first_and_last_id(tmp_path: Path) -> None:
    path = many_traces(tmp_path, 1500)
    db = str(tmp_path / "runs.db")
    done = cli_here("import", str(path), "--db", db)  # in this process: what it says is the point
    assert done.returncode == 0, done.stderr
    assert "as runs 1 to 1500." in done.stdout and len(done.stdout) < 300
    as_json = cli_here("import", str(path), "--json", "--db", str(tmp_path / "other.db"))
    report = json.loads(as_json.stdout)
    assert report["run_id_range"] == [1, 1500] and report["runs_imported"] == 1500 and "run_ids" not in report


def _packing_threads() -> list:
    import threading
    return [thread for thread in threading.enumerate() if thread.name.startswith("import-rows")]


@pytest.mark.parametrize("cache_budget", [0, 400_000, reader.CACHE_BUDGET], ids=["none", "outgrown", "whole"])
def test_steps_kept_while_a_thread_compresses_them_give_the_same_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      cache_budget: int) -> None:
    """Batches of kept steps are compressed by a thread while the next are read (several batches
    here); kept whole, outgrown halfway (the file is read again) or never kept, the runs are the
    same, and no thread is left behind."""
    path = many_traces(tmp_path, 1200)
    expected = imported(tmp_path, path, "reference")
    monkeypatch.setattr(importing, "CACHE_BUDGET", cache_budget)
    assert imported(tmp_path, path, "budget") == expected and len(expected) == 1200
    assert not _packing_threads()


def test_a_refused_file_leaves_no_compressing_thread(tmp_path: Path) -> None:
    spans = [span(f"{n + 1:032x}", f"{n + 1:016x}", name=f"GET /{n}") for n in range(1000)]
    spans.append(span("0" * 32, "1" * 16))  # an all-zero trace id, after four batches were sealed
    path = tmp_path / "late.otlp.jsonl"
    path.write_text("\n".join(json.dumps(otlp_doc(record)) for record in spans) + "\n", encoding="utf-8")
    with RunStore.open(tmp_path / "runs.db") as store, pytest.raises(TraceImportError, match="line 1001"):
        import_trace(store, path)
    assert not _packing_threads()
