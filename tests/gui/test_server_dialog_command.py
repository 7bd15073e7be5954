"""The server dialog's Command half and transport choice; File → Import servers…'s preview."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLineEdit

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.mcp import ServerEndpoint
from inspector.mcp.server_command import ServerCommand

ROOT = Path(__file__).resolve().parents[2]


def test_command_mode_splits_the_line_and_says_what_is_wrong_where_it_was_typed(qtbot) -> None:
    dialog = ServerDialog()
    qtbot.addWidget(dialog)
    dialog.as_command.setChecked(True)
    assert not dialog.command.line.isHidden() and dialog.url.isHidden()
    fields = dialog.command
    fields.line.setText("npx -y 'server with space")
    assert dialog.settings() is None
    assert "quote that is not closed" in fields.line_error.text() and not fields.line_error.isHidden()
    fields.line.setText("   ")
    assert dialog.settings() is None and "command is empty" in fields.line_error.text()
    fields.line.setText("npx -y '@scope/server one' /tmp")
    fields.cwd.setText("/srv")
    row = fields.add_variable()
    qtbot.keyClicks(row.name, "GITHUB_TOKEN")
    assert row.secret.isChecked() and row.value.echoMode() == QLineEdit.EchoMode.Password
    row.value.setText("ghp_secret")
    plain = fields.add_variable("DEBUG", "1")
    assert not plain.secret.isChecked() and plain.value.echoMode() == QLineEdit.EchoMode.Normal
    bad = fields.add_variable("2BAD", "x")
    assert dialog.settings() is None and "not an environment variable name" in fields.env_error.text()
    bad.name.setText("")
    bad.value.setText("")
    settings = dialog.settings()
    assert settings is not None and settings.transport == "stdio"
    assert settings.command.argv == ["npx", "-y", "@scope/server one", "/tmp"]
    assert settings.command.cwd == "/srv"
    assert dict(settings.command.env) == {"GITHUB_TOKEN": "ghp_secret", "DEBUG": "1"}
    assert settings.url == ServerEndpoint.for_command(settings.command).key


def test_the_address_offers_the_older_transport(qtbot) -> None:
    dialog = ServerDialog(url="http://127.0.0.1:9/sse", transport="sse")
    qtbot.addWidget(dialog)
    assert dialog.as_address.isChecked() and dialog.transport.currentData() == "sse"
    assert dialog.settings().transport == "sse"
    dialog.transport.setCurrentIndex(0)
    assert dialog.settings().transport == "http"


def answer_dialog(window, act) -> None:
    """Act on the server dialog while its exec() runs, then accept it."""

    def step() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ServerDialog):
            QTimer.singleShot(20, step)
            return
        act(dialog)
        dialog.accept()

    QTimer.singleShot(20, step)


def test_a_kept_secret_is_never_shown_again_and_stays_when_left_empty(make_window, qtbot) -> None:
    window = make_window()
    command = ServerCommand(sys.executable, ("-m", "tests.support.stdio_server"), {"API_KEY": "sk-kept-1234567"},
                            str(ROOT))
    key = ServerEndpoint.for_command(command).key
    window.admin.save_server(key, "kept", None, {}, set(), command=command)
    tools = window.workbench.tools
    qtbot.waitUntil(lambda: tools.task is not None and not tools.task.running, timeout=30000)
    seen = {}

    def look(dialog: ServerDialog) -> None:
        [row] = dialog.command.env_rows
        seen["value"] = row.value.text()
        seen["placeholder"] = row.value.placeholderText()
        seen["command"] = dialog.as_command.isChecked()
        dialog.command.line.setText(f"{sys.executable} -m tests.support.stdio_server --other")

    answer_dialog(window, look)
    window.admin.edit_current()
    # No keyring in tests: the value is kept for the session, and the field says so.
    assert seen == {"value": "", "placeholder": "kept until Run Inspector quits", "command": True}
    [record] = window.admin.registry.all()  # another command: the old key replaced
    assert record.url != key and record.url.endswith("--other")
    assert window.admin.endpoint_for(record).command.env == {"API_KEY": "sk-kept-1234567"}
    stored = json.dumps(record.to_dict())
    assert "sk-kept-1234567" not in stored


def write(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_import_previews_then_adds_what_was_checked(make_window, qtbot, tmp_path: Path) -> None:
    from inspector.gui.workbench.server_import import preview

    window = make_window()
    window.admin.registry.save_server("http://127.0.0.1:9/mcp", name="the old remote")
    config = write(tmp_path / "claude_desktop_config.json", {"mcpServers": {
        "time": {"command": "uvx", "args": ["mcp-server-time"], "env": {"TZ": "UTC"}},
        "remote": {"url": "http://127.0.0.1:9/mcp", "headers": {"X-Team": "blue"}},
        "github": {"command": "npx", "args": ["-y", "gh"], "env": {"GITHUB_TOKEN": "${input:token}"}},
        "broken": {"args": ["x"]},
    }})
    dialog = preview(window.admin, config, window)
    qtbot.addWidget(dialog)
    table = dialog.table
    assert table.rowCount() == 3
    rows = {table.item(row, 0).text(): [table.item(row, c).text() for c in range(5)] for row in range(3)}
    assert rows["time"][1:] == ["Command", "TZ=… uvx mcp-server-time", "TZ", "new"]
    # An address configured already (under another name) is said to be renamed, before anything is added.
    assert rows["remote"][1:] == ["Address", "http://127.0.0.1:9/mcp", "X-Team", "renames the old remote"]
    assert "broken" in dialog.skipped.text() and "neither a 'command' nor a 'url'" in dialog.skipped.text()
    [asked] = dialog.asks.values()
    assert asked.echoMode() == QLineEdit.EchoMode.Password
    asked.setText("ghp_typed")
    dialog.set_checked(list(rows).index("remote"), False)
    dialog.accept()
    records = {record.name: record for record in window.admin.registry.all()}
    assert set(records) == {"time", "github", "the old remote"}
    assert records["time"].transport == "stdio" and records["time"].command.cwd is None
    github = window.admin.endpoint_for(records["github"])
    assert github.command.env == {"GITHUB_TOKEN": "ghp_typed"}
    assert "ghp_typed" not in json.dumps(records["github"].to_dict())


def test_a_file_that_is_no_configuration_adds_nothing_and_says_why(make_window, qtbot, tmp_path: Path) -> None:
    from inspector.gui.workbench.server_import import preview

    window = make_window()
    not_json = tmp_path / "notes.json"
    not_json.write_text("{ this is not json", encoding="utf-8")
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (5 * 1024 * 1024))
    for path, said in ((not_json, "is not valid JSON"), (fifo, "is not a regular file"), (big, "larger than 4 MB")):
        assert preview(window.admin, path, window) is None
        box = window.admin.import_problem
        assert said in box.text() and box.text().startswith("Nothing was imported")
        box.close()
    assert window.admin.registry.all() == []


def test_the_command_page_and_the_preview_name_every_control(qtbot, tmp_path: Path) -> None:
    from inspector.gui.dialogs.import_dialog import ImportDialog
    from inspector.mcp.server_configs import read_server_config
    from tests.gui.test_models_and_accessibility import _heard_problems

    dialog = ServerDialog(transport="stdio", command_line="uvx mcp-server-time", env=[("TZ", "UTC", False, False)])
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.as_command.isChecked() and _heard_problems(dialog) == []
    fields = dialog.command
    for edit in (fields.line, fields.cwd, *(row.name for row in fields.env_rows), *(r.value for r in fields.env_rows)):
        assert edit.isVisibleTo(dialog) and edit.accessibleName().strip()
    config = read_server_config(write(tmp_path / "mcp.json", {"servers": {
        "gh": {"type": "stdio", "command": "npx", "env": {"TOKEN": "${input:token}"}}}}))
    preview = ImportDialog(config, "mcp.json")
    qtbot.addWidget(preview)
    preview.show()
    assert _heard_problems(preview) == []
    assert [edit.accessibleName() for edit in preview.asks.values()] == ["gh: TOKEN"]


def test_a_kept_value_says_where_it_is_kept(qtbot) -> None:
    dialog = ServerDialog(transport="stdio", command_line="uvx x", secrets_kept=True,
                          env=[("API_KEY", "", True, True)])
    qtbot.addWidget(dialog)
    [row] = dialog.command.env_rows
    assert row.value.text() == "" and row.value.placeholderText() == "kept in the keyring"
    settings = dialog.settings()
    assert settings.kept_env == {"API_KEY"} and dict(settings.command.env) == {}


def test_rows_added_to_the_shown_dialog_get_their_height(qtbot) -> None:
    dialog = ServerDialog(transport="stdio", command_line="uvx mcp-server-time")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    rows = [dialog.command.add_variable(f"NAME_{n}", "x") for n in range(4)]
    qtbot.waitUntil(lambda: all(row.isVisible() and row.height() >= row.minimumSizeHint().height()
                                for row in rows))
    # Switching halves shows no empty problem line.
    dialog.as_address.setChecked(True)
    dialog.as_command.setChecked(True)
    assert not dialog.command.has_problems() and dialog.url_error.isHidden()
