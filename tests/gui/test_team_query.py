"""A query in the team collector's address (``http://host:4318/v1/traces?api_key=KEY``, a collector taking its
key there) or in the trace query service's (``http://jaeger:16686/?token=KEY``, a gateway's): the window sent
it, but wrote it into the settings file in clear. It is now kept as a secret (the keyring's, or this session's
without one), sent on every request, never written to the settings file or the run database."""

from __future__ import annotations

import json

import keyring
from PySide6.QtWidgets import QApplication

from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.language import switch_language
from inspector.gui.runs.trace_by_id import TraceByIdDialog
from inspector.gui.settings import AppSettings
from inspector.gui.team_settings import TeamSettings
from inspector.store import RunStore, resolve_db_path
from inspector.store.keyring_words import TRACE_QUERY_KEY
from inspector.store.secrets import KeyringSecretKeeper, NoSecretKeeper
from tests.gui.test_screenshots import save
from tests.support.file_keyring import RefusingEntries
from tests.support.otlp_collector import running_collector
from tests.support.trace_backends import fixture_trace, fixture_trace_ids, trace_backend

from .test_keyring_troubles import window  # noqa: F401 - the fixture

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


def test_a_query_the_keyring_has_not_given_is_not_lost_to_a_new_address(qtbot, _isolated_settings) -> None:
    settings = AppSettings()
    for name, value in (("team/push", True), ("team/push_endpoint", "http://127.0.0.1:4327"),
                        ("team/push_query", True)):  # its value not given (kept under the old address)
        settings.qsettings.setValue(name, value)
    dialog = _dialog(qtbot, settings)
    assert dialog.team.url_query.query == ""  # kept, its value not known here
    dialog.team.endpoint.setText("http://127.0.0.1:4328")
    assert not dialog.team.save()
    assert "has not given the address's query" in dialog.team.error.text()
    dialog.team.url_query.forget.click()  # or forgotten: then the new address is saved, without a query
    assert dialog.team.save()
    assert not TeamSettings(settings.qsettings, NoSecretKeeper()).push_query_kept


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


def test_a_query_in_the_trace_query_services_address_is_kept_as_a_secret(qtbot, _isolated_settings) -> None:
    """File › Settings… wrote "Open traces by id from: http://jaeger:16686/?token=KEY" to the settings file."""
    settings = AppSettings()
    dialog = _dialog(qtbot, settings)
    dialog.team.query.setText("http://127.0.0.1:16686/?token=key-90b4e2d1c8")
    dialog.accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    settings.sync()
    assert "key-90b4e2d1c8" not in _isolated_settings.read_text()
    kept = TeamSettings(settings.qsettings, NoSecretKeeper())
    assert (kept.query_url, kept.service_query()) == ("http://127.0.0.1:16686/", "token=key-90b4e2d1c8")
    again = _dialog(qtbot, settings)
    again.show()
    assert again.team.query.text() == "http://127.0.0.1:16686/" and again.team.service_query.row.isVisibleTo(again)
    again.team.grow()
    save(again, "settings-team-service-query")
    switch_language("de")
    try:
        save(again, "settings-team-service-query-de")
    finally:
        switch_language("en")


def test_open_trace_by_id_sends_the_query_kept_and_never_writes_it(qtbot, make_window, _isolated_settings) -> None:
    """File › Open trace by id… remembered the address it was given, query and all, in the settings file."""
    trace = fixture_trace_ids()[0]
    with trace_backend() as jaeger:
        path = f"/api/v3/traces/{trace}?token=key-61f0a3b7d2"
        jaeger.serve_json(path, {"result": fixture_trace(trace)})
        window = make_window(wait_tools=False)
        dialog = TraceByIdDialog(window.team.team, window)
        qtbot.addWidget(dialog)
        dialog.address.setText(f"{jaeger.base}/?token=key-61f0a3b7d2")
        dialog.trace_id.setText(trace)
        dialog.accept()
        assert dialog.result() == TraceByIdDialog.DialogCode.Accepted
        AppSettings().sync()
        assert "key-61f0a3b7d2" not in _isolated_settings.read_text()
        again = TraceByIdDialog(window.team.team, window)  # the next time: the address without it, still sent
        qtbot.addWidget(again)
        again.trace_id.setText(trace)
        again.show()
        assert again.address.text() == f"{jaeger.base}/" and again.service_query.row.isVisibleTo(again)
        save(again, "open-trace-by-id-query")
        switch_language("de")
        try:
            german = TraceByIdDialog(window.team.team, window)  # as a German reader opens it
            qtbot.addWidget(german)
            german.show()
            save(german, "open-trace-by-id-query-de")
            german.reject()
        finally:
            switch_language("en")
        again.accept()
        tab = window.runs_tab
        tab.transfers.open_trace_by_id(*again.chosen())
        with qtbot.waitSignal(tab.transfers.ended, timeout=15000) as ended:
            pass
        assert ended.args[:2] == ["import", "ok"] and "key-61f0a3b7d2" not in ended.args[2]
    assert jaeger.hits == {path: 1}


def test_both_queries_are_kept_in_the_keyring_and_read_back_when_the_window_starts(
        qtbot, window, file_keyring, _isolated_settings) -> None:  # noqa: F811
    collector = "http://127.0.0.1:9/v1/traces"
    team = TeamSettings(AppSettings().qsettings, KeyringSecretKeeper())
    team.save_push(True, collector, [], "api_key=key-a81c04d9e6")
    team.save_query("jaeger", "http://127.0.0.1:9/", "token=key-2be9f7c310")
    team.qsettings.sync()
    kept = file_keyring.entries()
    assert (kept[f"otlp-push {collector} ?query"], kept["otlp-query ?query"]) == (
        "api_key=key-a81c04d9e6", "token=key-2be9f7c310")
    assert "key-" not in _isolated_settings.read_text()
    made, _troubled = window(wait_s=0)
    qtbot.waitUntil(lambda: made.team.push.setting is not None, timeout=10000)  # read after the first paint
    assert made.team.push.setting.endpoint == f"{collector}?api_key=key-a81c04d9e6"
    made.team.secrets.push.read(TRACE_QUERY_KEY)
    qtbot.waitUntil(lambda: made.team.team.service_query() == "token=key-2be9f7c310", timeout=10000)


def test_a_keyring_that_does_not_keep_the_services_query_says_so(qtbot, window) -> None:  # noqa: F811
    made, _troubled = window(wait_s=0, set="KeyringLocked")
    made.team.team.save_query("jaeger", "http://127.0.0.1:9/", "token=key-5c2e8a0f14")
    qtbot.waitUntil(lambda: made.admin.keyring.box is not None, timeout=10000)
    said = made.admin.keyring.box.text()
    assert said.startswith("The system keyring did not keep the query of the trace query service's address "
                           "http://127.0.0.1:9/ (KeyringLocked: "), said
    assert made.team.team.service_query() == "token=key-5c2e8a0f14"  # this session


OLD = "http://127.0.0.1:9/v1/traces"


def _saved_by_an_older_version(file_keyring) -> None:
    """The settings an earlier version wrote: the address with its query, a secret push header kept under it."""
    qsettings = AppSettings().qsettings
    for name, value in (("team/push", True), ("team/push_endpoint", f"{OLD}?{KEY}"),
                        ("team/push_headers", json.dumps([["X-Team-Key", "", True]]))):
        qsettings.setValue(name, value)
    qsettings.sync()
    assert KeyringSecretKeeper().save(f"otlp-push {OLD}?{KEY}", "X-Team-Key", "team-k3y")


def test_a_query_an_older_version_saved_moves_to_the_keyring_when_the_window_starts(
        qtbot, window, file_keyring, _isolated_settings) -> None:  # noqa: F811
    """It stayed in clear in the settings file until File › Settings… was opened and OK pressed."""
    _saved_by_an_older_version(file_keyring)
    made, _troubled = window(wait_s=0)
    qtbot.waitUntil(lambda: made.team.push.setting is not None, timeout=10000)
    assert made.team.push.setting.endpoint == f"{OLD}?{KEY}"  # still sent with it, and its header
    assert made.team.push.setting.headers == {"X-Team-Key": "team-k3y"}
    qtbot.waitUntil(lambda: f"otlp-push {OLD}?{KEY} X-Team-Key" not in file_keyring.entries(), timeout=10000)
    assert "key-3f9a1c07e5" not in _isolated_settings.read_text()
    kept = {entry: value for entry, value in file_keyring.entries().items() if entry.startswith("otlp-push")}
    assert kept == {f"otlp-push {OLD} ?query": KEY, f"otlp-push {OLD} X-Team-Key": "team-k3y"}
    team = TeamSettings(AppSettings().qsettings, KeyringSecretKeeper())
    assert (team.push_endpoint, team.push_query_kept, team.push_setting().endpoint) == (OLD, True, f"{OLD}?{KEY}")


def test_a_query_an_older_version_saved_stays_where_the_keyring_does_not_take_it(
        qtbot, window, file_keyring, _isolated_settings) -> None:  # noqa: F811
    """A keyring that would not give the header's secret: the setting is left as it is, and the box names the
    collector without the query (it named the address with it)."""
    _saved_by_an_older_version(file_keyring)
    made, _troubled = window(wait_s=0, get="KeyringLocked")
    keyring = made.admin.keyring
    qtbot.waitUntil(lambda: keyring.box is not None and OLD in keyring.box.text(), timeout=10000)
    assert "key-3f9a1c07e5" not in keyring.box.text(), keyring.box.text()
    _left_as_it_was(file_keyring)


def test_a_query_an_older_version_saved_stays_where_the_keyring_does_not_keep_all(
        qtbot, window, file_keyring, _isolated_settings) -> None:  # noqa: F811
    """The query kept under the address without it, the header's secret refused there: the query's entry goes
    again, and runs are still sent to the address with its query and the header."""
    _saved_by_an_older_version(file_keyring)
    keyring.set_keyring(RefusingEntries(file_keyring.path, f"otlp-push {OLD} X-Team-Key"))
    made, _troubled = window(wait_s=0)
    qtbot.waitUntil(lambda: made.team.push.setting is not None, timeout=10000)
    assert (made.team.push.setting.endpoint, made.team.push.setting.headers) == (
        f"{OLD}?{KEY}", {"X-Team-Key": "team-k3y"})
    _left_as_it_was(file_keyring)


def _left_as_it_was(file_keyring) -> None:
    QApplication.processEvents()
    team = TeamSettings(AppSettings().qsettings, KeyringSecretKeeper())
    assert (team.push_endpoint, team.push_query_kept) == (f"{OLD}?{KEY}", False)
    kept = {entry: value for entry, value in file_keyring.entries().items() if entry.startswith("otlp-push")}
    assert kept == {f"otlp-push {OLD}?{KEY} X-Team-Key": "team-k3y"}


SERVICE = "http://127.0.0.1:9/"


def test_a_services_query_an_older_version_saved_moves_to_the_keyring_when_the_window_starts(
        qtbot, window, file_keyring, _isolated_settings) -> None:  # noqa: F811
    """It stayed in clear in the settings file until Settings or File › Open trace by id… was accepted."""
    qsettings = AppSettings().qsettings
    qsettings.setValue("team/query_url", f"{SERVICE}?{KEY}")  # as earlier versions wrote it
    qsettings.sync()
    made, _troubled = window(wait_s=0)
    qtbot.waitUntil(lambda: "key-3f9a1c07e5" not in _isolated_settings.read_text(), timeout=10000)
    assert file_keyring.entries()["otlp-query ?query"] == KEY
    team = TeamSettings(AppSettings().qsettings, KeyringSecretKeeper())
    assert (team.query_url, team.query_secret_kept, team.service_query()) == (SERVICE, True, KEY)
    made.team.secrets.push.read(TRACE_QUERY_KEY)  # as File › Open trace by id… reads it: the address sent with it
    qtbot.waitUntil(lambda: made.team.team.service_query() == KEY, timeout=10000)
    dialog = TraceByIdDialog(made.team.team, made)
    qtbot.addWidget(dialog)
    dialog.trace_id.setText("4bf92f3577b34da6a3ce929d0e0e4736")
    assert dialog.address.text() == SERVICE
    dialog.accept()
    assert dialog.chosen()[1] == f"{SERVICE}?{KEY}"


def test_a_services_query_an_older_version_saved_stays_where_the_keyring_does_not_keep_it(
        qtbot, window, file_keyring, _isolated_settings) -> None:  # noqa: F811
    qsettings = AppSettings().qsettings
    qsettings.setValue("team/query_url", f"{SERVICE}?{KEY}")
    qsettings.sync()
    made, troubled = window(wait_s=0, set="KeyringLocked")
    qtbot.waitUntil(lambda: troubled.calls > 0, timeout=10000)  # the keyring was asked to keep it, and refused
    qtbot.wait(300)
    QApplication.processEvents()
    team = TeamSettings(AppSettings().qsettings, KeyringSecretKeeper())
    assert (team.query_url, team.query_secret_kept) == (f"{SERVICE}?{KEY}", False)
    assert "otlp-query ?query" not in file_keyring.entries()
