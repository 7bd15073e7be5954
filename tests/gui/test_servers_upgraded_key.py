"""The Servers panel's tooltip names a command server by its key (``Command: …``): a server configured with a token
inside its shell's command before the key left it out (a database of schema 17) showed T there until saved again.
Upgraded (schema 18), the tooltip names it as a save does now. A real SQLite file, the real model offscreen."""

from __future__ import annotations

import html
import json
import sqlite3
from pathlib import Path

from PySide6.QtCore import Qt

from inspector.gui.workbench.servers_model import ServersModel
from inspector.store import RunStore, ServerRegistry

TOKEN = "tok-W8x9-tooltip-secret"


def test_the_tooltip_of_a_server_configured_with_a_token_in_its_shells_command_leaves_it_out(
        tmp_path: Path, qtbot) -> None:
    path = tmp_path / "runs.db"
    with RunStore.open(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO servers (url, name, transport, command) VALUES (?, 'work', 'stdio', ?)",
                     (f"stdio:sh -c 'srv --token {TOKEN}'",
                      json.dumps({"program": "sh", "args": ["-c", f"srv --token {TOKEN}"], "cwd": None, "env": []})))
        conn.execute("PRAGMA user_version = 17")
    conn.close()
    model = ServersModel()
    with RunStore.open(path) as store:
        model.set_records(ServerRegistry(store.db).all())
    tip = html.unescape(model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole))  # rich text: the server's words escaped
    assert "Command: sh -c 'srv --token '…\n" in tip and TOKEN not in tip, tip
