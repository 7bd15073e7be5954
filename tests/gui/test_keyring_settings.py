"""The secrets the settings keep in a slow or refusing system keyring: the team push headers' values
(File › Settings…) and the Play tab's model API key. The GUI thread never waits on the keyring
(a QTimer ticking every 20 ms misses no more than a few ticks while each keyring call takes 1.5 s),
and what the keyring refuses is said in the window's keyring box, in English and German.
Offscreen, real SQLite, the real ``keyring`` backend ``TroubledKeyring``."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.settings import AppSettings
from inspector.gui.team_settings import TeamSettings
from inspector.store.secrets import KeyringSecretKeeper
from tests.support.stall_meter import StallMeter

from .test_keyring_troubles import STALL_S, window  # noqa: F401 - the fixture

COLLECTOR = "http://127.0.0.1:9/v1/traces"
PUSH_ENTRY = f"otlp-push {COLLECTOR} Authorization"  # the keyring entry, as stored
MODEL_URL = "http://127.0.0.1:9/v1"
#: How long a keyring call queued behind the window's others may take here: they run in order, each
#: 1.5 s (the server's three secrets, its sign-in, then the one waited for: about 7.5 s on a quiet
#: machine; once 15 s was not enough beside the rest of the suite on 2 cores).
QUEUED_MS = 45_000


def _push_kept() -> None:
    team = TeamSettings(AppSettings().qsettings, KeyringSecretKeeper())
    team.save_push(True, COLLECTOR, [("Authorization", "Bearer team-secret", True)])
    team.qsettings.sync()


def _in_settings(act) -> dict:
    """Run ``act(dialog, seen)`` while the Settings dialog's exec() runs, then press OK."""
    from inspector.gui.dialogs.settings_dialog import SettingsDialog

    seen: dict = {}

    def step() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, SettingsDialog):
            QTimer.singleShot(20, step)
            return
        act(dialog, seen)
        dialog.accept()
        seen["accepted"] = dialog.result() == SettingsDialog.DialogCode.Accepted

    QTimer.singleShot(0, step)
    return seen


def test_the_settings_dialog_never_waits_on_a_slow_keyring(qtbot, window, file_keyring) -> None:  # noqa: F811
    _push_kept()
    made, troubled = window()
    qtbot.waitUntil(lambda: made.team.push.setting is not None, timeout=QUEUED_MS)  # read after the first paint
    assert made.team.push.setting.headers == {"Authorization": "Bearer team-secret"}

    def change(dialog, seen) -> None:
        [row] = dialog.team.header_rows
        seen["value"] = row.value.text()
        row.value.setText("Bearer new")

    meter = StallMeter().start()
    seen = _in_settings(change)
    made.open_settings()
    assert seen == {"value": "Bearer team-secret", "accepted": True}
    assert meter.stop() < STALL_S, meter.longest_s
    qtbot.waitUntil(lambda: file_keyring.entries().get(PUSH_ENTRY) == "Bearer new", timeout=QUEUED_MS)
    qtbot.waitUntil(lambda: made.team.push.setting.headers == {"Authorization": "Bearer new"}, timeout=5000)
    assert "MainThread" not in troubled.threads


def test_settings_opened_before_the_keyring_answers_keep_the_secret_it_keeps(qtbot, window,  # noqa: F811
                                                                            file_keyring) -> None:
    """The keyring would not give the push header's value: the row says so, and OK leaves the value
    in the keyring as it is (it was not saved empty); the box says no run is pushed until it gives it."""
    _push_kept()
    made, troubled = window(wait_s=0.1, get="KeyringLocked")
    troubled.made.clear()  # the window's calls from here on
    qtbot.waitUntil(lambda: made.admin.keyring.box is not None, timeout=10000)
    said = made.admin.keyring.box.text()
    assert said.startswith(f"The system keyring did not give the secrets of the team's collector {COLLECTOR} "
                           "(KeyringLocked: "), said
    assert made.team.push.setting is None  # not pushed without its headers

    def look(dialog, seen) -> None:
        [row] = dialog.team.header_rows
        seen["shown"] = (row.value.text(), row.value.placeholderText())

    seen = _in_settings(look)
    made.open_settings()
    assert seen == {"shown": ("", "not read from the keyring"), "accepted": True}
    qtbot.wait(500)
    assert file_keyring.entries()[PUSH_ENTRY] == "Bearer team-secret"
    assert "set" not in troubled.made


def _model_choices(made):
    from inspector.gui.play.choices import MODEL

    choices = made.play.room.choices  # built before the meter starts: the tab's own building
    choices.model_url.setText(MODEL_URL)
    choices.model_name.setText("m")
    choices.prompt.setText("say hello")
    return choices, MODEL


def test_the_play_tab_never_waits_on_a_slow_keyring_for_the_model_key(qtbot, window, file_keyring) -> None:  # noqa: F811
    from inspector.gui.play.model_settings import KEYRING_ENTRY, key_place

    place = key_place(MODEL_URL)
    assert KeyringSecretKeeper().save(place, KEYRING_ENTRY, "sk-kept")
    made, troubled = window()
    choices, model = _model_choices(made)
    meter = StallMeter().start()
    choices.choose(model)
    assert choices.api_key.placeholderText() == "being read from the keyring…"
    qtbot.waitUntil(lambda: choices.api_key.placeholderText() == "kept in the keyring", timeout=QUEUED_MS)
    assert meter.stop() < STALL_S, meter.longest_s
    assert choices.job().secrets.scrub_values("sk-kept") != "sk-kept"  # the key read, from memory
    meter = StallMeter().start()
    choices.api_key.setText("sk-new")
    choices.job()
    assert meter.stop() < STALL_S, meter.longest_s
    qtbot.waitUntil(lambda: file_keyring.entries().get(f"{place} {KEYRING_ENTRY}") == "sk-new", timeout=QUEUED_MS)
    assert "MainThread" not in troubled.threads


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshots_of_settings_secrets_the_keyring_did_not_keep(qtbot, window, file_keyring,  # noqa: F811
                                                                   language) -> None:
    """tests/gui/screenshots/keyring-push-not-kept-LANG.png and keyring-model-key-not-kept-LANG.png."""
    from inspector.gui.play.model_settings import key_place

    from .test_screenshots import save

    made, troubled = window(wait_s=0.1, set="KeyringLocked")
    switch_language(language)
    def add(dialog, seen) -> None:
        dialog.language.setCurrentIndex(dialog.language.findData(language))  # OK keeps the language shown
        dialog.team.endpoint.setText(COLLECTOR)
        dialog.team.add_header("Authorization", "Bearer b", True)

    seen = _in_settings(add)
    made.open_settings()
    assert seen["accepted"]
    qtbot.waitUntil(lambda: made.admin.keyring.box is not None, timeout=10000)
    said = {"en": "The system keyring did not keep the secret Authorization of the team's collector {server} "
                  "(KeyringLocked: the test keyring refuses to set (KeyringLocked)): it is sent only until Run "
                  "Inspector quits.",
            "de": "Der System-Schlüsselbund hat das Geheimnis Authorization des Collectors des Teams {server} nicht "
                  "behalten (KeyringLocked: the test keyring refuses to set (KeyringLocked)): Der Wert wird nur "
                  "gesendet, "
                  "bis Run Inspector beendet wird."}[language]
    assert made.admin.keyring.box.text().startswith(said.format(server=COLLECTOR)), made.admin.keyring.box.text()
    save(made.admin.keyring.box, f"keyring-push-not-kept-{language}")
    made.admin.keyring.box.close()
    qtbot.waitUntil(lambda: made.admin.keyring.box is None, timeout=5000)
    choices, model = _model_choices(made)
    choices.choose(model)
    choices.api_key.setText("sk-typed")
    job = choices.job()
    assert job.secrets.scrub_values("sk-typed") != "sk-typed"  # used this session
    qtbot.waitUntil(lambda: made.admin.keyring.box is not None, timeout=10000)
    said = {"en": f"The system keyring did not keep the API key of the model at {key_place(MODEL_URL)} "
                  "(KeyringLocked: the test keyring refuses to set (KeyringLocked)): it is used only until Run "
                  "Inspector quits. Unlock the keyring and type the key again to keep it.",
            "de": f"Der System-Schlüsselbund hat den API-Schlüssel des Modells unter {key_place(MODEL_URL)} nicht "
                  "behalten (KeyringLocked: the test keyring refuses to set (KeyringLocked)): Er wird nur verwendet, "
                  "bis Run Inspector beendet wird. Entsperren Sie den Schlüsselbund und geben Sie den Schlüssel "
                  "erneut ein, um ihn zu behalten."}[language]
    assert made.admin.keyring.box.text() == said
    save(made.admin.keyring.box, f"keyring-model-key-not-kept-{language}")
    assert not any(entry.startswith(("otlp-push", key_place(MODEL_URL))) for entry in file_keyring.entries())


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshots_of_settings_secrets_the_keyring_would_not_give(qtbot, window, file_keyring,  # noqa: F811
                                                                    language) -> None:
    """tests/gui/screenshots/keyring-push-unreadable-LANG.png (the box), keyring-push-unread-row-LANG.png
    (the Settings dialog's row) and keyring-model-key-unreadable-LANG.png (the Play tab's key field)."""
    from inspector.gui.play.model_settings import KEYRING_ENTRY, key_place

    from .test_screenshots import save

    _push_kept()
    assert KeyringSecretKeeper().save(key_place(MODEL_URL), KEYRING_ENTRY, "sk-kept")
    switch_language(language)
    made, troubled = window(wait_s=0.1, get="KeyringLocked")
    qtbot.waitUntil(lambda: made.admin.keyring.box is not None
                    and COLLECTOR in made.admin.keyring.box.text(), timeout=10000)
    save(made.admin.keyring.box, f"keyring-push-unreadable-{language}")

    def shoot(dialog, seen) -> None:
        dialog.language.setCurrentIndex(dialog.language.findData(language))
        QApplication.processEvents()
        seen["placeholder"] = dialog.team.header_rows[0].value.placeholderText()
        save(dialog.team, f"keyring-push-unread-row-{language}")

    seen = _in_settings(shoot)
    made.open_settings()
    assert seen["placeholder"] == {"en": "not read from the keyring",
                                   "de": "nicht aus dem Schlüsselbund gelesen"}[language]
    choices, model = _model_choices(made)
    choices.choose(model)
    unreadable = {"en": "kept in the keyring, which would not give it",
                  "de": "im Schlüsselbund verwahrt, der ihn nicht herausgibt"}[language]
    qtbot.waitUntil(lambda: choices.api_key.placeholderText() == unreadable, timeout=10000)
    save(choices, f"keyring-model-key-unreadable-{language}")
    with pytest.raises(Exception) as refused:
        choices.job()
    assert str(refused.value).startswith({"en": "The system keyring did not give the API key of the model at",
                                          "de": "Der System-Schlüsselbund hat den API-Schlüssel des Modells"}[language])


def test_play_pressed_while_the_model_key_is_read_plays_once_it_is(qtbot, window, file_keyring) -> None:  # noqa: F811
    """Play pressed before the slow keyring gave the key kept for the model: said, and the run starts
    with the key once it is read (it was not sent without it, nor was Play to be pressed again)."""
    from inspector.gui.play.model_settings import KEYRING_ENTRY, key_place
    from tests.support.asgi_server import serve_asgi
    from tests.support.fake_chat_model import FakeChatModel, answer

    fake = FakeChatModel(lambda body: answer("Nothing to do."))
    with serve_asgi(fake.app(), path="/v1") as model_url:
        assert KeyringSecretKeeper().save(key_place(model_url), KEYRING_ENTRY, "sk-kept")
        made, troubled = window()
        choices, model = _model_choices(made)
        choices.model_url.setText(model_url)
        choices.choose(model)
        room = made.play.room
        assert room.play() is None and room.run is None
        assert room.status.text() == (f"The API key of the model at {key_place(model_url)} is being read from the "
                                      "system keyring; the run starts once it is read.")
        qtbot.waitUntil(lambda: room.run is not None, timeout=15000)
        qtbot.waitUntil(lambda: not room.playing, timeout=60000)
    assert [headers["authorization"] for headers in fake.headers] == ["Bearer sk-kept"]
