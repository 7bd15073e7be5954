"""Ctrl-C or SIGTERM during a long export, import or listing: one sentence on stderr saying what was
left undone, exit status 130, no traceback, and nothing half-written left looking whole (no export
file, no `.part` beside it, no runs of a half-read import, no database an import made)."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.cli_process import start_cli, stopped, wait_for
from tests.support.sample_runs import big_run

ROOT = Path(__file__).resolve().parents[2]
OTLP = ROOT / "tests" / "fixtures" / "otel" / "traceloop.jsonl"


@pytest.fixture(scope="module")
def long_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("long") / "runs.db"
    with RunStore.open(db) as store:
        big_run(store, 150_000)
    return db


@pytest.mark.parametrize(("signum", "language", "said"), [
    (signal.SIGINT, "en", "Cancelled (Ctrl-C) before the export was done: nothing was written to {target}."),
    # What `timeout` and a CI runner send: no one pressed Ctrl-C, and the sentence said so.
    (signal.SIGTERM, "en", "Ended by a signal (SIGTERM) before the export was done: nothing was written to {target}."),
    (signal.SIGTERM, "de", "Durch ein Signal (SIGTERM) beendet, bevor der Export fertig war: nach {target} wurde "
                           "nichts geschrieben."),
])
def test_an_interrupted_export_says_so_and_leaves_no_file(long_db: Path, tmp_path: Path, signum: int, language: str,
                                                          said: str) -> None:
    target = tmp_path / "runs.json"
    process = start_cli("export", "--all", "-o", str(target), "--db", str(long_db), language=language)
    wait_for(lambda: any(tmp_path.glob(".runs.json.*.part")), process, "file being written")
    _, stderr = stopped(process, signum)
    assert stderr.strip() == "run-inspector: " + said.format(target=target)
    assert list(tmp_path.iterdir()) == []  # neither the file nor its .part


def test_an_interrupted_export_leaves_the_file_there_before_as_it_was(long_db: Path, tmp_path: Path) -> None:
    target = tmp_path / "runs.json"
    target.write_text("yesterday's export\n")
    process = start_cli("export", "--all", "-o", str(target), "--force", "--db", str(long_db), "--json")
    wait_for(lambda: any(tmp_path.glob(".runs.json.*.part")), process, "file being written")
    stdout, _ = stopped(process, signal.SIGINT)
    assert json.loads(stdout)["error"]["kind"] == "cancelled"
    assert [path.name for path in tmp_path.iterdir()] == ["runs.json"]
    assert target.read_text() == "yesterday's export\n"


@pytest.fixture(scope="module")
def long_trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An OTLP file of 3,000 traces (the fixture's, each under a trace id of its own)."""
    lines = OTLP.read_text().splitlines()
    path = tmp_path_factory.mktemp("trace") / "many.jsonl"
    with path.open("w") as out:
        for number in range(1500):
            for line in lines:
                document = json.loads(line)
                for resource in document["resourceSpans"]:
                    for scope in resource["scopeSpans"]:
                        for span in scope["spans"]:
                            span["traceId"] = f"{number + 1:032x}"
                out.write(json.dumps(document) + "\n")
    return path


@pytest.mark.parametrize(("signum", "language", "said"), [
    (signal.SIGINT, "en", "Cancelled (Ctrl-C) before the import was done: nothing was imported."),
    (signal.SIGTERM, "en", "Ended by a signal (SIGTERM) before the import was done: nothing was imported."),
    (signal.SIGTERM, "de", "Durch ein Signal (SIGTERM) beendet, bevor der Import fertig war: nichts wurde "
                           "importiert."),
])
def test_an_interrupted_import_imports_nothing_and_makes_no_database(long_trace: Path, tmp_path: Path,
                                                                     signum: int, language: str, said: str) -> None:
    db = tmp_path / "runs.db"
    process = start_cli("import", str(long_trace), "--db", str(db), language=language)
    wait_for(db.exists, process, "database")
    time.sleep(0.3)  # reading the file
    _, stderr = stopped(process, signum)
    assert stderr.strip() == f"run-inspector: {said}"
    assert not db.exists()


@pytest.mark.parametrize(("signum", "message"), [
    (signal.SIGINT, "Cancelled (Ctrl-C) before the import was done: nothing was imported."),
    (signal.SIGTERM, "Ended by a signal (SIGTERM) before the import was done: nothing was imported."),
])
def test_an_interrupted_import_into_a_database_adds_nothing(long_trace: Path, tmp_path: Path, signum: int,
                                                            message: str) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        big_run(store, 3)
    assert not Path(f"{db}-wal").exists()
    process = start_cli("import", str(long_trace), "--db", str(db), "--json", language="de")
    wait_for(Path(f"{db}-wal").exists, process, "database opened")
    time.sleep(0.3)  # reading the file
    stdout, _ = stopped(process, signum)
    assert json.loads(stdout)["error"] == {"kind": "cancelled", "message": message}  # English, whatever the language
    with RunStore.open(db) as store:
        assert len(store.list_runs()) == 1


def test_ctrl_c_in_a_long_listing_says_so(long_db: Path) -> None:
    process = start_cli("runs", "show", "1", "--db", str(long_db))  # its reader is slow: stdout fills and waits
    time.sleep(2.0)
    process.send_signal(signal.SIGINT)
    while process.poll() is None:  # read what it wrote until it ends
        process.stdout.read(1 << 16)  # type: ignore[union-attr]
    stderr = process.stderr.read()  # type: ignore[union-attr]
    assert process.returncode == 130, stderr.decode()
    assert stderr.decode().strip() == "run-inspector: Cancelled (Ctrl-C) before the command had done its work."
