"""File → Import servers… replaces a configured server of an entry's name at another address or command, as
``servers import`` does: it added a second server of that name (two "work" in the list, the older one's settings
kept under it). The preview says so first ("replaces http://127.0.0.1:9/mcp"); afterwards the window's servers are
the command line's, name for name and address for address.

Real parts: the real window and preview offscreen, a real SQLite file, the real command line on a copy of it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.support.cli_process import cli_here


def configured(db: Path) -> set[tuple[str, str]]:
    listed = cli_here("--db", str(db), "servers", "--json")
    assert listed.returncode == 0, listed.stderr
    return {(server["name"], server["url"]) for server in json.loads(listed.stdout)["servers"]}


def test_import_replaces_the_server_of_that_name_as_the_command_line_does(make_window, qtbot, tmp_path: Path) -> None:
    from inspector.gui.workbench.server_import import preview
    from inspector.mcp.server_command import ServerCommand
    from inspector.store import resolve_db_path

    window = make_window(wait_tools=False)
    registry = window.admin.registry
    registry.save_server("http://127.0.0.1:9/mcp", name="work")
    window.admin.save_server("stdio:uvx old-tool", "tool", None, {}, set(), command=ServerCommand("uvx", ("old-tool",)))
    tools = window.workbench.tools  # the saved server is selected and its tools asked for: that ends first
    qtbot.waitUntil(lambda: tools.task is not None and not tools.task.running, timeout=20000)
    db = Path(resolve_db_path())
    before = tmp_path / "before.db"
    shutil.copyfile(db, before)  # the same servers, for the command line
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "work": {"url": "http://127.0.0.1:10/mcp"},
        "tool": {"command": "uvx", "args": ["new-tool"]},
    }}), encoding="utf-8")
    dialog = preview(window.admin, config, window)
    qtbot.addWidget(dialog)
    rows = {dialog.table.item(row, 0).text(): dialog.table.item(row, 4) for row in range(dialog.table.rowCount())}
    assert rows["work"].text() == "replaces http://127.0.0.1:9/mcp"
    assert rows["tool"].text() == "replaces stdio:uvx old-tool"
    assert "adding replaces it" in rows["work"].toolTip()
    dialog.accept()
    added = {(record.name, record.url) for record in registry.all()}
    assert added == {("work", "http://127.0.0.1:10/mcp"), ("tool", "stdio:uvx new-tool")}
    assert cli_here("--db", str(before), "servers", "import", str(config), "--yes").returncode == 0
    assert configured(before) == added
