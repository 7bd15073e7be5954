"""File → Receive OTLP traces: the receiver in the window, its status, its runs in the Runs tab."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.store.plumbing_traces import without_plumbing_traces
from tests.gui.test_screenshots import save
from tests.support.receiver_ports import start_receiving, window_receiving_at_start

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"


@pytest.mark.parametrize("language", ["en", "de"])
def test_received_runs_appear_in_the_runs_tab_within_a_second(qtbot, make_window, language) -> None:
    window = make_window(wait_tools=False)
    window.resize(1400, 860)
    window.tabs.setCurrentWidget(window.runs_tab)
    switch_language(language)
    switch = window.receiving
    assert not switch.label.isVisible()
    port = start_receiving(window)  # from the menu action, on the port of the settings
    assert switch.running and switch.url == f"http://127.0.0.1:{port}/v1/traces"
    qtbot.waitUntil(switch.label.isVisible)
    assert switch.url in switch.label.text()
    tab = window.runs_tab
    lines = [line for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]
    for line in lines:
        assert httpx.post(switch.url, content=line, headers={"Content-Type": "application/json"}).status_code == 200
    with RunStore.open(resolve_db_path()) as store:
        runs = store.list_runs(limit=None)
        listed = without_plumbing_traces(store.db.conn, [run.id for run in runs])[0]
    assert len(runs) == 4 and {run.status for run in runs} == {"running"}
    # Each request is answered once its runs are written: from then on, at most a second (the agent's run listed,
    # its three notifications' traces counted over the list as the plumbing traces it leaves out).
    qtbot.waitUntil(lambda: all(tab.runs.row_of(run_id) is not None for run_id in listed)
                    and tab.run_list.plumbing_line.count == 3, timeout=1000)
    qtbot.waitUntil(lambda: "4" in switch.label.text())
    main = next(run for run in runs if run.title == "invoke_agent support-agent")
    tab.select_runs([main.id])
    QApplication.processEvents()
    assert save(window, f"receiver-running-{language}").exists()
    window.receiving.stop()  # the traces still growing are written as finished
    assert not switch.label.isVisible() and not switch.action.isChecked()
    with RunStore.open(resolve_db_path()) as store:
        assert {run.status for run in store.list_runs(limit=None)} <= {"ok", "failed"}
    switch_language("en")


def test_a_taken_port_is_said_and_the_action_unchecked(qtbot, make_window) -> None:
    window = make_window(wait_tools=False)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        window.settings.receiver_port = taken.getsockname()[1]
        window.receiving.action.trigger()
    assert not window.receiving.running and not window.receiving.action.isChecked()
    box = window.receiving.problem
    assert box is not None and "the port is taken" in box.text()
    box.close()


def test_the_receiver_starts_with_the_window_when_settings_ask(qtbot, make_window) -> None:
    window = window_receiving_at_start(make_window, qtbot)
    assert window.receiving.running and window.receiving.action.isChecked()
    window.shut_down()
    assert not window.receiving.running


@pytest.mark.parametrize("language", ["en", "de"])
def test_settings_keep_the_receivers_port_and_autostart(qtbot, language) -> None:
    from inspector.gui.dialogs.settings_dialog import SettingsDialog
    from inspector.gui.settings import AppSettings

    switch_language(language)
    settings = AppSettings()
    assert settings.receiver_port == 4318 and not settings.receiver_autostart
    dialog = SettingsDialog(settings, "runs.db")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.receiver_port.value() == 4318
    dialog.receiver_port.setValue(4400)
    dialog.receiver_autostart.setChecked(True)
    assert save(dialog, f"settings-receiver-{language}").exists()
    dialog.accept()
    again = AppSettings()
    assert again.receiver_port == 4400 and again.receiver_autostart
    switch_language("en")


def test_spans_the_windows_receiver_refuses_are_noted_in_the_log_file(qtbot, make_window, tmp_path,
                                                                       monkeypatch) -> None:
    """The OTel SDK's exporter reports a request with refused spans a success and logs nothing of its
    partial_success: the window's receiver writes the refusal to the log file."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace.export import SpanExportResult

    from tests.support.refused_spans import REFUSED, spans_one_backwards

    log = tmp_path / "run-inspector.log"
    monkeypatch.setenv("RUN_INSPECTOR_LOG", str(log))
    window = make_window(wait_tools=False)
    start_receiving(window)
    exporter = OTLPSpanExporter(endpoint=window.receiving.url)
    assert exporter.export(spans_one_backwards()) == SpanExportResult.SUCCESS
    exporter.shutdown()
    window.receiving.stop()
    assert f"WARNING {REFUSED}" in log.read_text(encoding="utf-8")
