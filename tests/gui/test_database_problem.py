"""The window on a damaged or locked run database: a dialog at start-up that names the file and
offers the ways on, never a silent exit; a damaged file is moved aside, never deleted."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from inspector.gui.app import run_window
from inspector.gui.dialogs.database_dialog import DatabaseChoice, DatabaseProblemDialog
from inspector.gui.main_window import MainWindow
from inspector.store import RunStore, StoreError
from inspector.store.faults import DamagedDatabaseError, LockedDatabaseError, damaged, locked
from tests.integration.test_damaged_database import HOLDER, filled_database, scramble_pages


@pytest.fixture
def damaged_file(tmp_path: Path) -> Path:
    path = filled_database(tmp_path / "runs.db")
    scramble_pages(path)
    return path


def close_window_when_shown(seen: dict[str, object]) -> None:
    """Close the window once it shows, noting what its status line says."""
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    if windows:
        seen["status"] = windows[0].status.text()
        seen["db"] = windows[0].db_path
        windows[0].close()
    else:
        QTimer.singleShot(50, lambda: close_window_when_shown(seen))


class Chooser:
    """Answers the start-up's question as a user would, one answer per question, and keeps the questions."""

    def __init__(self, *answers: tuple[DatabaseChoice, Path | None]) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[StoreError, Path]] = []

    def __call__(self, problem: StoreError, path: Path) -> tuple[DatabaseChoice, Path | None]:
        self.asked.append((problem, path))
        return self.answers.pop(0)


def test_the_dialog_names_the_file_and_offers_moving_a_damaged_one_aside(qtbot, tmp_path) -> None:
    path = tmp_path / "runs.db"
    dialog = DatabaseProblemDialog(damaged(path, sqlite3.DatabaseError("database disk image is malformed")), path)
    qtbot.addWidget(dialog)
    assert str(path) in dialog.sentence.text().replace("\u200b", "") and "damaged" in dialog.sentence.text()
    assert dialog.sentence.textFormat() == Qt.TextFormat.PlainText
    assert list(dialog.buttons) == [DatabaseChoice.MOVE_ASIDE, DatabaseChoice.OTHER, DatabaseChoice.QUIT]
    dialog.show()
    with qtbot.waitSignal(dialog.accepted):
        qtbot.mouseClick(dialog.buttons[DatabaseChoice.MOVE_ASIDE], Qt.MouseButton.LeftButton)
    assert dialog.choice is DatabaseChoice.MOVE_ASIDE


def test_a_locked_database_offers_trying_again_and_closing_the_dialog_quits(qtbot, tmp_path) -> None:
    path = tmp_path / "runs.db"
    dialog = DatabaseProblemDialog(locked(path), path)
    qtbot.addWidget(dialog)
    assert list(dialog.buttons) == [DatabaseChoice.RETRY, DatabaseChoice.OTHER, DatabaseChoice.QUIT]
    assert "locked by another program" in dialog.sentence.text()
    dialog.show()
    with qtbot.waitSignal(dialog.rejected):
        dialog.close()
    assert dialog.choice is DatabaseChoice.QUIT


def test_scrambled_pages_ask_and_moving_aside_starts_a_fresh_database(qtbot, damaged_file: Path) -> None:
    before = damaged_file.read_bytes()
    chooser = Chooser((DatabaseChoice.MOVE_ASIDE, None))
    seen: dict[str, object] = {}
    QTimer.singleShot(50, lambda: close_window_when_shown(seen))
    assert run_window(str(damaged_file), choose=chooser) == 0
    ((problem, asked_for),) = chooser.asked
    assert isinstance(problem, DamagedDatabaseError) and asked_for == damaged_file
    (moved,) = damaged_file.parent.glob("runs.db.damaged-*[0-9]")
    assert moved.read_bytes() == before  # renamed, not deleted, not changed
    assert seen["db"] == damaged_file and str(moved) in str(seen["status"])
    with RunStore.open(damaged_file) as fresh:  # the window's own runs only (it lists the demo's tools)
        assert not [run for run in fresh.list_runs() if run.title.startswith("call echo")]
    names = [t.name for t in threading.enumerate()]
    assert not [n for n in names if n.startswith(("run-inspector-operations", "demo-server"))], names


def test_another_database_can_be_chosen_and_quitting_leaves_the_damaged_one(qtbot, damaged_file: Path,
                                                                            tmp_path: Path) -> None:
    other = tmp_path / "elsewhere" / "other.db"
    other.parent.mkdir()  # a file dialog offers existing folders only
    chooser = Chooser((DatabaseChoice.OTHER, None), (DatabaseChoice.OTHER, other))
    seen: dict[str, object] = {}
    QTimer.singleShot(50, lambda: close_window_when_shown(seen))
    assert run_window(str(damaged_file), choose=chooser) == 0
    assert len(chooser.asked) == 2 and seen["db"] == other and other.exists()
    assert [p.name for p in damaged_file.parent.glob("runs.db*")] == ["runs.db"]

    quitting = Chooser((DatabaseChoice.QUIT, None))
    assert run_window(str(damaged_file), choose=quitting) == 2
    assert len(quitting.asked) == 1 and damaged_file.exists()


@pytest.fixture
def held(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A database in the old rollback-journal mode (readers wait too), locked by another process."""
    path = tmp_path / "runs.db"
    RunStore.open(path).close()
    sqlite3.connect(path).execute("PRAGMA journal_mode=DELETE").connection.close()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    try:
        yield path, holder
    finally:
        if holder.poll() is None:
            holder.communicate(timeout=10)


def test_a_locked_database_asks_and_trying_again_after_the_lock_goes_opens_it(qtbot, held) -> None:
    path, holder = held
    asked: list[StoreError] = []

    def release_and_retry(problem: StoreError, asked_for: Path) -> tuple[DatabaseChoice, Path | None]:
        asked.append(problem)
        assert isinstance(problem, LockedDatabaseError) and asked_for == path
        holder.communicate(timeout=10)  # the other program ends: the lock goes
        return DatabaseChoice.RETRY, None

    seen: dict[str, object] = {}
    QTimer.singleShot(50, lambda: close_window_when_shown(seen))
    assert run_window(str(path), choose=release_and_retry) == 0
    assert len(asked) == 1 and seen["db"] == path


def scramble_index(path: Path, index: str) -> None:
    """Random bytes over the pages of one index: the database opens, and the damage shows only
    where that index is read (the runs list sorts by start time through ``runs_by_start``)."""
    with sqlite3.connect(path) as conn:
        pages = [page for (page,) in conn.execute("SELECT pageno FROM dbstat WHERE name = ?", (index,))]
    conn.close()
    assert pages
    with path.open("r+b") as file:
        for page in pages:
            file.seek((page - 1) * 4096)
            file.write(bytes(range(256)) * 16)


def test_damage_met_while_the_window_reads_the_database_asks_too(qtbot, tmp_path: Path) -> None:
    path = filled_database(tmp_path / "runs.db")
    scramble_index(path, "runs_by_start")
    RunStore.open(path).close()  # it opens: the damage is further in
    chooser = Chooser((DatabaseChoice.QUIT, None))
    assert run_window(str(path), choose=chooser) == 2
    ((problem, _path),) = chooser.asked
    assert isinstance(problem, DamagedDatabaseError) and "malformed" in str(problem)
    assert "Python override" not in str(problem)
    # The demo server the half-built window had started is stopped again.
    names = [t.name for t in threading.enumerate()]
    assert not [n for n in names if n.startswith(("run-inspector-operations", "demo-server"))], names


def test_a_database_that_can_only_be_read_asks_instead_of_ending_in_a_traceback(qtbot, tmp_path: Path,
                                                                                 monkeypatch) -> None:
    """A read-only file opens and is met at the window's first write (the demo server's entry): the
    window ended with sqlite3's "attempt to write a readonly database" traceback and no window."""
    from inspector.store.faults import ReadOnlyDatabaseError
    from tests.integration.test_cli_notes import stores_only_read

    path = tmp_path / "runs.db"
    RunStore.open(path).close()  # no server configured yet: the window's first start adds the demo's
    before = path.read_bytes()
    stores_only_read(monkeypatch)
    chooser = Chooser((DatabaseChoice.QUIT, None))
    assert run_window(str(path), choose=chooser) == 2
    ((problem, asked_for),) = chooser.asked
    assert isinstance(problem, ReadOnlyDatabaseError) and asked_for == path
    assert f"The run database {path} cannot be written" in str(problem)
    assert path.read_bytes() == before


def test_a_damaged_write_ahead_log_is_said_in_a_box_over_the_window(qtbot, tmp_path: Path) -> None:
    """The window opened on what SQLite could read of a damaged log and said nothing; the log's bytes were
    deleted with it. Now it is copied aside first and a box over the window says what was lost and where."""
    from tests.integration.test_damaged_wal import cut_short, left_in_the_log

    path = left_in_the_log(tmp_path)
    cut_short(Path(f"{path}-wal"))
    seen: dict[str, object] = {}
    tries = iter(range(200))

    def read_the_box() -> None:
        boxes = [w for w in QApplication.topLevelWidgets() if w.objectName() == "damaged-log" and w.isVisible()]
        if not boxes and next(tries, None) is not None:
            QTimer.singleShot(50, read_the_box)
            return
        if not boxes:  # none within 10 s: the window is closed all the same, and the test fails below
            QApplication.closeAllWindows()
            return
        seen["text"], seen["format"] = boxes[0].text(), boxes[0].textFormat()
        QApplication.closeAllWindows()

    QTimer.singleShot(0, read_the_box)
    assert run_window(str(path), language="en") == 0
    (kept,) = tmp_path.glob("runs.db-wal.damaged-*")
    assert seen["text"].startswith(f"The write-ahead log of the run database {path} was damaged: only ")
    assert str(kept) in seen["text"] and seen["format"] == Qt.TextFormat.PlainText


@pytest.mark.parametrize(("kind", "reason"), [("fifo", "it is a named pipe, not a regular file"),
                                              ("socket", "it is a socket, not a regular file")])
def test_a_run_database_in_the_settings_that_is_a_special_file_is_named_so(qtbot, tmp_path: Path, kind: str,
                                                                           reason: str, monkeypatch) -> None:
    """The Settings' run database at a named pipe or a socket (the commands refused it already): the window
    asked with SQLite's "disk I/O error" or "unable to open database file", and SQLite tried it; a device
    such as /dev/null it opened, making its log files beside it. Now the window names what is there."""
    import os
    import socket

    from inspector.gui.settings import AppSettings

    path = tmp_path / "runs.db"
    listening = socket.socket(socket.AF_UNIX)
    try:
        if kind == "fifo":
            os.mkfifo(path)
        else:
            listening.bind(str(path))
        AppSettings().database_path = str(path)
        monkeypatch.delenv("RUN_INSPECTOR_DB")  # which would win over the settings
        chooser = Chooser((DatabaseChoice.QUIT, None))
        assert run_window(None, choose=chooser) == 2
    finally:
        listening.close()
    ((problem, asked_for),) = chooser.asked
    assert asked_for == path
    assert str(problem) == (f"The run database {path} cannot be opened: {reason}. Choose another file with --db "
                            "or RUN_INSPECTOR_DB.")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("runs.db")] == ["runs.db"]  # nothing beside it


def test_a_run_database_in_the_settings_that_is_a_link_to_nowhere_is_named_so(qtbot, tmp_path: Path,
                                                                              monkeypatch) -> None:
    """The Settings' run database a link to a place whose folder is gone (a database moved away): the window
    asked with SQLite's "unable to open database file". Now it names the link and where it points."""
    from inspector.gui.settings import AppSettings

    path, target = tmp_path / "runs.db", tmp_path / "moved away" / "runs.db"
    path.symlink_to(target)
    AppSettings().database_path = str(path)
    monkeypatch.delenv("RUN_INSPECTOR_DB")  # which would win over the settings
    chooser = Chooser((DatabaseChoice.QUIT, None))
    assert run_window(None, choose=chooser) == 2
    ((problem, asked_for),) = chooser.asked
    assert asked_for == path
    assert str(problem) == (f"The run database {path} is a link to {target}, which does not exist, and its folder "
                            f"{target.parent} does not exist either. Correct the link, or name another file with --db "
                            "or RUN_INSPECTOR_DB.")
    dialog = DatabaseProblemDialog(problem, path, from_settings=True)
    qtbot.addWidget(dialog)
    assert f"is a link to {target}" in dialog.sentence.text().replace("\u200b", "")
    assert not target.parent.exists()


def answer_the_dialog_with_quit(seen: dict[str, str]) -> None:
    """Note what the start-up's database dialog says once it shows (its note on the settings, if any), then Quit."""
    dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, DatabaseProblemDialog) and w.isVisible()]
    if not dialogs:
        QTimer.singleShot(50, lambda: answer_the_dialog_with_quit(seen))
        return
    from PySide6.QtWidgets import QLabel

    note = dialogs[0].findChild(QLabel, "from-settings")
    seen["note"] = note.text() if note is not None else ""
    dialogs[0].buttons[DatabaseChoice.QUIT].click()


@pytest.mark.parametrize("from_settings", [True, False])
def test_a_run_database_of_the_settings_that_cannot_be_used_says_where_it_is_changed(
        qtbot, tmp_path: Path, monkeypatch, from_settings: bool) -> None:
    """The Settings' run database a folder: the dialog said "Choose another file with --db or
    RUN_INSPECTOR_DB", which the settings' choice does not come from, and every start asked again. It
    now says the file is the one chosen in File › Settings…; --db's own (or the variable's) is not."""
    from inspector.gui.settings import AppSettings

    folder = tmp_path / "a folder"
    folder.mkdir()
    if from_settings:
        AppSettings().database_path = str(folder)
        monkeypatch.delenv("RUN_INSPECTOR_DB")  # which would win over the settings
    else:
        monkeypatch.setenv("RUN_INSPECTOR_DB", str(folder))
    seen: dict[str, str] = {}
    QTimer.singleShot(50, lambda: answer_the_dialog_with_quit(seen))
    assert run_window(None) == 2
    assert ("File › Settings…" in seen["note"]) is from_settings, seen
