"""A SIGTERM while a command opens the run database (the runs a dead process left marked, an older database
upgraded, a damaged log looked for): the command ends as a Ctrl-C there ends it, with a sentence and exit status
130, and the database is left exactly as it was. SIGTERM killed the process there (status -15, no sentence).
The signal is raised exactly there, in a child process (tests/integration/test_cli_late_stop.py's)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.integration.test_cli_late_stop import stopped_at
from tests.support.sample_runs import mixed_database
from tests.unit.store.test_store_schema import first_schema_database

SAID = "Ended by a signal (SIGTERM) while the run database was being opened, before the command had done anything."


def left_running(path: Path) -> Path:
    """A database whose one run a process that is gone left running: opening it marks the run interrupted."""
    mixed_database(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE runs SET status = 'running', finished_at = NULL, owner_pid = 999999999")
    conn.close()
    return path


def files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("at", ["mark_interrupted_runs", "inspector.store.database:_migrate",
                                "inspector.store.database:check_log"])
def test_a_sigterm_while_the_database_opens_is_said_and_changes_nothing(tmp_path: Path, at: str) -> None:
    database = left_running(tmp_path / "runs.db")
    before = files(tmp_path)
    done = stopped_at("SIGTERM", at, "runs", "list", "--db", str(database))
    assert (done.returncode, done.stdout) == (130, ""), done.stderr
    assert done.stderr == f"run-inspector: {SAID}\n"
    assert files(tmp_path) == before  # the run still running, and no log or shared memory file beside it


def test_the_sentence_is_said_in_german_and_in_the_json_object_in_english(tmp_path: Path) -> None:
    database = left_running(tmp_path / "runs.db")
    done = stopped_at("SIGTERM", "mark_interrupted_runs", "runs", "show", "last", "--lang", "de", "--db",
                      str(database))
    assert done.returncode == 130
    assert done.stderr == ("run-inspector: Durch ein Signal (SIGTERM) beendet, während die Laufdatenbank geöffnet "
                           "wurde, bevor der Befehl etwas getan hatte.\n")
    as_json = stopped_at("SIGTERM", "mark_interrupted_runs", "runs", "list", "--json", "--lang", "de", "--db",
                         str(database))
    assert as_json.returncode == 130
    assert json.loads(as_json.stdout) == {"error": {"kind": "cancelled", "message": SAID}}


def test_a_sigterm_as_an_older_database_is_upgraded_leaves_it_at_its_version(tmp_path: Path) -> None:
    """`call` on a database of the first schema (its log mode, WAL, as every database of ours has)."""
    database = tmp_path / "runs.db"
    first_schema_database(database)
    conn = sqlite3.connect(database, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    before = files(tmp_path)
    done = stopped_at("SIGTERM", "inspector.store.database:_migrate", "call", "http://127.0.0.1:9/mcp", "echo",
                      "--db", str(database))
    assert done.returncode == 130 and done.stderr == f"run-inspector: {SAID}\n"
    assert files(tmp_path) == before
