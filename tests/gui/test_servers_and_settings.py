"""Servers: add/edit/remove through the dialog, bad input refused there, secrets as dots; Test
connection; settings and window layout remembered (in the test's own settings file)."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.settings import AppSettings


def test_bad_server_input_is_refused_in_the_dialog(qtbot) -> None:
    dialog = ServerDialog()
    qtbot.addWidget(dialog)
    dialog.url.setText("ftp://example.org/mcp")
    assert dialog.settings() is None
    assert "http:// or https://" in dialog.url_error.text() and not dialog.url_error.isHidden()
    dialog.url.setText("http://127.0.0.1:9/mcp")
    row = dialog.add_header("", "orphan value")
    assert dialog.settings() is None
    assert "needs a name" in dialog.header_error.text()
    row.name.setText("Bad Header")
    assert dialog.settings() is None
    assert "not a valid HTTP header name" in dialog.header_error.text()
    row.name.setText("X-Team")
    dialog.budget.setText("-3")
    assert dialog.settings() is None
    assert "positive number of seconds" in dialog.budget_error.text()
    dialog.budget.setText("7")
    settings = dialog.settings()
    assert settings is not None and settings.budget_s == 7 and settings.headers == {"X-Team": "orphan value"}
    assert dialog.result_settings is None  # nothing accepted yet


def test_secret_header_values_are_dots(qtbot) -> None:
    dialog = ServerDialog(url="http://127.0.0.1:9/mcp", headers=[("Authorization", "Bearer s3cret", True)])
    qtbot.addWidget(dialog)
    [row] = dialog.header_rows
    assert row.value.echoMode() == QLineEdit.EchoMode.Password
    typed = dialog.add_header()
    qtbot.keyClicks(typed.name, "X-Api-Key")
    assert typed.secret.isChecked() and typed.value.echoMode() == QLineEdit.EchoMode.Password
    typed.secret.setChecked(False)
    assert typed.value.echoMode() == QLineEdit.EchoMode.Normal


def test_add_edit_remove_and_test_connection(qtbot, make_window, demo_server) -> None:
    window = make_window()
    assert window.servers.model.rowCount() == 0
    window.save_server(demo_server.url, "My demo", 12, {"Authorization": "Bearer t0ken"}, {"Authorization"})
    assert window.servers.model.rowCount() == 1
    record = window.servers.current()
    assert record.name == "My demo" and record.budget_s == 12
    assert [(h.name, h.secret, h.value) for h in record.headers] == [("Authorization", True, None)]
    # The secret is kept for this session (no keyring here) and sent with every operation.
    assert window.endpoint_for(record).headers == {"Authorization": "Bearer t0ken"}
    qtbot.waitUntil(lambda: window.tools.model.rowCount() > 0, timeout=10000)
    task = window.test_server(record)
    with qtbot.waitSignal(task.finished, timeout=10000):
        pass
    assert window.servers.test_result.text().startswith("Answered in ")
    assert "MCP 2025-" in window.servers.test_result.text()
    # The catalogue walk and the ping both answered: two ok operations in the health line.
    qtbot.waitUntil(lambda: "2 ok" in window.servers.health.text())
    window.forget_server(demo_server.url)
    assert window.servers.model.rowCount() == 0
    assert window.tools.model.rowCount() == 0


def test_settings_dialog_refuses_a_bad_budget_and_saves_a_good_one(qtbot) -> None:
    settings = AppSettings()
    dialog = SettingsDialog(settings, "/tmp/runs.db")
    qtbot.addWidget(dialog)
    dialog.budget.setText("soon")
    dialog.accept()
    assert not dialog.budget_error.isHidden()
    assert settings.default_budget_s == 20
    dialog.budget.setText("0.5")
    dialog.demo.setChecked(False)
    dialog.accept()
    assert settings.default_budget_s == 1  # raised to the one-second floor
    assert settings.demo_autostart is False
    assert AppSettings().default_budget_s == 1  # written to the (test's own) settings file


def test_geometry_and_splitters_are_remembered(qtbot, make_window, _isolated_settings) -> None:
    window = make_window()
    window.resize(760, 560)  # inside the offscreen screen (800 x 600), which restoring clamps to
    window.main.setSizes([300, 460])
    window.shut_down()
    assert _isolated_settings.exists()
    again = make_window()
    assert again.main.sizes()[0] == window.main.sizes()[0]
    assert again.size() == window.size()
