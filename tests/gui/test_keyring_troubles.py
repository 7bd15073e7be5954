"""A system keyring that is slow, locked or refusing, in the window (offscreen, real SQLite, a real
``keyring`` backend: tests/support/file_keyring.py ``TroubledKeyring``).

The GUI thread never waits on it: a QTimer ticking every 20 ms (tests/support/stall_meter.py) never
misses more than a few ticks while every keyring call takes 1.5 s, at start, on Edit… and OK, and on
Remove. What the keyring refuses is said, naming its answer, and nothing is lost: a secret it did
not keep is still sent this session, one it did not remove is said to be still there, and Edit… of
a server whose secrets it would not give does not open (OK would have saved them empty).
"""

from __future__ import annotations

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from inspector.store.secrets import KeyringSecretKeeper
from tests.support.file_keyring import TroubledKeyring
from tests.support.stall_meter import StallMeter

from .test_server_dialog_signin import in_dialog

URL = "http://127.0.0.1:9/mcp"
WAIT_S = 1.5
#: The longest the GUI thread may be kept from its events: below one troubled keyring call (WAIT_S), so a
#: call made on it fails; generous, as a loaded machine needs (0.56 s once at load 4 beside other work).
STALL_S = 1.0
#: The longest wait from before the window is built (its building included; three reads took 4.5 s).
START_S = 1.0
KEPT = {f"{URL} X-Api-Key": "k3y", f"{URL} Authorization": "Bearer b", f"{URL} ?query": "key=q"}


@pytest.fixture
def window(qtbot, file_keyring):
    """The window on one server whose two secret headers and query the keyring keeps; the keyring
    then turns troubled (``troubled.wait_s`` and ``troubled.refuse`` set by the test)."""
    from inspector.gui.main_window import MainWindow
    from inspector.gui.settings import AppSettings

    store = RunStore.open(resolve_db_path())
    ServerRegistry(store.db, KeyringSecretKeeper()).save_server(
        URL, name="vault", headers={"X-Api-Key": "k3y", "Authorization": "Bearer b"}, query="key=q")
    assert file_keyring.entries() == KEPT
    troubled = TroubledKeyring(file_keyring.path, wait_s=0)
    keyring.set_keyring(troubled)
    opened = []

    def make(wait_s: float = WAIT_S, **refuse: str):
        troubled.wait_s, troubled.refuse = wait_s, refuse
        troubled.threads.clear()  # the window's calls from here on
        made = MainWindow(store, resolve_db_path(), AppSettings())
        opened.append(made)
        qtbot.addWidget(made)
        made.show()
        qtbot.waitExposed(made)
        return made, troubled

    yield make
    for made in opened:
        made.shut_down()
    store.close()
    switch_language("en")


def _headers(window) -> dict[str, str] | None:
    try:
        endpoint = window.admin.endpoint_for(window.admin.current())
    except ValueError:
        return None
    return dict(endpoint.headers)


def test_a_slow_keyring_never_holds_the_window(qtbot, window, file_keyring) -> None:
    meter = StallMeter().start()
    made, troubled = window()
    opened = StallMeter().start()  # from the first paint on (its own work included)
    qtbot.waitUntil(lambda: _headers(made) == {"X-Api-Key": "k3y", "Authorization": "Bearer b"}, timeout=15000)
    assert made.admin.endpoint_for(made.admin.current()).url == f"{URL}?key=q"
    assert opened.stop() < START_S, opened.longest_s
    # From before the window is built: building it takes a few tenths of a second of its own.
    assert meter.stop() < START_S, meter.longest_s
    assert troubled.calls >= 3 and "MainThread" not in troubled.threads

    meter = StallMeter().start()

    def rename(dialog, seen) -> bool:
        seen["values"] = [row.value.text() for row in dialog.header_rows]
        dialog.header_rows[0].name.setText("X-Key")  # one secret renamed: one saved, one removed
        return True

    seen = in_dialog(rename)
    made.admin.edit_current()
    assert seen.get("accepted"), seen
    assert seen["values"] == ["k3y", "Bearer b"]
    qtbot.waitUntil(lambda: f"{URL} X-Key" in file_keyring.entries() and f"{URL} X-Api-Key" not in
                    file_keyring.entries(), timeout=20000)
    assert meter.stop() < STALL_S, meter.longest_s

    meter = StallMeter().start()
    made.admin.forget_server(URL)
    qtbot.waitUntil(lambda: file_keyring.entries() == {}, timeout=20000)
    assert meter.stop() < STALL_S, meter.longest_s
    assert "MainThread" not in troubled.threads


@pytest.mark.parametrize("error", ["KeyringLocked", "PasswordSetError"])
def test_a_secret_the_keyring_does_not_keep_is_said_and_still_sent_this_session(qtbot, window, file_keyring,
                                                                                  error) -> None:
    made, troubled = window(wait_s=0.2, set=error)
    qtbot.waitUntil(lambda: _headers(made) is not None, timeout=10000)
    made.admin.save_server(URL, "vault", None, {"X-Api-Key": "n3w", "Authorization": "Bearer b"}, set(),
                           query="key=q")
    qtbot.waitUntil(lambda: "did not keep" in made.status.text(), timeout=10000)
    said = made.status.text()
    assert said.startswith("The system keyring did not keep the secrets X-Api-Key, Authorization and the query "
                           "in the address of vault ("
                           f"{error}: the test keyring refuses to set ({error})): they are used only until Run "
                           "Inspector quits."), said
    assert _headers(made) == {"X-Api-Key": "n3w", "Authorization": "Bearer b"}  # this session, as typed
    assert file_keyring.entries() == KEPT  # the keyring kept what it had


def test_a_secret_the_keyring_does_not_remove_is_said_to_be_still_there(qtbot, window, file_keyring) -> None:
    made, troubled = window(wait_s=0.2, delete="PasswordDeleteError")
    switch_language("de")
    made.admin.forget_server(URL)
    qtbot.waitUntil(lambda: "Schlüsselbund" in made.status.text(), timeout=10000)
    said = made.status.text()
    assert said.startswith("Der System-Schlüsselbund hat die Geheimnisse Authorization, X-Api-Key und die Abfrage "
                           "in der Adresse von vault nicht entfernt (PasswordDeleteError: "), said
    assert f"“{URL} X-Api-Key”" in said and "run-inspector" in said
    assert file_keyring.entries() == KEPT and ServerRegistry(made.store.db).all() == []


def test_secrets_the_keyring_will_not_give_are_said_and_edit_does_not_empty_them(qtbot, window,
                                                                                 file_keyring) -> None:
    made, troubled = window(wait_s=0.2, get="KeyringLocked")
    qtbot.waitUntil(lambda: "did not give" in made.status.text(), timeout=10000)
    assert made.status.text() == ("The system keyring did not give the secrets of vault (KeyringLocked: the test "
                                  "keyring refuses to get (KeyringLocked)). Unlock the keyring, then select the "
                                  "server again.")
    assert made.workbench.tools.model.rowCount() == 0 and _headers(made) is None  # not called without them
    made.status.setText("")
    made.admin.edit_current()
    qtbot.wait(500)
    # No dialog, whose OK would have saved them empty: the sentence again.
    assert QApplication.activeModalWidget() is None and "did not give" in made.status.text()
    troubled.refuse = {}  # unlocked: selecting the server again reads them
    made.admin.reload_servers(select_url=URL)
    made.servers.server_selected.emit(made.admin.current())
    qtbot.waitUntil(lambda: _headers(made) == {"X-Api-Key": "k3y", "Authorization": "Bearer b"}, timeout=10000)
    assert file_keyring.entries() == KEPT


def test_what_the_keyring_refused_names_the_demo_entry_in_the_language_shown(qtbot, window) -> None:
    """The window's demo entry is stored as "Demo server" in every language: the keyring's sentences said those words
    in the German window, where the rest of it says "Demo-Server"; said again after a switch, in the language switched
    to."""
    from inspector.i18n.entry_names import know_window_entry

    said = {"de": "Der System-Schlüsselbund hat die Geheimnisse von Demo-Server nicht herausgegeben",
            "en": "The system keyring did not give the secrets of Demo server (KeyringLocked"}
    with RunStore.open(resolve_db_path()) as store, store.db.conn:
        store.db.conn.execute("UPDATE servers SET name = 'Demo server'")
    made, _troubled = window(wait_s=0.1, get="KeyringLocked")
    know_window_entry(URL)  # the window's demo entry, as its demo service says it
    switch_language("de")
    made.admin.reload_servers(select_url=URL)
    made.servers.server_selected.emit(made.admin.current())  # selected again: the sentence again
    qtbot.waitUntil(lambda: made.workbench.tools.state.text().startswith(said["de"]), timeout=10000)
    for language in ("en", "de"):
        switch_language(language)  # the sentences shown are said again: in the Tools list and the Server log
        assert made.workbench.tools.state.text().startswith(said[language])
        assert made.log_dock.view.state.text().startswith(said[language])
        made.status.setText("")
        made.admin.edit_current()  # its secrets are asked for again: the sentence again
        qtbot.waitUntil(lambda language=language: made.status.text().startswith(said[language]), timeout=10000)


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshots_of_what_the_window_says_of_a_refusing_keyring(qtbot, window, file_keyring, language) -> None:
    """tests/gui/screenshots/keyring-{unreadable,not-kept,not-removed}-LANG.png, to look at."""
    from .test_screenshots import save

    made, troubled = window(wait_s=0.1, get="KeyringLocked", set="KeyringLocked", delete="KeyringLocked")
    switch_language(language)
    made.admin.reload_servers(select_url=URL)
    made.servers.server_selected.emit(made.admin.current())
    qtbot.waitUntil(lambda: "KeyringLocked" in made.status.text(), timeout=10000)
    save(made, f"keyring-unreadable-{language}")
    made.admin.save_server(URL, "vault", None, {"X-Api-Key": "n3w", "Authorization": "Bearer b"}, set(),
                           query="key=q")
    qtbot.waitUntil(lambda: "X-Api-Key" in made.status.text(), timeout=10000)
    save(made.admin.keyring.box, f"keyring-not-kept-{language}")
    made.admin.forget_server(URL)
    qtbot.waitUntil(lambda: "run-inspector" in made.status.text(), timeout=10000)
    save(made.admin.keyring.box, f"keyring-not-removed-{language}")
    assert file_keyring.entries() == KEPT


def test_finding_a_slow_keyring_does_not_hold_edit(qtbot, window, file_keyring, monkeypatch) -> None:
    """Finding the keyring can wait too (the Secret Service asks D-Bus): Edit… of a server with a
    sign-in does not look for it on the GUI thread while the worker still does."""
    from tests.support.file_keyring import TROUBLE_ENV

    monkeypatch.setenv(TROUBLE_ENV, f"find={2 * WAIT_S}")
    TroubledKeyring.found_by.clear()
    made, troubled = window(wait_s=0)
    qtbot.waitUntil(lambda: made._runs.built, timeout=5000)  # what the first paint left for later is done
    meter = StallMeter().start()
    seen = in_dialog(lambda dialog, seen: seen.setdefault("signin", dialog.signin is not None) and False)
    made.admin.edit_current()
    qtbot.waitUntil(lambda: "signin" in seen, timeout=15000)
    assert meter.stop() < STALL_S, meter.longest_s
    assert "MainThread" not in TroubledKeyring.found_by


def test_the_team_push_headers_are_read_from_a_slow_keyring_off_the_gui_thread(qtbot, window, file_keyring) -> None:
    """The window's first paint starts the push worker with the team's push headers, whose secret
    values are in the keyring: read on the worker, the push worker starts with them."""
    from inspector.gui.settings import AppSettings
    from inspector.gui.team_settings import TeamSettings

    team = TeamSettings(AppSettings().qsettings, KeyringSecretKeeper())
    team.save_push(True, "http://127.0.0.1:9/v1/traces", [("Authorization", "Bearer team-secret", True)])
    team.qsettings.sync()
    meter = StallMeter().start()
    made, troubled = window()
    opened = StallMeter().start()
    qtbot.waitUntil(lambda: made.team.push.setting is not None, timeout=15000)
    assert made.team.push.setting.headers == {"Authorization": "Bearer team-secret"}
    assert opened.stop() < START_S, opened.longest_s  # the first paint's own work included
    assert meter.stop() < START_S, meter.longest_s
    assert "MainThread" not in troubled.threads


def test_without_any_keyring_a_saved_secret_lasts_the_session_and_no_refusal_is_said(qtbot, make_window) -> None:
    """No keyring at all (keyring's fail backend, the tests' default) is not a refusal: the window
    keeps the value for the session, as the dialog says, and shows no box."""
    from inspector.gui.main_window import MainWindow
    from inspector.gui.settings import AppSettings

    assert isinstance(keyring.get_keyring(), fail.Keyring)
    with RunStore.open(resolve_db_path()) as store:
        made = MainWindow(store, resolve_db_path(), AppSettings())  # the system's keeper: it finds none
        qtbot.addWidget(made)
        made.show()
        qtbot.waitExposed(made)
        try:
            made.admin.save_server(URL, "vault", None, {"X-Api-Key": "k3y"}, set())
            qtbot.waitUntil(lambda: not made.admin.secrets.available, timeout=5000)  # found none, on the worker
            assert _headers(made) == {"X-Api-Key": "k3y"}
            qtbot.wait(200)
            assert made.admin.keyring.box is None and "keyring" not in made.status.text()
        finally:
            made.shut_down()


def test_secrets_saved_just_before_the_window_closes_are_kept(qtbot, window, file_keyring) -> None:
    """The worker waits on a slow keyring for one save when the window closes; the save after it,
    which the worker never began, is made at close: nothing saved is lost."""
    made, troubled = window()
    qtbot.waitUntil(lambda: _headers(made) is not None, timeout=15000)
    made.admin.save_server(URL, "vault", None, {"X-Api-Key": "first", "Authorization": "Bearer b"}, set(),
                           query="key=q")
    qtbot.waitUntil(lambda: "set" in troubled.made, timeout=5000)  # the first save is in the keyring's hands
    made.admin.save_server(URL, "vault", None, {"X-Api-Key": "second", "Authorization": "Bearer b"}, set(),
                           query="key=q")
    qtbot.wait(50)  # handed to the worker, which still waits on the first
    made.shut_down()
    troubled.wait_s = 0
    qtbot.waitUntil(lambda: file_keyring.entries().get(f"{URL} X-Api-Key") == "second", timeout=15000)


def test_the_server_log_says_the_secrets_are_being_read_not_that_no_server_is_selected(qtbot, window) -> None:
    """While the selected server's secrets are read from a slow keyring the Server log says so, in the
    language shown (it said 'Not listening: no server selected.' with the server selected); then it listens."""
    made, troubled = window(wait_s=1.0)
    state = made.log_dock.view.state
    assert made.admin.current() is not None and _headers(made) is None
    # Said once the read takes longer than half a second (the server is being connected to before).
    qtbot.waitUntil(lambda: state.text() == "Reading the secrets of vault from the system keyring…", timeout=5000)
    assert _headers(made) is None
    switch_language("de")
    assert state.text() == "Die Geheimnisse von vault werden aus dem System-Schlüsselbund gelesen…"
    qtbot.waitUntil(lambda: _headers(made) is not None, timeout=15000)
    qtbot.waitUntil(lambda: "vault" in state.text() and "Schlüsselbund" not in state.text(), timeout=10000)
    assert "Server ausgewählt" not in state.text(), state.text()


class _Shown:
    """What the open windows' Tools list, status line and Server log say, looked at on every turn of
    the event loop (what a frame can show) from before a window is built."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.texts: list[str] = []
        self._timer = QTimer()
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.look)
        self._timer.start()

    def look(self) -> None:
        from inspector.gui.main_window import MainWindow

        for made in QApplication.topLevelWidgets():
            if isinstance(made, MainWindow) and not made.admin.closed:
                for text in (made.workbench.tools.state.text(), made.status.text(), made.log_dock.view.state.text()):
                    if not self.texts or self.texts[-1] != text:
                        self.texts.append(text)

    def stop(self) -> list[str]:
        self.look()
        self._timer.stop()
        return self.texts


def test_a_start_with_an_instant_keyring_never_says_the_secrets_are_being_read(qtbot, window) -> None:
    """An instant keyring's read (~30 ms at every start) flashed 'Reading the secrets of vault from the
    system keyring…' in the Tools list, the status line and the Server log: now the server is being
    connected to, as before there was a keyring line, and then its tools are listed."""
    shown = _Shown()
    made, troubled = window(wait_s=0)
    shown.look()
    qtbot.waitUntil(lambda: _headers(made) is not None, timeout=10000)
    qtbot.waitUntil(lambda: "could not be loaded" in made.workbench.tools.state.text(), timeout=15000)
    texts = shown.stop()
    assert not [text for text in texts if "keyring" in text], texts
    assert "Connecting to vault…" in texts, texts


def test_a_slow_keyring_still_says_the_secrets_are_being_read(qtbot, window) -> None:
    """A read that takes 1.5 s is said after half a second, in the Tools list and the status line; the
    server is said to be connected to before."""
    from inspector.gui.workbench.window_secrets import SLOW_READ_S

    from .test_screenshots import save

    shown = _Shown()
    made, troubled = window(wait_s=WAIT_S)
    reading = "Reading the secrets of vault from the system keyring…"
    qtbot.waitUntil(lambda: made.workbench.tools.state.text() == reading, timeout=5000)
    assert made.status.text() == reading and made.log_dock.view.state.text() == reading
    save(made, "keyring-slow-read-en")  # tests/gui/screenshots/, to look at
    switch_language("de")
    save(made, "keyring-slow-read-de")
    switch_language("en")
    qtbot.waitUntil(lambda: _headers(made) is not None, timeout=15000)
    texts = shown.stop()
    assert texts.index("Connecting to vault…") < texts.index(reading), texts
    assert SLOW_READ_S <= 0.5


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_secret_too_long_for_the_keyring_is_said_so_not_to_unlock_it(qtbot, window, file_keyring,
                                                                       language) -> None:
    """A value over the 65,536 characters an entry holds was said as a refusal ('did not keep ... (longer than
    65536 characters) ... Unlock the keyring'): no unlocking helps, and the German sentence held English."""
    made, _troubled = window(wait_s=0)
    switch_language(language)
    qtbot.waitUntil(lambda: _headers(made) is not None, timeout=10000)
    said: list[str] = []  # the status line may say something else by the time it is read
    made.admin.secrets.refused.connect(said.append)
    made.admin.save_server(URL, "vault", None, {"X-Api-Key": "k" * 70_000, "Authorization": "Bearer b"}, set(),
                           query="key=q")
    words = {"en": "The system keyring cannot keep the secret X-Api-Key of vault: it is longer than the 65,536 "
                   "characters one entry holds, and is used only until Run Inspector quits. Check what was pasted",
             "de": "Der System-Schlüsselbund kann das Geheimnis X-Api-Key von vault nicht behalten: Der Wert ist "
                   "länger als die 65.536 Zeichen, die ein Eintrag fasst, und wird nur verwendet, bis Run Inspector "
                   "beendet wird. Prüfen Sie, was eingefügt wurde"}[language]
    qtbot.waitUntil(lambda: bool(said), timeout=10000)
    assert said[0].startswith(words) and "nlock" not in said[0] and "ntsperren" not in said[0], said
    assert _headers(made)["X-Api-Key"] == "k" * 70_000  # this session, as typed
    assert file_keyring.entries()[f"{URL} X-Api-Key"] == "k3y"
