"""A command server added by the Servers dialog with a token among its words (``… --token T``): the process is
started with T, but the window names the server ``… --token …``: the servers list and its tooltip, the Runs list's
Server column, its tooltip and the server filter, the step's Server tab; the database keeps T in the server's
configuration only (it was the server's key: in each run's row, its health, and shown in every one of those).

Real parts: a stdio child that refuses to start without ``--token`` and answers a digest of the token it got,
the real window and dialog offscreen, a real SQLite file."""

from __future__ import annotations

import shlex
import sqlite3
import sys

from PySide6.QtCore import Qt

from inspector.gui.runs.runs_model import COLUMNS as RUN_COLUMNS
from inspector.store import resolve_db_path
from tests.gui.test_server_dialog_command import answer_dialog
from tests.integration.test_command_server_credentials import rows_holding
from tests.support.token_stdio_server import digest

TOKEN = "tok-W1x2Y3z4-dialog-secret"


def test_a_command_line_token_is_kept_only_in_the_servers_configuration(make_window, qtbot) -> None:
    window = make_window(wait_tools=False)
    line = f"{sys.executable} -m tests.support.token_stdio_server --token {TOKEN}"

    def fill(dialog) -> None:
        dialog.as_command.setChecked(True)
        dialog.name.setText("")
        dialog.command.line.setText(line)

    answer_dialog(window, fill)
    window.admin.add_server()
    [record] = [record for record in window.admin.registry.all() if record.transport == "stdio"]
    assert record.url == f"stdio:{sys.executable} -m tests.support.token_stdio_server --token …"
    endpoint = window.admin.endpoint_for(record)
    task = window.engine.call_tool(endpoint, "token_digest", {}, 30)
    with qtbot.waitSignal(task.finished, timeout=30000):
        pass
    assert task.outcome.status == "ok" and digest(TOKEN) in repr(task.outcome.record.step)
    servers = window.admin.panel.model
    shown = [servers.index(row, 0).data(role) for row in range(servers.rowCount())
             for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)]
    assert any("--token …" in (text or "") for text in shown)
    tab = window.runs_tab
    tab.show_me()
    server = RUN_COLUMNS.index("server")
    qtbot.waitUntil(lambda: tab.runs.rowCount() >= 1)
    cell = tab.runs.index(0, server)
    shown += [cell.data(), cell.data(Qt.ItemDataRole.ToolTipRole)]
    shown += [tab.server_filter.itemText(i) for i in range(tab.server_filter.count())]
    assert "--token …" in cell.data(Qt.ItemDataRole.ToolTipRole)
    assert [text for text in shown if TOKEN in (text or "")] == []
    with sqlite3.connect(resolve_db_path()) as conn:
        assert {row[0] for row in conn.execute("SELECT server FROM runs")} == {record.url}
        assert TOKEN in conn.execute("SELECT command FROM servers WHERE url = ?", (record.url,)).fetchone()[0]
    # Nowhere else: no run's row, no step's payload (its command line), no health.
    assert rows_holding(resolve_db_path(), TOKEN) == [("servers", "command")]


def test_a_server_configured_under_its_whole_command_line_takes_its_runs_when_saved_again(make_window, qtbot) -> None:
    """Configured before its key left T out (``stdio:… --token T``), saved again by the dialog it is keyed
    ``stdio:… --token …``; its runs and health stayed under the key holding T: two servers in the Runs list (the
    earlier one shown with T), T in each of their rows."""
    from inspector.agent.server_commands import setting_of
    from inspector.mcp.server_command import parse_command_line
    from inspector.store import RunStore, ServerRegistry
    from tests.integration.test_command_server_credentials import answer
    from tests.support.cli_process import cli_here

    line = f"{sys.executable} -m tests.support.token_stdio_server --token {TOKEN}"
    db, earlier = resolve_db_path(), f"stdio:{shlex.join(shlex.split(line))}"
    with RunStore.open(db) as store:
        ServerRegistry(store.db).save_server(earlier, name="tokened", transport="stdio",
                                             command=setting_of(parse_command_line(line)))
    assert answer(cli_here("--db", str(db), "call", "tokened", "token_digest", "--json")) == digest(TOKEN)
    window = make_window(wait_tools=False)
    [record] = [record for record in window.admin.registry.all() if record.transport == "stdio"]
    assert record.url == earlier
    answer_dialog(window, lambda dialog: None)
    window.admin.edit_server(record)
    [record] = [record for record in window.admin.registry.all() if record.transport == "stdio"]
    assert (record.name, record.url, record.ok_count) == (
        "tokened", f"stdio:{sys.executable} -m tests.support.token_stdio_server --token …", 1)
    with sqlite3.connect(db) as conn:
        assert {row[0] for row in conn.execute("SELECT server FROM runs")} == {record.url}
    assert rows_holding(db, TOKEN) == [("servers", "command")]


def _refused_as_personals(window) -> list[str]:
    """Add ``personal`` with the command and ``TOKEN`` by the dialog, then ``work`` with it and another token: what
    the dialog said under the command line, which stayed open (``""``: it closed), before it is cancelled."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from inspector.gui.dialogs.server_dialog import ServerDialog

    line = f"{sys.executable} -m tests.support.token_stdio_server --token {TOKEN}"
    seen: list[str] = []

    def fill(dialog: ServerDialog) -> None:
        dialog.as_command.setChecked(True)
        dialog.name.setText("personal")
        dialog.command.line.setText(line)

    def other() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ServerDialog):
            QTimer.singleShot(20, other)
            return
        dialog.as_command.setChecked(True)
        dialog.name.setText("work")
        dialog.command.line.setText(line.replace(TOKEN, "tok-other-dialog-9"))
        dialog.accept()  # refused: the dialog stays open, saying why
        seen.append(dialog.command.line_error.text() if dialog.isVisible() else "")
        if dialog.isVisible():
            dialog.reject()

    answer_dialog(window, fill)
    window.admin.add_server()
    QTimer.singleShot(20, other)
    window.admin.add_server()
    return seen


def test_the_dialog_refuses_the_command_another_server_has_with_other_credentials(make_window, qtbot) -> None:
    """Added with another token under another name it is the same server (one key, ``… --token …``): saved, it
    replaced the first, its name and its token gone. The dialog says which server has it and stays open."""
    window = make_window(wait_tools=False)
    seen = _refused_as_personals(window)
    assert len(seen) == 1 and "personal" in seen[0] and "tok-other" not in seen[0] and TOKEN not in seen[0], seen
    [record] = [record for record in window.admin.registry.all() if record.transport == "stdio"]
    assert record.name == "personal" and record.command is not None and TOKEN in record.command.args


def test_a_closed_dialogs_refusal_is_not_checked_again_on_a_switch_of_language(make_window, qtbot) -> None:
    """The dialog that said "personal is configured with this command" stays (the window keeps its last dialog): a
    switch of language checked its command again, asking the database, also once the window had shut down and its
    database was closed ("Cannot operate on a closed database" in the next test of the run that switched)."""
    from inspector.gui.language import switch_language

    window = make_window(wait_tools=False)
    assert len(_refused_as_personals(window)) == 1
    refused = window.admin.dialog
    assert refused is not None and refused.command.has_problems()
    window.shut_down()
    window.admin.store.close()  # as the application's end closes it
    try:
        switch_language("de")
    finally:
        switch_language("en")
