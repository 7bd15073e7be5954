"""The operations list in German at 1,024 px: an ended operation's state keeps what it says whole. Its whole
words "✗ fehlgeschlagen: Zeitüberschreitung · 3,0 s" are wider than the state's room there, and the row said
"✗ fehlgeschlagen: Zeitüberschreitu…" and "✗ fehlgeschlagen: Tool-Fehler · 0,0…" (the time cut). Where
they do not fit, the row says the kind of failure alone beside the failed mark and the time, as the
timeline's Outcome cell does in a narrow column; the row's tooltip keeps the whole words."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.workbench.operations_model import state_text
from tests.gui.test_main_window import choose
from tests.gui.test_server_questions import finish


def test_an_ended_rows_state_is_never_cut_in_german_at_1024_px(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"), budget_s=2.5)
    switch_language("de")
    try:
        window.resize(1024, 768)
        qtbot.waitUntil(lambda: window.width() == 1024)
        tasks = {}
        for tool in ("hang", "fail", "echo"):
            choose(window, tool)
            if tool == "echo":
                window.workbench.arguments.set_arguments({"text": "Hallo"})
            tasks[tool] = task = window.workbench.run_current_tool()
            assert task is not None, (tool, window.status.text())
            finish(qtbot, task, timeout_ms=15000)
        assert tasks["hang"].state.ending == "timed_out" and tasks["fail"].outcome.status == "failed"
        operations = window.workbench.operations
        view, delegate = operations.view, operations.delegate
        QApplication.processEvents()
        view.viewport().grab()  # paints every row: states_shown is what the paint showed
        metrics = view.fontMetrics()
        for tool, word in (("hang", "Zeitüberschreitung"), ("fail", "Tool-Fehler"), ("echo", "ok")):
            task = tasks[tool]
            index = operations.model.index(operations.model.row_of(task), 0)
            room = delegate.parts(view.visualRect(index), metrics)
            width = room.cancel.right() - room.state.left() + 1  # an ended row's state has the Cancel's room too
            shown = delegate.states_shown[task]
            assert "…" not in shown, (tool, shown, width)
            assert word in shown and shown.endswith(" s"), (tool, shown)  # the kind, and the time whole
            assert metrics.horizontalAdvance(shown) <= width, (tool, shown, width)
            # The whole words stay the row's tooltip.
            assert state_text(task) in index.data(Qt.ItemDataRole.ToolTipRole)
        assert delegate.states_shown[tasks["hang"]].startswith("✗ Zeitüberschreitung · ")
    finally:
        switch_language("en")
