"""The window and the team's OpenTelemetry backend: pushing finished runs from a worker thread (the
Pushed column), the Settings part (secret header values never in the settings file), and File →
Open trace by id… against a fake Jaeger on 127.0.0.1."""

from __future__ import annotations

import base64
import threading
from datetime import timedelta

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import COLUMNS
from inspector.gui.runs.trace_by_id import TraceByIdDialog
from inspector.gui.settings import AppSettings
from inspector.gui.team_settings import TeamSettings
from inspector.runs.times import to_stored_time, utc_now
from inspector.store import RunStore, resolve_db_path
from inspector.store.secrets import NoSecretKeeper
from tests.gui.test_screenshots import save
from tests.support.collector_headers import COLLECTOR_SECRET_HEADERS
from tests.support.otlp_collector import Answer, running_collector
from tests.support.sample_runs import mixed_run
from tests.support.trace_backends import fixture_trace, fixture_trace_ids, trace_backend

PUSHED = COLUMNS.index("pushed")


def _push_on(endpoint: str, headers: list[tuple[str, str | None, bool]] | None = None) -> TeamSettings:
    team = TeamSettings(AppSettings().qsettings, NoSecretKeeper())
    team.save_push(True, endpoint, headers or [])
    team.qsettings.sync()
    return team


def _pushed_word(tab, run_id: int) -> str:
    row = tab.runs.row_of(run_id)
    return "" if row is None else tab.runs.index(row, PUSHED).data()


def test_a_finished_run_is_pushed_by_a_worker_while_the_window_stays_responsive(qtbot, make_window) -> None:
    release = threading.Event()
    with running_collector() as collector:
        collector.answers = [Answer(hold=release)]  # the collector takes its time with the first run
        _push_on(collector.endpoint, [("Authorization", "Bearer team-secret", True)])
        window = make_window(wait_tools=False)
        tab = window.runs_tab
        tab.show_me()  # a list behind another tab is read when it is shown
        qtbot.waitUntil(lambda: window.team.push.running, timeout=5000)
        with RunStore.open(resolve_db_path()) as store:
            run_id = mixed_run(store, "pushed from the window", started_at=utc_now() - timedelta(seconds=10),
                               source="live")
            store.db.conn.execute("UPDATE runs SET finished_at = ? WHERE id = ?",
                                  (to_stored_time(utc_now()), run_id))
        window.team.push.wake()
        qtbot.waitUntil(lambda: collector.hits == 1, timeout=10000)
        qtbot.waitUntil(lambda: not tab.run_view.isColumnHidden(PUSHED), timeout=5000)
        # The request hangs in the worker; the GUI thread still runs its timers and repaints.
        ticks = []
        timer = QTimer()
        timer.timeout.connect(lambda: ticks.append(1))
        timer.start(20)
        qtbot.waitUntil(lambda: len(ticks) >= 5, timeout=2000)
        timer.stop()
        qtbot.waitUntil(lambda: _pushed_word(tab, run_id) == "sending", timeout=5000)
        release.set()
        qtbot.waitUntil(lambda: _pushed_word(tab, run_id) == "sent", timeout=10000)
        tooltip = tab.runs.index(tab.runs.row_of(run_id), PUSHED).data(3)
        assert "Sent to" in tooltip and collector.endpoint in tooltip
        assert collector.headers_seen[0]["authorization"] == "Bearer team-secret"
        window.resize(1400, 860)
        window.main.setSizes([220, 1180])
        window.tabs.setCurrentWidget(tab)
        assert tab.select_runs([run_id])
        save(window, "runs-pushed-column")
        switch_language("de")
        try:
            qtbot.waitUntil(lambda: _pushed_word(tab, run_id) == "gesendet", timeout=3000)
            window.runs_tab.fit_columns()
            save(window, "runs-pushed-column-de")
        finally:
            switch_language("en")
        window.shut_down()
        assert not window.team.push.running
    assert len(collector.requests) == 1


def test_a_collector_that_is_down_leaves_the_run_queued_with_the_reason(qtbot, make_window) -> None:
    with running_collector() as collector:
        endpoint = collector.endpoint
    _push_on(endpoint)
    window = make_window(wait_tools=False)
    tab = window.runs_tab
    tab.show_me()
    with RunStore.open(resolve_db_path()) as store:
        run_id = store.start_run("waits for the collector", "live")
        store.finish_run(run_id, "ok")
    window.team.push.wake()
    qtbot.waitUntil(lambda: _pushed_word(tab, run_id) == "queued"
                    and "did not deliver" in (tab.runs.index(tab.runs.row_of(run_id), PUSHED).data(3) or ""),
                    timeout=10000)
    assert "cannot reach the collector" in window.team.push.problem


def test_a_secret_header_no_keyring_kept_is_not_sent_empty(qtbot, make_window) -> None:
    """Without a system keyring a secret push header is kept only until Run Inspector quits. After a restart the
    worker sent "Authorization: " empty, and a collector that wants it refused every run, for good ("not sent").
    Now nothing is sent, the keyring box says why, and once it is typed again the runs go, with it."""
    with running_collector() as collector:
        # As the settings are after a restart: the header is named secret, nothing holds its value.
        _push_on(collector.endpoint, [("Authorization", None, True), ("X-Scope-OrgID", "team-a", False)])
        window = make_window(wait_tools=False)
        keyring = window.admin.keyring
        qtbot.waitUntil(lambda: keyring.box is not None, timeout=10000)
        said = keyring.box.text()
        assert "secret header Authorization" in said and collector.endpoint in said, said
        with RunStore.open(resolve_db_path()) as store:
            run_id = store.start_run("waits for its key", "live")
            store.finish_run(run_id, "ok")
        window.team.push.wake()
        qtbot.wait(300)
        assert not window.team.push.running and collector.hits == 0
        keyring.box.close()
        window.team.team.save_push(True, collector.endpoint, [("Authorization", "Bearer typed-again", True),
                                                              ("X-Scope-OrgID", "team-a", False)])
        window.team.settings_changed()
        qtbot.waitUntil(lambda: len(collector.requests) == 1, timeout=10000)
    assert collector.headers_seen[0]["authorization"] == "Bearer typed-again"


def _settings_dialog(qtbot, settings: AppSettings | None = None) -> SettingsDialog:
    dialog = SettingsDialog(settings or AppSettings(), "/tmp/runs.db", secrets=NoSecretKeeper())
    qtbot.addWidget(dialog)
    return dialog


def test_the_settings_keep_a_secret_header_out_of_the_settings_file(qtbot, _isolated_settings) -> None:
    settings = AppSettings()
    dialog = _settings_dialog(qtbot, settings)
    team = dialog.team
    team.push.setChecked(True)
    team.endpoint.setText("ftp://nowhere")
    row = team.add_header("X-Api-Key", "very-secret-value")
    assert row.secret.isChecked()  # named like a credential: marked secret, shown as dots
    dialog.accept()
    assert team.error.isVisibleTo(dialog) and "http://" in team.error.text()
    team.endpoint.setText("http://127.0.0.1:4318")
    team.query.setText("http://127.0.0.1:16686")
    team.error.hide()
    dialog.show()
    team.grow()
    save(dialog, "settings-team-backend")
    switch_language("de")
    try:
        save(dialog, "settings-team-backend-de")
    finally:
        switch_language("en")
    dialog.accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    settings.sync()
    assert "very-secret-value" not in _isolated_settings.read_text()
    kept = TeamSettings(settings.qsettings, NoSecretKeeper())
    assert kept.header_rows() == [("X-Api-Key", "very-secret-value", True)]  # this session only
    assert kept.push_setting().enabled and kept.query_url == "http://127.0.0.1:16686"


@pytest.mark.parametrize("endpoint", ["http://[::1/v1/traces", "http://127.0.0.1:bad", "http://127.0.0.1:99999"])
def test_a_collector_address_that_cannot_be_read_is_said_not_raised(qtbot, _isolated_settings, endpoint) -> None:
    # An unclosed "[" or a port that is no number in range raised Python's ValueError in OK's handler.
    dialog = _settings_dialog(qtbot)
    team = dialog.team
    team.push.setChecked(True)
    team.endpoint.setText(endpoint)
    dialog.accept()
    assert dialog.result() != SettingsDialog.DialogCode.Accepted
    assert team.error.isVisibleTo(dialog) and "http://" in team.error.text()


def test_a_kept_collector_address_that_cannot_be_read_ends_the_push_worker_with_its_problem(tmp_path) -> None:
    # Kept before the settings checked its port's range: the worker raised in its thread and said nothing.
    from inspector.gui.runs.push_service import PushService
    from inspector.gui.team_settings import PushSetting

    with RunStore.open(tmp_path / "runs.db"):
        pass
    raised: list[BaseException] = []
    before, threading.excepthook = threading.excepthook, lambda args: raised.append(args.exc_value)
    service = PushService(tmp_path / "runs.db")
    try:
        service.apply(PushSetting(True, "http://bob:pw-7f3a@127.0.0.1:99999", {}, None))
        thread = service._thread
        assert thread is not None
        thread.join(10)
        assert not thread.is_alive() and raised == []
        assert "give its http:// or https:// address" in service.problem and "pw-7f3a" not in service.problem
    finally:
        service.stop()
        threading.excepthook = before

@pytest.mark.parametrize("name", COLLECTOR_SECRET_HEADERS)
def test_a_collectors_own_credential_header_is_marked_secret_as_it_is_typed(qtbot, _isolated_settings,
                                                                           name: str) -> None:
    """Honeycomb's x-honeycomb-team, Uptrace's uptrace-dsn, Instana's x-instana-key, SigNoz's
    signoz-ingestion-key: typed as a push header, the secret box stayed unticked and the key went to the
    settings file in clear."""
    dialog = _settings_dialog(qtbot)
    team = dialog.team
    team.push.setChecked(True)
    team.endpoint.setText("http://127.0.0.1:4318")
    row = team.add_header()
    row.name.textEdited.emit(name)  # as typed
    row.name.setText(name)
    row.value.setText("collector-key-4711")
    assert row.secret.isChecked()
    dataset = team.add_header("x-honeycomb-dataset", "runs")
    assert not dataset.secret.isChecked()
    dialog.accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    AppSettings().sync()
    assert "collector-key-4711" not in _isolated_settings.read_text()
    assert "x-honeycomb-dataset" in _isolated_settings.read_text()


def test_a_password_in_the_collectors_address_becomes_a_secret_header_not_text_in_the_settings_file(
        qtbot, _isolated_settings) -> None:
    """The command line sends a collector address's user info as Basic authorization and never stores it;
    the window wrote "http://team:pw@…" into the settings file in clear. It now moves it into the secret
    Authorization header (the keyring's), as the server dialog does, and keeps the address without it."""
    settings = AppSettings()
    dialog = _settings_dialog(qtbot, settings)
    team = dialog.team
    team.push.setChecked(True)
    team.endpoint.setText("http://team:pw-very-secret@127.0.0.1:4318")
    dialog.show()
    dialog.accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    settings.sync()
    assert "pw-very-secret" not in _isolated_settings.read_text()
    assert team.url_credentials.note.isVisibleTo(dialog)  # "… kept as the secret Authorization header below."
    kept = TeamSettings(settings.qsettings, NoSecretKeeper())
    basic = "Basic " + base64.b64encode(b"team:pw-very-secret").decode()
    assert kept.push_endpoint == "http://127.0.0.1:4318"
    assert kept.header_rows() == [("Authorization", basic, True)]  # this session only: no keyring here
    assert kept.push_setting().headers == {"Authorization": basic}


def test_a_password_in_the_collectors_address_never_replaces_an_authorization_header_typed(qtbot) -> None:
    dialog = _settings_dialog(qtbot)
    team = dialog.team
    team.add_header("Authorization", "Bearer team-token", True)
    team.endpoint.setText("http://team:pw@127.0.0.1:4318")
    assert not team.save()
    assert team.error.isVisibleTo(dialog) and "Authorization header already" in team.error.text()
    assert [row.value.text() for row in team.header_rows] == ["Bearer team-token"]


def test_an_at_in_the_collectors_path_stays_there_and_an_address_naming_two_servers_is_refused(qtbot) -> None:
    """As the server dialog reads it (inspector/mcp/user_info.py): the password ended at the path's "@" before
    (``pw@127.0.0.1:4318/users/me`` to the host example.org); after a password, an "@" in any segment names two
    servers, and written %40 it stays in the path."""
    dialog = _settings_dialog(qtbot)
    team = dialog.team
    team.endpoint.setText("http://team:se@relay.example/ret@127.0.0.1:4318/v1/traces")
    assert not team.save()
    said = team.error.text()
    assert ": relay.example or 127.0.0.1:4318" in said.replace(",", "") and "%40" in said and "ret" not in said
    assert [row.value.text() for row in team.header_rows if row.value.text()] == []
    team.endpoint.setText("http://team:pw@127.0.0.1:4318/users/me@example.org/v1/traces")  # a later segment alike
    assert not team.save() and ": 127.0.0.1:4318, or example.org if" in team.error.text()
    team.endpoint.setText("http://team:pw@127.0.0.1:4318/users/me%40example.org/v1/traces")
    assert team.url_credentials.move()
    assert team.endpoint.text() == "http://127.0.0.1:4318/users/me%40example.org/v1/traces"
    assert [row.value.text() for row in team.header_rows] == ["Basic " + base64.b64encode(b"team:pw").decode()]


def test_open_trace_by_id_asks_for_a_real_id_and_opens_it_in_the_runs_tab(qtbot, make_window) -> None:
    trace = fixture_trace_ids()[0]
    with trace_backend() as jaeger:
        path = f"/api/v3/traces/{trace}"
        jaeger.serve_json(path, {"result": fixture_trace(trace)})
        window = make_window(wait_tools=False)
        dialog = TraceByIdDialog(window.team.team, window)
        qtbot.addWidget(dialog)
        dialog.address.setText(jaeger.base)
        dialog.trace_id.setText("not an id")
        dialog.accept()
        assert dialog.error.isVisibleTo(dialog) and "is not a trace id" in dialog.error.text()
        dialog.trace_id.setText(trace)
        dialog.show()
        save(dialog, "open-trace-by-id")
        dialog.accept()
        assert dialog.result() == TraceByIdDialog.DialogCode.Accepted
        assert window.team.team.query_url == jaeger.base
        tab = window.runs_tab
        for _ in range(2):  # the second open is read from the kept copy
            job = tab.transfers.open_trace_by_id(*dialog.chosen())
            with qtbot.waitSignal(tab.transfers.ended, timeout=15000) as ended:
                pass
            assert job is not None and ended.args[:2] == ["import", "ok"]
            assert tab.selected_run_ids()
        assert jaeger.hits == {path: 1}
        assert tab.run_view.isColumnHidden(PUSHED)  # nothing was ever queued: no Pushed column
        failed = tab.transfers.open_trace_by_id("jaeger", jaeger.base, "abcdef")
        with qtbot.waitSignal(tab.transfers.ended, timeout=15000) as ended:
            pass
        assert failed is not None and ended.args[1] == "failed" and "There is no trace" in ended.args[2]
        tab.transfers.error_box.close()


@pytest.fixture(autouse=True)
def _no_left_language():
    yield
    QApplication.processEvents()
