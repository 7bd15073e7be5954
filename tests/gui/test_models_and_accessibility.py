"""Every item model passes qtmodeltester; every control of the window has an accessible name."""

from __future__ import annotations

from datetime import datetime, timezone

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTabWidget,
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
    assert first.data() == "Demo server\n12 ok · 2 tool errors · 1 failed · 3 cancelled"
    assert model.index(1, 0).data().startswith("http://127.0.0.1:2/mcp")
    assert first.data(Qt.ItemDataRole.AccessibleTextRole) == (
        "Demo server: 12 ok · 2 tool errors · 1 failed · 3 cancelled")


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
    assert _unnamed(window) == ["QLineEdit 'probe' in QSplitter"]  # the walk does see the controls
