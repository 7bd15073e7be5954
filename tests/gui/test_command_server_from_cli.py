"""A command server the command line started (`call --stdio "COMMAND LINE"`) is listed in the window by
its health only: nothing is configured to start it. Selected, it lists no tools (before, the tools of
the server selected before stayed listed, Run enabled, under the new server's name) and says why and
what to do, in the Tools panel and the status line, in English and German; Edit… fills its command
line in and OK configures it: its tools are listed. Real servers: the demo server on 127.0.0.1 and the
official SDK server over stdio (tests/support/stdio_server.py), started by the real command line."""

from __future__ import annotations

import shlex
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.gui.language import switch_language
from inspector.store import resolve_db_path
from tests.support.cli_process import cli_here

SERVER = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"
SAID = {"en": "No command is configured for stdio:{server}: it is listed by its health only (started elsewhere, "
              "e.g. by the command line's --stdio). Edit… fills its command line in; OK configures it.",
        "de": "Für stdio:{server} ist kein Befehl eingerichtet: Der Server steht nur mit seinem Zustand in der "
              "Liste (anderswo gestartet, z. B. mit --stdio auf der Befehlszeile). Bearbeiten… trägt seine "
              "Befehlszeile ein; OK richtet ihn ein."}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_command_server_of_the_command_line_lists_no_tools_of_another_and_can_be_configured(
        qtbot, make_window, demo_server, monkeypatch, language) -> None:
    made = cli_here("call", "--stdio", SERVER, "echo", "--args", '{"text": "hi"}', "--db", str(resolve_db_path()))
    assert made.returncode == 0, made.stderr
    window = make_window((demo_server.url, "Demo server"))
    tools = window.workbench.tools
    assert tools.model.rowCount() > 0 and window.servers.current().name == "Demo server"
    switch_language(language)
    try:
        key = f"stdio:{SERVER}"
        row = window.servers.model.row_of(key)
        assert row >= 0, [window.servers.model.index(r, 0).data() for r in range(window.servers.model.rowCount())]
        window.servers.view.setCurrentIndex(window.servers.model.index(row, 0))
        assert window.servers.current().url == key
        said = SAID[language].format(server=SERVER)
        assert tools.model.rowCount() == 0  # not the demo server's tools under this server's name
        assert not window.workbench.run_button.isEnabled()
        assert said in window.status.text()
        assert said in " ".join(label.text() for label in tools.findChildren(QLabel))

        def accept(dialog: ServerDialog) -> int:
            assert dialog.as_command.isChecked() and dialog.command.line.text() == SERVER
            dialog.accept()
            return ServerDialog.DialogCode.Accepted

        monkeypatch.setattr(ServerDialog, "exec", accept)
        qtbot.mouseClick(window.servers.edit_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: tools.model.rowCount() > 0, timeout=20000)
        assert tools.select_tool("echo") and window.servers.current().url == key
    finally:
        switch_language("en")


def test_replaying_its_step_asks_which_configured_server(qtbot, make_window, demo_server) -> None:
    """Replay of a step that server made asks which configured server to use (before: the status line
    said the server had no command configured, and nothing was replayed)."""
    made = cli_here("call", "--stdio", SERVER, "echo", "--args", '{"text": "hi"}', "--db", str(resolve_db_path()))
    assert made.returncode == 0, made.stderr
    window = make_window((demo_server.url, "Demo server"), wait_tools=False)
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    tab.reload()
    qtbot.waitUntil(lambda: tab.select_runs([1]) and tab.timeline_pane.model.rowCount() > 0, timeout=5000)
    tab.timeline_pane.view.selectRow(0)
    qtbot.waitUntil(lambda: tab.detail.step is not None and tab.detail.step.run_id == 1, timeout=5000)
    qtbot.mouseClick(tab.detail.replay, Qt.MouseButton.LeftButton)
    dialog = window.workbench.replay_dialog
    assert dialog is not None and dialog.isVisible(), window.status.text()
    assert "command server that is not configured here" in dialog.why.text()
    # Only servers that can be spoken to are offered: not the command server listed by its health only.
    assert [dialog.servers.itemData(i) for i in range(dialog.servers.count())] == [demo_server.url]
    with qtbot.waitSignal(window.engine.submitted, timeout=5000) as submitted:
        dialog.accept()
    replay = submitted.args[0]
    assert replay.server_url == demo_server.url and replay.tool == "echo"
    if replay.running:
        with qtbot.waitSignal(replay.finished, timeout=15000):
            pass
    assert replay.outcome.status == "ok"
