"""SQLite's reasons in words of ours: a German sentence about the run database carries no SQLite English,
and the English (``--json``, stored sentences) stays SQLite's text byte for byte."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from inspector.i18n import set_language
from inspector.i18n.messages import shown_reason
from inspector.i18n.sqlite_reasons import _KNOWN, sqlite_reason
from inspector.store import RunStore, StoreError
from tests.unit.i18n.test_os_reasons import _said


def test_every_common_reason_has_german_words_and_keeps_its_english() -> None:
    for text in _KNOWN:
        reason = sqlite_reason(sqlite3.OperationalError(text))
        assert str(reason) == text == _said(reason, "en")
        assert _said(reason, "de") != text, text
    assert sqlite_reason(sqlite3.OperationalError("no such table: runz")) == "no such table: runz"


def test_a_file_that_is_not_a_database_is_refused_in_german_words(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("a text file, not SQLite\n" * 200)
    with pytest.raises(StoreError) as refused:
        RunStore.open(path)
    assert "(file is not a database)" in str(refused.value)
    said = _said(refused.value, "de")
    assert "(die Datei ist keine Datenbank)" in said and "file is not a database" not in said


def test_a_sqlite_error_and_a_store_error_fill_a_reason_in_the_language(tmp_path: Path) -> None:
    """What the window says of a run it could not store: the error itself, not its English."""
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        store.set_lock_wait(0)
        with pytest.raises(sqlite3.OperationalError) as locked:
            store.start_run("tools/call echo")
        holder.close()
    set_language("de")
    try:
        assert shown_reason(locked.value) == "die Datenbank ist gesperrt"
        with pytest.raises(StoreError) as refused:
            RunStore.open(tmp_path / "missing" / "runs.db")
        assert shown_reason(refused.value).startswith("Die Laufdatenbank ")
    finally:
        set_language("en")
