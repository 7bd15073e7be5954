"""The helper that asserts "no secret appears anywhere" finds what is planted: in a table, in a row
since deleted, in a file (also JSON-escaped), on a child process's command line; and passes otherwise."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.secret_search import assert_nowhere, descendants, find_secrets

PLANTED = 'PLANTED-"secret"-0042'


def database_with(path: Path, value: str, *, delete: bool = False) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    # As most SQLite builds do (Debian's zeroes deleted content): what a deleted row held stays in the file.
    conn.execute("PRAGMA secure_delete = OFF")
    conn.execute("CREATE TABLE kept (id INTEGER PRIMARY KEY, value TEXT)")
    conn.execute("INSERT INTO kept (value) VALUES ('harmless'), (?)", (value,))
    if delete:
        conn.execute("DELETE FROM kept WHERE value = ?", (value,))
    conn.close()


def test_a_secret_in_a_table_is_found(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    database_with(path, json.dumps({"token": PLANTED}))
    with pytest.raises(AssertionError, match="table kept: secret #2 \\(JSON-escaped\\)") as caught:
        assert_nowhere(["nothing-like-it", PLANTED], database=path, processes=False)
    assert PLANTED not in str(caught.value)  # the report never repeats the secret
    assert find_secrets(["nothing-like-it"], database=path, processes=False) == []


def test_a_secret_deleted_from_a_table_is_still_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    database_with(path, PLANTED, delete=True)
    found = find_secrets([PLANTED], database=path, processes=False)
    assert found and all("table" not in where for where in found)  # found in the file's bytes only


def test_a_secret_in_a_file_is_found_as_written_or_escaped(tmp_path: Path) -> None:
    export, log = tmp_path / "export.json", tmp_path / "server.log"
    export.write_text(json.dumps({"header": PLANTED}))
    log.write_text("all quiet\n")
    assert find_secrets([PLANTED], files=[export, log], processes=False) == [f"{export}: secret #1 (JSON-escaped)"]
    log.write_bytes(PLANTED.encode("utf-16-le"))
    assert find_secrets([PLANTED], files=[log], processes=False) == [f"{log}: secret #1 (UTF-16)"]
    log.write_text(f"GET /cb?code={PLANTED.replace(chr(34), '%22')}")
    assert find_secrets([PLANTED], files=[log], processes=False) == [f"{log}: secret #1 (percent-encoded)"]


def test_a_secret_on_a_child_process_command_line_is_found() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()", PLANTED], stdin=subprocess.PIPE)
    try:
        assert child.pid in descendants(__import__("os").getpid())
        with pytest.raises(AssertionError, match=f"the command line of process {child.pid}"):
            assert_nowhere([PLANTED])
    finally:
        child.communicate(timeout=30)
    assert_nowhere([PLANTED])  # it has ended


def test_nowhere_passes_and_careless_use_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    database_with(path, "harmless value")
    assert_nowhere([PLANTED], database=path, files=[path])
    with pytest.raises(ValueError, match="by chance"):
        assert_nowhere(["abc"], database=path)
    with pytest.raises(FileNotFoundError):
        assert_nowhere([PLANTED], database=tmp_path / "typo.db")
