"""An import into a run database another program keeps locked, or one that can only be read, names the
database file and says what to do (in English and German), and imports nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from inspector import i18n
from inspector.i18n.messages import translate
from inspector.store import RunStore, StoreError
from inspector.transfer import import_trace

FIXTURE = Path(__file__).parents[2] / "fixtures" / "otel" / "fastmcp.jsonl"


def test_a_locked_database_is_named_with_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    RunStore.open(db).close()
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program's write transaction, held open
    try:
        with RunStore.open(db, lock_wait_s=0.2) as store, pytest.raises(StoreError) as caught:
            import_trace(store, FIXTURE)
    finally:
        other.execute("ROLLBACK")
        other.close()
    said = str(caught.value)
    assert said == (f"The runs of fastmcp.jsonl could not be written: the run database {db} stayed locked by another "
                    "program (for example a sqlite3 shell, or another tool holding a transaction open). Nothing was "
                    "imported. Close that program, or wait until it is done, and try again.")
    assert i18n.set_language("de") == "de"
    try:
        german = translate(caught.value.sentence)
    finally:
        i18n.set_language("en")
    assert str(db) in german and "gesperrt" in german and "Es wurde nichts importiert" in german, german
    with RunStore.open(db) as store:
        assert store.list_runs() == []
        assert import_trace(store, FIXTURE).run_ids  # free again: the same file imports


@pytest.mark.parametrize("language, said", [
    ("en", "can only be read (the file, its folder or its disk is read-only). Nothing was imported. Make it "
           "writable, and import the file again."),
    ("de", "kann nur gelesen werden (die Datei, ihr Ordner oder ihr Datenträger ist schreibgeschützt). Es wurde "
           "nichts importiert. Machen Sie sie beschreibbar")])
def test_a_database_that_can_only_be_read_is_named_with_what_to_do(tmp_path: Path, language: str, said: str) -> None:
    """It said only SQLite's "(attempt to write a readonly database)", where `runs note` and `servers set` say
    what to do. The permissions are real (root runs the command without the power to pass them)."""
    import subprocess
    import sys

    from tests.support.cli_process import BOUND_BY_PERMISSIONS, ROOT

    db = tmp_path / "kept.db"
    RunStore.open(db).close()
    db.chmod(0o444)
    done = subprocess.run([*BOUND_BY_PERMISSIONS, sys.executable, "-m", "inspector", "--lang", language, "import",
                           str(FIXTURE), "--db", str(db)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1 and str(db) in done.stderr and said in done.stderr, done.stderr
    assert "readonly" not in done.stderr and done.stderr.count("\n") == 1
