"""The window closing while the system keyring is slow, or never answers, in a process of its own
(offscreen, real SQLite, the real ``keyring`` backend ``TroubledKeyring`` found through
``PYTHON_KEYRING_BACKEND``): a secret saved just before closing is written, no keyring call is
left pending on a loop that ended ("Task was destroyed but it is pending!"), and a keyring that
never answers holds the quit for the bounded wait only, then what was not written is said."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from inspector.store import RunStore, ServerRegistry, resolve_db_path
from inspector.store.secrets import KeyringSecretKeeper
from tests.support.file_keyring import TROUBLE_ENV, TROUBLED_NAME, FileKeyring

URL = "http://127.0.0.1:9/mcp"

#: Opens the window, saves the server's secret anew once it has been read, and closes the window at once.
_SAVE_AND_CLOSE = """
import gc, sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from inspector.gui.main_window import MainWindow
from inspector.gui.settings import AppSettings
from inspector.i18n import set_language
from inspector.store import RunStore, resolve_db_path

set_language(sys.argv[2])
app = QApplication([])
store = RunStore.open(resolve_db_path())
window = MainWindow(store, resolve_db_path(), AppSettings())
window.show()

def save_and_close():
    if not window.admin.secrets.known(sys.argv[1]):
        QTimer.singleShot(20, save_and_close)
        return
    window.admin.save_server(sys.argv[1], "vault", None, {"X-Api-Key": "second"}, set())
    QTimer.singleShot(50, close)  # handed to the keyring's line, which is in its call

def close():
    started = time.monotonic()
    window.close()
    print(f"closed in {time.monotonic() - started:.1f} s", flush=True)

QTimer.singleShot(0, save_and_close)
app.exec()
store.close()
# What the worker's loop still ran when it ended: each such task is destroyed pending once let go.
left = [task for task in window.engine.worker.running if not task.done()]
print(f"left pending: {len(left)}", flush=True)
del left
window.engine.worker.running.clear()
gc.collect()
"""


def _close(monkeypatch: pytest.MonkeyPatch, trouble: str, language: str = "en",
           timeout_s: float = 90) -> tuple[subprocess.CompletedProcess[str], float]:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", TROUBLED_NAME)
    monkeypatch.setenv(TROUBLE_ENV, trouble)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", _SAVE_AND_CLOSE, URL, language], capture_output=True, text=True,
                          timeout=timeout_s)
    return done, time.monotonic() - started


@pytest.fixture
def kept(file_keyring: FileKeyring) -> FileKeyring:
    with RunStore.open(resolve_db_path()) as store:
        ServerRegistry(store.db, KeyringSecretKeeper()).save_server(URL, name="vault", headers={"X-Api-Key": "first"})
    assert file_keyring.entries() == {f"{URL} X-Api-Key": "first"}
    return file_keyring


def test_a_secret_saved_as_the_window_closes_is_written_and_nothing_is_left_pending(
        kept: FileKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each call takes 1.5 s: the save outlasts the worker's 1 s wind-down."""
    done, _took = _close(monkeypatch, "wait=1.5")
    assert done.returncode == 0, done.stderr
    assert "left pending: 0" in done.stdout, done.stdout
    assert "Task was destroyed" not in done.stderr and "pending" not in done.stderr, done.stderr
    assert "keyring" not in done.stderr, done.stderr
    assert kept.entries() == {f"{URL} X-Api-Key": "second"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_keyring_that_never_answers_holds_the_quit_only_for_the_bounded_wait(
        kept: FileKeyring, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """The save never ends (an unlock prompt nobody answers): it is not written, and the quit says so
    after its bounded wait (5 s) rather than hanging forever."""
    from inspector.gui.workbench.keyring_line import CLOSE_BOUND_S

    done, took = _close(monkeypatch, "wait.set=3600", language)
    assert done.returncode == 0, done.stderr
    closed_in = float(done.stdout.split("closed in ")[1].split()[0])
    assert CLOSE_BOUND_S - 0.5 <= closed_in <= CLOSE_BOUND_S + 3, done.stdout
    said = {"en": "run-inspector: When Run Inspector quit, the system keyring had not written the secret X-Api-Key "
                  "of vault (no answer within 5 s): it may be as it was before. Unlock the keyring and save it again.",
            "de": "run-inspector: Als Run Inspector beendet wurde, hatte der System-Schlüsselbund das Geheimnis "
                  "X-Api-Key von vault nicht geschrieben (keine Antwort innerhalb von 5 s): Der Wert ist vielleicht "
                  "noch wie zuvor. Entsperren Sie den Schlüsselbund und speichern Sie ihn erneut."}[language]
    assert said in done.stderr, done.stderr
    assert "Task was destroyed" not in done.stderr, done.stderr
    assert took < 60, took
    assert kept.entries() == {f"{URL} X-Api-Key": "first"}


def test_the_keyring_thread_ends_with_the_window(qtbot, file_keyring) -> None:
    """Each window's line to the keyring ends when the window closes (a process that opens windows
    one after another does not gather idle threads)."""
    import threading

    from inspector.gui.main_window import MainWindow
    from inspector.gui.settings import AppSettings

    def lines() -> int:
        return sum(thread.name == "run-inspector-keyring" for thread in threading.enumerate())

    with RunStore.open(resolve_db_path()) as store:
        ServerRegistry(store.db, KeyringSecretKeeper()).save_server(URL, name="vault", headers={"X-Api-Key": "k"})
        before = lines()
        made = MainWindow(store, resolve_db_path(), AppSettings())
        qtbot.addWidget(made)
        made.show()
        qtbot.waitUntil(lambda: made.admin.secrets.known(URL), timeout=10000)
        assert lines() == before + 1
        made.shut_down()
        qtbot.waitUntil(lambda: lines() == before, timeout=5000)
