"""A default budget in the settings file beyond a week (1e308 s, written by hand or by another tool):
the settings dialog and ``--budget`` refuse it, but the window used it, and every operation's countdown
overflowed (OverflowError in the operations list and the budget bar: no tool was listed, nothing could
be run). Now it is named at start-up as a value that cannot be used, and the 20-second default applies."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer

from inspector.gui.app import run_window
from inspector.gui.settings import AppSettings
from inspector.mcp import DEFAULT_BUDGET_SECONDS, MAXIMUM_BUDGET_SECONDS
from tests.gui.test_main_window import choose, finished
from tests.gui.test_unreadable_settings import close_when_shown


@pytest.mark.parametrize("budget", ["1e308", "604801"])
def test_a_budget_beyond_a_week_is_named_and_the_default_applies(qtbot, tmp_path: Path, _isolated_settings: Path,
                                                                 budget: str) -> None:
    _isolated_settings.write_text(f"[operations]\ndefault_budget_s={budget}\n", encoding="utf-8")
    assert AppSettings().default_budget_s == DEFAULT_BUDGET_SECONDS
    seen: dict[str, str] = {}
    QTimer.singleShot(50, lambda: close_when_shown(seen))
    assert run_window(str(tmp_path / "runs.db")) == 0
    assert f'operations/default_budget_s = "{budget}"' in seen.get("said", ""), seen
    assert f"default_budget_s={budget}" in _isolated_settings.read_text(encoding="utf-8")  # kept as it was


def test_a_week_itself_is_used(_isolated_settings: Path) -> None:
    _isolated_settings.write_text(f"[operations]\ndefault_budget_s={MAXIMUM_BUDGET_SECONDS}\n", encoding="utf-8")
    assert AppSettings().default_budget_s == MAXIMUM_BUDGET_SECONDS


def test_a_tool_runs_with_the_default_when_the_settings_budget_is_beyond_a_week(
        qtbot, make_window, demo_server, _isolated_settings: Path) -> None:
    _isolated_settings.write_text("[operations]\ndefault_budget_s=1e308\n", encoding="utf-8")
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "echo")
    window.workbench.arguments.form.root.fields["text"].edit.setText("hi")
    window.workbench.arguments.form.root.fields["text"].changed.emit()
    qtbot.keyClick(window.workbench.arguments.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    task = window.workbench.operations.current
    outcome = finished(qtbot, task)
    assert outcome.status == "ok" and task.budget_s == DEFAULT_BUDGET_SECONDS
