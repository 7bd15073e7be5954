"""The window does to a configured server what ``servers set`` does. The Servers dialog's Add of a command configured
before its key left its token out (``stdio:cmd --token T``) under a new name renames that server, its health with it,
and so does an Edit of another server to that command: each added a second server of the same command. File › Import
servers… says "renames personal" of an entry of a server configured under another name (address or command) and
renames it; an entry of the command another name configures with other credentials is among the skipped, naming that
server (it replaced that server whole).
Afterwards the window's servers are the command line's.

Real parts: the real window, dialog and preview offscreen, a real SQLite file, the real command line on a copy."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from tests.support.cli_process import cli_here

from .test_server_dialog_command import answer_dialog

EARLIER = "stdio:uvx tool --token T-4f5g6h7j"
SHOWN = "stdio:uvx tool --token …"
ADDRESS = "http://127.0.0.1:9/mcp"


def _configure(window, qtbot) -> None:
    from inspector.agent.server_commands import setting_of
    from inspector.mcp.server_command import ServerCommand, parse_command_line

    registry = window.admin.registry
    registry.save_server(EARLIER, name="personal", transport="stdio",
                         command=setting_of(parse_command_line(EARLIER.removeprefix("stdio:"))))
    registry.record_operation(EARLIER, "ok", 12.0)
    registry.save_server(ADDRESS, name="addr")
    window.admin.save_server("stdio:uvx other --token …", "kept", None, {}, set(),
                             command=ServerCommand("uvx", ("other", "--token", "K-1a2b3c4d")))
    tools = window.workbench.tools  # the saved server is selected and its tools asked for: that ends first
    qtbot.waitUntil(lambda: tools.task is not None and not tools.task.running, timeout=20000)


def _listed(registry) -> set[tuple[str | None, str, int]]:
    return {(record.name, record.url, record.ok_count) for record in registry.all()}


def test_adding_a_command_configured_under_its_whole_line_renames_it(make_window, qtbot) -> None:
    window = make_window(wait_tools=False)
    _configure(window, qtbot)

    def fill(dialog) -> None:
        dialog.as_command.setChecked(True)
        dialog.command.line.setText(EARLIER.removeprefix("stdio:"))
        dialog.name.setText("work")

    answer_dialog(window, fill)
    window.admin.add_server()
    assert _listed(window.admin.registry) == {("work", SHOWN, 1), ("addr", ADDRESS, 0),
                                              ("kept", "stdio:uvx other --token …", 0)}


def test_editing_another_server_to_that_command_renames_it_as_servers_set_does(make_window, qtbot,
                                                                                tmp_path: Path) -> None:
    from inspector.store import resolve_db_path

    window = make_window(wait_tools=False)
    _configure(window, qtbot)
    before = tmp_path / "before.db"
    with sqlite3.connect(resolve_db_path()) as source, sqlite3.connect(before) as copy:
        source.backup(copy)

    def fill(dialog) -> None:
        dialog.command.line.setText(EARLIER.removeprefix("stdio:"))

    answer_dialog(window, fill)
    window.admin.edit_server(next(record for record in window.admin.registry.all() if record.name == "kept"))
    assert _listed(window.admin.registry) == {("kept", SHOWN, 1), ("addr", ADDRESS, 0)}
    done = cli_here("--db", str(before), "servers", "set", "kept", "--command", EARLIER.removeprefix("stdio:"))
    assert done.returncode == 0, done.stderr
    listed = json.loads(cli_here("--db", str(before), "servers", "--json").stdout)["servers"]
    assert {(server["name"], server["url"], server["ok"]) for server in listed} == {("kept", SHOWN, 1),
                                                                                   ("addr", ADDRESS, 0)}


def test_import_says_it_renames_and_skips_another_names_command(make_window, qtbot, tmp_path: Path) -> None:
    from inspector.gui.workbench.server_import import preview
    from inspector.store import resolve_db_path

    window = make_window(wait_tools=False)
    _configure(window, qtbot)
    before = tmp_path / "before.db"
    with sqlite3.connect(resolve_db_path()) as source, sqlite3.connect(before) as copy:
        source.backup(copy)  # the same servers, for the command line (the write-ahead log's pages too)
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "work": {"command": "uvx", "args": ["tool", "--token", "T-4f5g6h7j"]},
        "remote": {"url": ADDRESS},
        "taken": {"command": "uvx", "args": ["other", "--token", "K-9z8y7x6w"]}}}), encoding="utf-8")
    dialog = preview(window.admin, config, window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    if shots := os.environ.get("REVIEW_SHOTS"):
        dialog.grab().save(str(Path(shots) / "import-renames.png"))
    rows = {dialog.table.item(row, 0).text(): dialog.table.item(row, 4) for row in range(dialog.table.rowCount())}
    assert {name: item.text() for name, item in rows.items()} == {"work": "renames personal",
                                                                  "remote": "renames addr"}
    assert rows["work"].toolTip().endswith(">This server is configured as personal: adding renames it and replaces its "
                                      "settings (its runs and health stay).</p>")
    assert dialog.skipped.text() == ("Skipped, and why:\ntaken: kept is configured with this command, its credentials "
                                     "aside, and a server is configured once: give kept these credentials, or remove "
                                     "kept first")
    dialog.accept()
    added = _listed(window.admin.registry)
    assert added == {("work", SHOWN, 1), ("remote", ADDRESS, 0), ("kept", "stdio:uvx other --token …", 0)}
    done = cli_here("--db", str(before), "servers", "import", str(config), "--yes")
    assert done.returncode == 0, done.stderr
    listed = json.loads(cli_here("--db", str(before), "servers", "--json").stdout)["servers"]
    assert {(server["name"], server["url"], server["ok"]) for server in listed} == added
