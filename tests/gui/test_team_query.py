"""A query in the team collector's address (``http://host:4318/v1/traces?api_key=KEY``, a collector taking its
key there): the window sent it, but wrote it into the settings file in clear. It is now kept as a secret beside
the secret push headers (the keyring's, or this session's without one), sent on every request, never written
to the settings file or the run database."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.language import switch_language
from inspector.gui.settings import AppSettings
from inspector.gui.team_settings import TeamSettings
from inspector.store import RunStore, resolve_db_path
from inspector.store.secrets import NoSecretKeeper
from tests.gui.test_screenshots import save
from tests.support.otlp_collector import running_collector

KEY = "api_key=key-3f9a1c07e5"


def _dialog(qtbot, settings: AppSettings) -> SettingsDialog:
    dialog = SettingsDialog(settings, "/tmp/runs.db", secrets=NoSecretKeeper())
    qtbot.addWidget(dialog)
    return dialog


def test_a_query_in_the_collectors_address_is_kept_as_a_secret_not_text_in_the_settings_file(
        qtbot, _isolated_settings) -> None:
    settings = AppSettings()
    dialog = _dialog(qtbot, settings)
    dialog.team.push.setChecked(True)
    dialog.team.endpoint.setText(f"http://127.0.0.1:4318/v1/traces?{KEY}")
    dialog.show()
    dialog.accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    settings.sync()
    assert "key-3f9a1c07e5" not in _isolated_settings.read_text()
    assert dialog.team.url_query.row.isVisibleTo(dialog)  # "The query was taken out of the address: …"
    kept = TeamSettings(settings.qsettings, NoSecretKeeper())
    assert kept.push_endpoint == "http://127.0.0.1:4318/v1/traces"
    assert kept.push_setting().endpoint == f"http://127.0.0.1:4318/v1/traces?{KEY}"  # this session: no keyring
    again = _dialog(qtbot, settings)  # opened again: the address without it, the note saying it is kept
    assert again.team.endpoint.text() == "http://127.0.0.1:4318/v1/traces"
    again.show()
    again.team.grow()
    assert again.team.url_query.row.isVisibleTo(again)
    save(again, "settings-team-query")
    switch_language("de")
    try:
        save(again, "settings-team-query-de")
    finally:
        switch_language("en")
    again.team.url_query.forget.click()
    again.accept()
    kept = TeamSettings(settings.qsettings, NoSecretKeeper())
    assert not kept.push_query_kept and kept.push_setting().endpoint == "http://127.0.0.1:4318/v1/traces"


def test_an_address_saved_with_its_query_before_is_shown_without_it_and_saved_without_it(
        qtbot, _isolated_settings) -> None:
    settings = AppSettings()
    settings.qsettings.setValue("team/push_endpoint", f"http://127.0.0.1:4318?{KEY}")  # as earlier versions wrote
    dialog = _dialog(qtbot, settings)
    assert dialog.team.endpoint.text() == "http://127.0.0.1:4318"
    dialog.accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    settings.sync()
    assert "key-3f9a1c07e5" not in _isolated_settings.read_text()
    assert TeamSettings(settings.qsettings, NoSecretKeeper()).push_setting().endpoint == f"http://127.0.0.1:4318?{KEY}"


def test_the_window_sends_the_kept_query_and_never_stores_it(qtbot, make_window, tmp_path) -> None:
    with running_collector() as collector:
        team = TeamSettings(AppSettings().qsettings, NoSecretKeeper())
        team.save_push(True, collector.endpoint, [], KEY)
        team.qsettings.sync()
        window = make_window(wait_tools=False)
        qtbot.waitUntil(lambda: window.team.push.running, timeout=5000)
        with RunStore.open(resolve_db_path()) as store:
            run_id = store.start_run("pushed with the key", "live")
            store.finish_run(run_id, "ok")
        window.team.push.wake()
        qtbot.waitUntil(lambda: len(collector.requests) == 1, timeout=10000)
        window.shut_down()
    assert collector.paths_seen == [f"/v1/traces?{KEY}"]
    with RunStore.open(resolve_db_path()) as store:
        assert [row[0] for row in store.db.conn.execute("SELECT endpoint FROM outbox")] == [
            f"{collector.endpoint}/v1/traces"]
    stored = b"".join(path.read_bytes() for path in resolve_db_path().parent.glob(resolve_db_path().name + "*"))
    assert b"key-3f9a1c07e5" not in stored


def test_a_query_nothing_kept_is_not_left_off_the_requests(qtbot, make_window) -> None:
    """Without a system keyring the query is kept only until Run Inspector quits; after a restart the runs
    would go without the key and the collector would refuse each for good. Nothing is sent; the box says why."""
    with running_collector() as collector:
        qsettings = AppSettings().qsettings
        for name, value in (("team/push", True), ("team/push_endpoint", collector.endpoint + "/v1/traces"),
                            ("team/push_query", True)):  # as the settings are after a restart
            qsettings.setValue(name, value)
        qsettings.sync()
        window = make_window(wait_tools=False)
        keyring = window.admin.keyring
        qtbot.waitUntil(lambda: keyring.box is not None, timeout=10000)
        said = keyring.box.text()
        assert "the query of its address is not kept" in said and collector.endpoint in said, said
        with RunStore.open(resolve_db_path()) as store:
            store.finish_run(store.start_run("waits for its key", "live"), "ok")
        window.team.push.wake()
        QApplication.processEvents()
        qtbot.wait(300)
        assert not window.team.push.running and collector.hits == 0
