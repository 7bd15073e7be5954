"""Run database paths the system cannot look at, or that are not UTF-8: said in one sentence, or used as
they are; never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str | bytes) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env={**os.environ}, errors="replace")


@pytest.mark.parametrize("command", [["runs", "list"], ["call", "http://127.0.0.1:9/mcp", "echo"],
                                     ["servers"]])
@pytest.mark.parametrize("name", ["f" * 300 + ".db", "/".join(["d" * 200] * 25) + "/runs.db"])
def test_a_name_too_long_for_the_system_is_one_sentence(tmp_path: Path, command: list[str], name: str) -> None:
    """Python's exists() raises ENAMETOOLONG (it only answers False for a missing file): this was an
    internal error with a traceback, from the folder check or the opening."""
    path = tmp_path / name
    done = cli(*command, "--db", str(path), "--lang", "en")
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr == (f"run-inspector: The run database {path} cannot be used: the name is too long. Name "
                           "another file with --db or RUN_INSPECTOR_DB.\n")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_named_in_bytes_that_are_not_utf8_holds_the_database(tmp_path: Path) -> None:
    folder = os.path.join(os.fsencode(tmp_path), b"runs-\xff\xfe")
    os.mkdir(folder)
    path = os.fsdecode(os.path.join(folder, b"runs.db"))
    noted = cli("runs", "list", "--db", path, "--lang", "de")
    assert noted.returncode == 0 and "Traceback" not in noted.stderr, noted.stderr
    from inspector.store import RunStore

    with RunStore.open(path) as store:
        store.finish_run(store.start_run("tools/call echo"), "ok")
    listed = cli("runs", "list", "--db", path, "--lang", "en")
    assert listed.returncode == 0 and "tools/call echo" in listed.stdout, listed.stderr
    assert os.listdir(folder) == [b"runs.db"]
