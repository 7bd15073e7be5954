"""Every item model passes qtmodeltester; every control of the window has an accessible name."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, timezone

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabWidget,
    QToolButton,
    QWidget,
)

from inspector.gui.workbench.servers_model import ServersModel
from inspector.gui.workbench.tools_model import ToolFilter, ToolsModel
from inspector.store import ServerRecord

TOOLS = [{"name": "echo", "description": "Echo the <b>text</b> back"},
         {"name": "hang", "description": "Never answers"},
         {"name": "add", "description": "Adds numbers"},
         {"description": "a tool without a name is not listed"}]


def test_servers_model(qtmodeltester) -> None:
    model = ServersModel()
    model.set_records([
        ServerRecord("http://127.0.0.1:1/mcp", "Demo server", None, (), datetime.now(timezone.utc), 12.0, 12, 1, 3,
                     tool_error_count=2),
        ServerRecord("http://127.0.0.1:2/mcp", None, 5.0, (), None, None, 0, 0, 0)])
    qtmodeltester.check(model)
    first = model.index(0, 0)
    assert first.data() == "Demo server\n12\u00a0ok · 3\u00a0failed (2\u00a0tool errors) · 3\u00a0cancelled"
    assert model.index(1, 0).data().startswith("http://127.0.0.1:2/mcp")
    assert first.data(Qt.ItemDataRole.AccessibleTextRole) == (
        "Demo server: 12 ok · 3 failed (2 tool errors) · 3 cancelled")


def test_tools_model_and_filter(qtmodeltester) -> None:
    model = ToolsModel()
    model.set_tools(TOOLS)
    qtmodeltester.check(model)
    assert model.rowCount() == 3
    # Tooltips are rich text in Qt: the server's description is escaped, never interpreted.
    assert "&lt;b&gt;text&lt;/b&gt;" in model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    proxy = ToolFilter()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    proxy.set_text("NUMBERS")
    assert [proxy.index(r, 0).data() for r in range(proxy.rowCount())] == ["add"]
    proxy.set_text("h")
    assert {proxy.index(r, 0).data() for r in range(proxy.rowCount())} == {"echo", "hang"}
    qtmodeltester.check(proxy)


def test_structured_content_tree_model(qtmodeltester) -> None:
    from inspector.gui.workbench.result_view import structured_model

    model = structured_model({"sum": 3, "notes": [{"text": "<img src=x>"}], "ok": True})
    qtmodeltester.check(model)
    assert model.rowCount() == 3
    notes = model.index(1, 0)
    assert model.index(1, 1).data() == "list of 1 item"
    assert model.index(0, 1, model.index(0, 0, notes)).data() == "<img src=x>"


@pytest.mark.parametrize(("language", "listed", "keyed"), [
    ("en", "list of 1,200 items", "object of 700 items"),
    ("de", "Liste mit 1.200 Einträgen", "Objekt mit 700 Einträgen"),
])
def test_a_long_list_in_the_tree_is_counted_whole_in_the_locales_numbers(qtmodeltester, language, listed,
                                                                         keyed) -> None:
    """A list of 1,200 numbers said "list of 501 items": the 500 shown and the row saying how many more."""
    from inspector.gui.language import switch_language
    from inspector.gui.workbench.result_view import structured_model

    switch_language(language)
    try:
        model = structured_model({"numbers": list(range(1200)), "names": {f"k{n}": [n] for n in range(700)}})
    finally:
        switch_language("en")
    qtmodeltester.check(model)
    assert [model.index(row, 1).data() for row in range(2)] == [listed, keyed]
    numbers, names = model.index(0, 0), model.index(1, 0)
    assert model.rowCount(numbers) == 501  # shown still cut: 500 and the row saying how many more
    assert model.index(0, 1, model.index(0, 0, names)).data() == "0"


NAMED = (QAbstractButton, QLineEdit, QComboBox, QAbstractItemView, QPlainTextEdit, QAbstractSpinBox, QTabWidget)


def _unnamed(root: QWidget) -> list[str]:
    missing = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, NAMED) or not widget.isVisibleTo(root):
            continue
        if isinstance(widget, QAbstractItemView) and widget.parent() is not None and isinstance(
                widget.parent().parent(), QComboBox):
            continue  # a combo box's popup list is named through its combo
        name = widget.accessibleName() or (widget.text() if isinstance(widget, QAbstractButton) else "")
        if not name.strip():
            missing.append(f"{type(widget).__name__} {widget.objectName()!r} in {type(widget.parent()).__name__}")
    return missing


def test_every_control_of_the_window_has_an_accessible_name(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    for tool in ("echo", "write_note", "slow_task"):
        assert window.workbench.tools.select_tool(tool)
        task = window.workbench.run_current_tool() if tool != "write_note" else None
        if task is not None:
            with qtbot.waitSignal(task.finished, timeout=10000):
                pass
        assert _unnamed(window) == []
    bar = window.workbench.operations.detail
    assert bar.accessibleName() == "Budget bar" and "ok" in bar.accessibleDescription()
    probe = QLineEdit(window.centralWidget())
    probe.setObjectName("probe")
    probe.show()
    assert _unnamed(window) == ["QLineEdit 'probe' in ServersSplitter"]  # the walk does see the controls


# -- what a screen reader hears (AT-SPI on Linux: Qt's accessible interfaces, as the bridge reads them) --

BARE_NUMBER = re.compile(r"^\s*\d+\s*$")


def _heard_problems(root: QWidget) -> list[str]:
    """Controls of ``root`` a screen reader would misname: a combo box known only by its value, a
    clear button without a name, a name that is a bare number, a countdown without its value."""
    problems = []
    for widget in root.findChildren(QWidget):
        where = f"{type(widget).__name__} {widget.objectName()!r}"
        if isinstance(widget, QToolButton) and isinstance(widget.parent(), QLineEdit):
            # A line edit's clear button shows only once there is text: checked whether shown or not.
            if not QAccessible.queryAccessibleInterface(widget).text(QAccessible.Text.Name).strip():
                problems.append(f"unnamed clear button of {widget.parent().accessibleName()!r}")
            continue
        if not widget.isVisibleTo(root):
            continue
        iface = QAccessible.queryAccessibleInterface(widget)
        if iface is None:
            continue
        name = iface.text(QAccessible.Text.Name)
        if isinstance(widget, QComboBox):
            labels = [label.text(QAccessible.Text.Name)
                      for label, _relation in iface.relations(QAccessible.RelationFlag.Label)]
            labels = [text for text in labels if text.strip() and text != widget.currentText()]
            if (not name.strip() or name == widget.currentText()) and not labels:
                problems.append(f"combo box named by its value {widget.currentText()!r}: {where}")
        if isinstance(widget, NAMED) and BARE_NUMBER.match(name):
            problems.append(f"named by a bare number {name!r}: {where}")
    return problems


def _countdown_problems(label: QLabel) -> list[str]:
    seconds = re.search(r"\d+", label.text())
    name = QAccessible.queryAccessibleInterface(label).text(QAccessible.Text.Name)
    if seconds is None or seconds.group() not in name:
        return [f"countdown {label.text()!r} is named {name!r}, without its value"]
    return []


def test_a_screen_reader_hears_what_each_control_is_and_holds(qtbot, make_window, demo_server) -> None:
    from inspector.gui.dialogs.elicitation_dialog import ElicitationDialog
    from inspector.gui.dialogs.server_dialog import ServerDialog
    from inspector.gui.dialogs.settings_dialog import SettingsDialog
    from inspector.gui.workbench.server_requests import PendingQuestion

    window = make_window((demo_server.url, "Demo server"))
    window.workbench.tools.filter.setText("e")
    assert _heard_problems(window) == []
    window.tabs.setCurrentWidget(window.runs_tab)
    assert _heard_problems(window) == []
    # Each combo box is labelled by what it chooses, never by what it shows.
    iface = QAccessible.queryAccessibleInterface(window.runs_tab.outcome_filter)
    assert [label.text(QAccessible.Text.Name) for label, _r in iface.relations(QAccessible.RelationFlag.Label)] == [
        "Filter runs by outcome"]
    clear = window.workbench.tools.filter.findChild(QToolButton)
    assert QAccessible.queryAccessibleInterface(clear).text(QAccessible.Text.Name) == "Clear the tool filter"

    settings = SettingsDialog(window.settings, str(window.db_path), window)
    qtbot.addWidget(settings)
    settings.show()
    assert _heard_problems(settings) == []
    server = ServerDialog(window, url=demo_server.url, name="Demo server")
    qtbot.addWidget(server)
    server.show()
    assert _heard_problems(server) == []

    # The arguments form (the same form a question's fields use): array items by field and position.
    window.tabs.setCurrentWidget(window.workbench)
    schema = {"type": "object", "properties": {
        "tags": {"type": "array", "items": {"type": "string"}},
        "colour": {"type": "string", "enum": ["red", "green"]}}, "required": ["colour"]}
    window.workbench.arguments.set_schema(schema, {"tags": ["a", "b", "c"], "colour": "red"})
    tags = window.workbench.arguments.form.field_at(("tags",))
    # Fields added to a shown form are shown by Qt on the next turn of the event loop.
    qtbot.waitUntil(lambda: tags.items[2].edit.isVisibleTo(window))
    assert _heard_problems(window) == []
    assert [item.edit.accessibleName() for item in tags.items] == ["tags, item 1", "tags, item 2", "tags, item 3"]
    tags.remove_buttons[id(tags.items[0])].click()  # the others move up, and are named again
    assert [item.edit.accessibleName() for item in tags.items] == ["tags, item 1", "tags, item 2"]
    assert [button.accessibleName() for button in tags.remove_buttons.values()] == [
        "Remove item 1 of tags", "Remove item 2 of tags"]
    assert window.workbench.arguments.form.value()["tags"] == ["b", "c"]

    loop = asyncio.new_event_loop()
    try:
        question = ElicitationDialog(PendingQuestion(loop, loop.create_future(), 30, "Tags?", schema), "Demo", window)
        qtbot.addWidget(question)
        question.show()
        if question.form is not None:
            question.form.set_value({"tags": ["a", "b", "c"], "colour": "red"})
        assert _heard_problems(question) == []
        assert _countdown_problems(question.countdown.label) == []
        name = QAccessible.queryAccessibleInterface(question.countdown.label).text(QAccessible.Text.Name)
        assert re.fullmatch(r"Time left: (29|30) s", name)
        question.reject()
    finally:
        loop.close()

    # The checks see what they look for.
    probe = QComboBox(window.centralWidget())
    probe.addItem("debug")
    probe.setAccessibleName("A name Linux does not read")
    probe.show()
    bare = QLineEdit(window.centralWidget())
    bare.setAccessibleName("2")
    bare.show()
    cleared = QLineEdit(window.centralWidget())
    cleared.setAccessibleName("probe")
    cleared.setClearButtonEnabled(True)
    assert sorted(_heard_problems(window)) == [
        "combo box named by its value 'debug': QComboBox ''", "named by a bare number '2': QLineEdit ''",
        "unnamed clear button of 'probe'"]
    silent = QLabel("12 seconds left")
    silent.setAccessibleName("Time left")
    assert _countdown_problems(silent) != []
