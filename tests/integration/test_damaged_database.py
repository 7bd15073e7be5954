"""A damaged or locked run database, met by the command line: one sentence, an exit status,
no traceback; `call` keeps its budget and the call's record is never lost silently.

The damage is real (random bytes written over the pages of a real database) and so is the lock
(another process holding ``BEGIN EXCLUSIVE`` on the file).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from inspector.demo import DemoServer
from inspector.runs import RunTrace, ToolResult
from inspector.store import RunStore, ServerRegistry
from tests.support.cli_process import BOUND_BY_PERMISSIONS

ROOT = Path(__file__).resolve().parents[2]
PAGE = 4096

#: Holds an exclusive transaction on the file named until its standard input closes.
HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()
"""


def cli(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env={**os.environ})
    return done, time.monotonic() - began


@pytest.fixture(scope="module")
def demo() -> Iterator[str]:
    with DemoServer() as server:
        assert server.url is not None
        yield server.url


def filled_database(path: Path, runs: int = 12) -> Path:
    """A real run database with runs, steps, legs and a server: a dozen pages or more."""
    with RunStore.open(path) as store:
        for number in range(runs):
            run_id = store.start_run(f"call echo {number}", server="http://127.0.0.1:9/mcp")
            step = RunTrace().record_tool_result(0, "echo", {"text": "x" * 300}, ToolResult.text("y" * 900), 3.0)
            store.append_step(run_id, step)
            store.finish_run(run_id, "ok")
        ServerRegistry(store.db).save_server("http://127.0.0.1:9/mcp", name="mine")
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def scramble_pages(path: Path, first_page: int = 2) -> None:
    """Random bytes over every page from ``first_page`` on; page 1 (the header) stays, so SQLite
    opens the file and meets the damage only when it reads the tables."""
    pages = path.stat().st_size // PAGE
    assert pages >= 8
    noise = random.Random(18)
    with path.open("r+b") as file:
        for page in range(first_page, pages + 1):
            file.seek((page - 1) * PAGE)
            file.write(noise.randbytes(PAGE))


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    path = filled_database(tmp_path / "runs.db")
    scramble_pages(path)
    return path


@pytest.mark.parametrize("command", [["runs", "list"], ["runs", "show", "1"], ["servers"], ["export", "1"]])
def test_every_command_on_scrambled_pages_is_one_sentence_and_status_2(damaged: Path, command: list[str],
                                                                       tmp_path: Path) -> None:
    if command[0] == "export":
        command = [*command, "--output", str(tmp_path / "out.json")]
    done, _took = cli(*command, "--db", str(damaged))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line == (f"run-inspector: The run database {damaged} is damaged (database disk image is malformed) and "
                    "cannot be used; it was left as it is. Move it aside (rename it) to start with a fresh one, or "
                    "choose another file with --db or RUN_INSPECTOR_DB.")


def test_a_call_on_scrambled_pages_sends_nothing_and_says_so_in_json(damaged: Path, demo: str) -> None:
    done, _took = cli("call", demo, "echo", "--args", '{"text": "hi"}', "--json", "--db", str(damaged))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["kind"] == "usage" and f"{damaged} is damaged" in error["message"]


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Path]:
    """A real database, in WAL mode as Run Inspector leaves it, held by another process."""
    path = filled_database(tmp_path / "runs.db", runs=2)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield path
    finally:
        holder.communicate(timeout=10)  # closing its input ends it, and the lock with it


def test_a_call_on_a_locked_database_keeps_its_budget_and_saves_its_record_aside(locked: Path, demo: str) -> None:
    # Beside it, the same call without a database to write: what the machine needs for it (start-up,
    # the 2 s budget, the session's end), however busy it is. The two run at once, each timed on its own.
    with ThreadPoolExecutor(2) as both:
        beside = both.submit(cli, "call", demo, "hang", "--budget", "2", "--json", "--no-store")
        done, took = cli("call", demo, "hang", "--budget", "2", "--json", "--db", str(locked))
        _free, free_took = beside.result()
    # The call ran on its budget (it timed out at 2 s, as `hang` never answers); the lock cost at
    # most its bounded waits (0.1 s before the call, 1 s for the record) on top, not the 10 s
    # busy timeout that used to come before the call was even sent.
    report = json.loads(done.stdout)
    assert report["error"]["kind"] == "timed_out" and report["budget_s"] == 2
    assert took < free_took + 2.5, (took, free_took)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "internal" not in done.stderr
    side_file = Path(report["record"]["side_file"])
    assert report["record"]["saved"] is False and "run_id" not in report
    assert done.stderr.strip().splitlines()[-1] == (
        f"run-inspector: The call's record could not be saved because the database {locked} is locked by another "
        f"program: it was written to {side_file} instead; add it to the database later with: run-inspector "
        f"import {side_file} --db {locked}")
    assert side_file.parent == locked.parent / "unsaved-runs" and side_file.is_file()


def test_the_record_saved_aside_imports_once_the_lock_is_gone(tmp_path: Path, demo: str) -> None:
    path = filled_database(tmp_path / "runs.db", runs=2)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    try:
        done, _took = cli("call", demo, "echo", "--args", '{"text": "kept aside"}', "--json", "--db", str(path))
    finally:
        holder.communicate(timeout=10)
    report = json.loads(done.stdout)
    assert report["outcome"] == "ok" and done.returncode == 1
    imported, _took = cli("import", report["record"]["side_file"], "--db", str(path))
    assert imported.returncode == 0, imported.stderr
    with RunStore.open(path) as store:
        (run,) = [run for run in store.list_runs() if run.title == "tools/call echo"]
        (stored,) = list(store.iter_steps(run.id))
        assert run.status == "ok" and stored.payload["toolResult"] == "kept aside"


def call_past_its_first_row(path: Path, demo: str, seconds: int) -> tuple[subprocess.Popen[str], str]:
    """A `call` of slow_task (``seconds``) on ``path``, once its run's first row is written; and that run's uid."""
    call = subprocess.Popen([sys.executable, "-m", "inspector", "call", demo, "slow_task", "--args",
                             json.dumps({"seconds": seconds}), "--json", "--db", str(path), "--lang", "en"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    reader = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    deadline = time.monotonic() + 30
    while (first := reader.execute("SELECT uid FROM runs WHERE status = 'running'").fetchone()) is None:
        assert time.monotonic() < deadline and call.poll() is None
        time.sleep(0.02)
    reader.close()
    return call, first[0]


def test_a_lock_taken_during_the_call_leaves_a_first_row_that_the_import_replaces(tmp_path: Path, demo: str) -> None:
    """The lock comes after the call's first row was written: the record goes aside and the first row
    stays (removing it needs the lock). Importing the side file said "here already" and added nothing,
    the run stayed interrupted with no step; it now brings the call back whole, under its uid."""
    path = filled_database(tmp_path / "runs.db", runs=1)
    call, uid = call_past_its_first_row(path, demo, 2)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        out, err = call.communicate(timeout=60)
    finally:
        holder.communicate(timeout=10)
    report = json.loads(out)
    assert report["outcome"] == "ok" and call.returncode == 1 and report["record"]["saved"] is False, err
    imported, _took = cli("import", report["record"]["side_file"], "--db", str(path), "--lang", "en")
    assert imported.returncode == 0 and imported.stdout.startswith("Imported 1 run "), imported.stdout
    with RunStore.open(path) as store:
        (run,) = [run for run in store.list_runs() if run.uid == uid]
        assert run.status == "ok" and [step.step.kind for step in store.iter_steps(run.id)] == ["tool"]
        assert len(store.list_runs()) == 2


def test_a_database_deleted_during_the_call_gets_no_record_it_would_lose(tmp_path: Path, demo: str) -> None:
    """The file is deleted after the call's first row: SQLite wrote the record into the deleted file and the
    call said "Stored as run 2." Now the record goes to the side file, exit status 1."""
    path = filled_database(tmp_path / "runs.db", runs=1)
    call, _uid = call_past_its_first_row(path, demo, 1)
    path.unlink()
    out, err = call.communicate(timeout=60)
    report = json.loads(out)
    assert report["outcome"] == "ok" and call.returncode == 1 and "run_id" not in report, err
    assert report["record"]["saved"] is False and Path(report["record"]["side_file"]).is_file()
    assert (f"because the database {path} could not be written (the file was deleted or replaced while it was "
            "open)") in err


def test_without_a_lock_the_call_is_stored_as_before(tmp_path: Path, demo: str) -> None:
    path = filled_database(tmp_path / "runs.db", runs=1)
    done, _took = cli("call", demo, "echo", "--args", '{"text": "hi"}', "--json", "--db", str(path))
    report = json.loads(done.stdout)
    assert done.returncode == 0 and "record" not in report and not (tmp_path / "unsaved-runs").exists()
    with RunStore.open(path) as store:
        assert store.get_run(report["run_id"]).status == "ok"
        assert ServerRegistry(store.db).get(demo).ok_count == 1


def test_a_database_in_a_folder_that_can_only_be_read_says_so(tmp_path: Path) -> None:
    """A WAL database in a read-only folder cannot even be read (SQLite cannot make its -shm file):
    it was "cannot be opened: attempt to write a readonly database", now the read-only sentence.
    The permissions are real; root, which passes them, runs the command without that power."""
    folder = tmp_path / "kept"
    folder.mkdir()
    path = filled_database(folder / "runs.db")
    before = path.read_bytes()
    folder.chmod(0o555)
    try:
        done = subprocess.run([*BOUND_BY_PERMISSIONS, sys.executable, "-m", "inspector", "runs", "list", "--db",
                               str(path), "--lang", "en"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    finally:
        folder.chmod(0o755)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert f"The run database {path} cannot be written" in done.stderr and "read-only" in done.stderr
    assert path.read_bytes() == before and sorted(folder.iterdir()) == [path]


def test_a_disk_with_no_room_for_the_files_beside_the_database_says_so(tmp_path: Path) -> None:
    """A full disk (here the file size limit, 16 KiB, so SQLite cannot make its 32 KiB -shm file) was
    "cannot be opened: disk I/O error", which names no cause."""
    import resource

    path = filled_database(tmp_path / "runs.db")
    before = path.read_bytes()

    def no_room() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))

    for language, said in (("en", "there is no room left on its disk"), ("de", "kein Platz mehr")):
        done = subprocess.run([sys.executable, "-m", "inspector", "runs", "list", "--db", str(path),
                               "--lang", language], capture_output=True, text=True, timeout=60, cwd=ROOT,
                              preexec_fn=no_room)
        assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
        assert str(path) in done.stderr and said in done.stderr, done.stderr
    assert path.read_bytes() == before
