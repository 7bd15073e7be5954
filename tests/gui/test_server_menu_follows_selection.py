"""The Server menu's entries on the selected server (Edit server…, Remove server, Test connection, Console
(stderr)) are enabled as the Servers panel's buttons are: while a server is selected, the Console only for a
server started as a command (as the list's context menu has it). Before, with no server selected (a window
opened on a trace, a first start without the demo entry) they stood enabled beside the panel's greyed
buttons, and choosing one did nothing at all."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QApplication

from inspector.gui.help_menu import plain_action_text
from tests.gui.test_command_servers import SDK, add_command

ON_A_SERVER = ("Edit server…", "Remove server", "Test connection")
CONSOLE = "Console (stderr)"


def server_menu(window) -> dict[str, bool]:
    """The Server menu's entries, each enabled or not."""
    (top,) = [action for action in window.menuBar().actions() if plain_action_text(action.text()) == "Server"]
    return {plain_action_text(action.text()): action.isEnabled() for action in top.menu().actions()
            if not action.isSeparator()}


def test_without_a_selected_server_its_entries_are_greyed_as_its_buttons(qtbot, make_window) -> None:
    window = make_window(wait_tools=False)
    assert window.servers.current() is None and not window.servers.edit_button.isEnabled()
    entries = server_menu(window)
    assert entries["Add server…"]
    assert not any(entries[name] for name in (*ON_A_SERVER, CONSOLE)), entries


def test_they_follow_the_selection_and_the_console_a_command_server(qtbot, make_window, sdk_server) -> None:
    window = make_window((sdk_server.url, "sdk server"))
    assert window.servers.current() is not None
    entries = server_menu(window)
    assert all(entries[name] for name in ON_A_SERVER) and not entries[CONSOLE], entries
    add_command(window, SDK)  # selected once saved; its program starts with its first operation
    qtbot.waitUntil(lambda: window.servers.current().transport == "stdio")
    assert all(server_menu(window)[name] for name in (*ON_A_SERVER, CONSOLE))
    window.servers.view.setCurrentIndex(QModelIndex())
    QApplication.processEvents()
    assert window.servers.current() is None
    assert not any(server_menu(window)[name] for name in (*ON_A_SERVER, CONSOLE))
