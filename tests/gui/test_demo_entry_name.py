"""The window's demo entry is stored as "Demo server" in every language (a database and its exports are the
same whoever wrote them), and the German window showed those words where the rest of it says "Demo-Server":
"Demo server · zustandslos" in the Servers panel, "Empfängt Meldungen von Demo server." in the Server log,
"tools/list @ Demo server" in Running and in the Runs tab's Server column and filter. Shown, the entry now
says its name in the window's language; only the demo entry under that name, not another server the user
named "Demo server", and not the entry once renamed. The real window with its real demo server process."""

from __future__ import annotations

from PySide6.QtCore import QTimer

from inspector.gui.language import switch_language
from inspector.gui.runs import runs_model
from inspector.gui.workbench.operations_model import title_text
from tests.gui.test_demo_entry import demo_entry, launch  # noqa: F401 - the fixture, with its window

ELSEWHERE = "http://127.0.0.1:9/mcp"  # a server the user named "Demo server" too


def _server_rows(window) -> list[str]:
    model = window.servers.model
    return [model.data(model.index(row, 0)).split("\n")[0] for row in range(model.rowCount())]


def _runs_servers(qtbot, window) -> tuple[list[str], list[str]]:
    """The Runs tab's Server cells and its server filter's entries (read again, as the tab does when shown)."""
    window.tabs.setCurrentWidget(window.runs_tab)
    runs = window.runs_tab.runs
    qtbot.waitUntil(lambda: runs.rowCount() > 0)
    column = runs_model.COLUMNS.index("server")
    combo = window.runs_tab.server_filter
    return ([runs.data(runs.index(row, column)) for row in range(runs.rowCount())],
            [combo.itemText(row) for row in range(1, combo.count())])


def _tools_listed(qtbot, window) -> None:
    qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=30000)


def test_the_demo_entry_says_its_name_in_the_windows_language(qtbot, launch) -> None:  # noqa: F811
    switch_language("de")  # before the window opens, as a German user's
    try:
        window = launch()
        entry = demo_entry(window)
        assert entry.name == "Demo server"  # stored as data, the same in every language
        window.admin.save_server(ELSEWHERE, "Demo server", None, {}, set())
        window.admin.reload_servers(select_url=entry.url)
        _tools_listed(qtbot, window)
        qtbot.waitUntil(lambda: sorted(_server_rows(window)) == ["Demo server", "Demo-Server · zustandslos"])
        assert window.servers.name_line.text() == "Demo-Server"
        titles = [title_text(task) for task in window.engine.tasks if task.server.key == entry.url]
        assert titles and all(title.endswith(" @ Demo-Server") for title in titles), titles
        # "Verbindung zu Demo-Server…" comes first: wait for the listening line itself.
        qtbot.waitUntil(lambda: window.log_dock.view.state.text().startswith("Empfängt Meldungen von Demo-Server."),
                        timeout=20000)
        cells, choices = _runs_servers(qtbot, window)
        # The user's own "Demo server" (its failed tools/list, selected as it was added) keeps its name.
        assert set(cells) == {"Demo-Server", "Demo server"} and sorted(choices) == ["Demo server", "Demo-Server"]

        switch_language("en")
        assert sorted(_server_rows(window)) == ["Demo server", "Demo server · stateless"]
        cells, choices = _runs_servers(qtbot, window)
        assert set(cells) == {"Demo server"} and choices == ["Demo server", "Demo server"]
    finally:
        switch_language("en")
    assert [record.name for record in window.admin.registry.all()] == ["Demo server", "Demo server"]


def test_the_server_dialog_shows_the_name_and_keeps_the_stored_one_unless_changed(qtbot, launch) -> None:  # noqa: F811
    switch_language("de")
    try:
        window = launch()
        entry = demo_entry(window)
        shown: list[str] = []

        def answer(name: str | None) -> None:
            dialog = window.admin.dialog
            shown.append(dialog.name.text())
            if name is not None:
                dialog.name.setText(name)
            dialog.accept()

        QTimer.singleShot(200, lambda: answer(None))  # opened and saved as it is
        window.admin.edit_server(window.admin.registry.get(entry.url))
        assert shown == ["Demo-Server"]
        assert window.admin.registry.get(entry.url).name == "Demo server"  # not "Demo-Server" for an English user

        QTimer.singleShot(200, lambda: answer("Mein Demo"))  # renamed: the user's own name, in every language
        window.admin.edit_server(window.admin.registry.get(entry.url))
        assert window.admin.registry.get(entry.url).name == "Mein Demo"
        assert _server_rows(window) == ["Mein Demo · zustandslos"]
        switch_language("en")
        assert _server_rows(window) == ["Mein Demo · stateless"]
    finally:
        switch_language("en")


def test_the_server_logs_state_says_the_demo_entrys_name_in_the_language_switched_to(qtbot, launch) -> None:  # noqa: F811
    """The Server log's state line kept the name its session began with: switched to German, it said "Empfängt
    Meldungen von Demo server." (and "Listening to Demo-Server." switched back)."""
    window = launch()
    demo_entry(window)
    state = window.log_dock.view.state
    qtbot.waitUntil(lambda: state.text().startswith("Listening to Demo server."), timeout=20000)
    try:
        switch_language("de")
        assert state.text().startswith("Empfängt Meldungen von Demo-Server."), state.text()
        switch_language("en")
        assert state.text().startswith("Listening to Demo server."), state.text()
    finally:
        switch_language("en")
