"""A budget of more than a week kept where the window reads one: a server's in a run database an older version
wrote (``servers set --budget`` and the server dialog refuse one now), a stored step's (an imported trace's
``budgetS``) that Replay calls again. Used, the operation's countdown overflowed on each paint of the operations
list (OverflowError: no tool was listed, nothing ran). Now the default applies, and the window says why. Its
server's Edit dialog did not open (decimal.InvalidOperation writing 1e308 out, 309 digits): it shows "1E308",
refused with the largest allowed as ``--budget`` is, and takes a usable one in its place."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.mcp import DEFAULT_BUDGET_SECONDS
from inspector.runs import RunStep, StepKind
from inspector.store import ServerRegistry
from tests.gui.test_main_window import choose, finished
from tests.gui.test_replay_step import _select_step, _stored_tool_step
from tests.gui.test_server_dialog_signin import in_dialog


def test_a_servers_stored_budget_beyond_a_week_gives_way_to_the_default(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"), budget_s=1e308)
    assert window.workbench.budget_label.text() == ("Budget: 20 s, the default (this server's stored 1E308 s "
                                                    "cannot be used)")
    choose(window, "echo")
    window.workbench.arguments.form.root.fields["text"].edit.setText("hi")
    window.workbench.arguments.form.root.fields["text"].changed.emit()
    qtbot.keyClick(window.workbench.arguments.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    task = window.workbench.operations.current
    assert finished(qtbot, task).status == "ok" and task.budget_s == DEFAULT_BUDGET_SECONDS


def test_a_step_recorded_with_a_budget_beyond_a_week_is_replayed_with_the_default(qtbot, make_window,
                                                                                  demo_server) -> None:
    window = make_window((demo_server.url, "Demo"), wait_tools=False)
    tab, run_id = _stored_tool_step(window, "tools/call echo", "live", demo_server.url, RunStep(
        kind=StepKind.TOOL, round=0, duration_ms=3.0, tool_name="echo", tool_arguments={"text": "again"},
        tool_result="again", tool_is_error=False, budget_s=1e308))
    _select_step(qtbot, tab, run_id)
    with qtbot.waitSignal(window.engine.submitted, timeout=5000) as submitted:
        tab.detail.replay.click()
    assert window.status.text() == ("The step's budget, 1E308 s, is more than a week: the replay gets the server's "
                                    "budget or the default.")
    replay = submitted.args[0]
    assert finished(qtbot, replay).status == "ok" and replay.budget_s == DEFAULT_BUDGET_SECONDS


@pytest.mark.parametrize(("language", "refused"), [
    ("en", "The budget can be at most 604,800 seconds (a week)."),
    ("de", "Das Budget kann höchstens 604.800 Sekunden betragen (eine Woche)."),
])
def test_the_server_dialog_shows_a_stored_budget_beyond_a_week_shortened_and_refused(
        qtbot, make_window, demo_server, language: str, refused: str) -> None:
    window = make_window((demo_server.url, "Demo server"), budget_s=1e308, wait_tools=False)

    def shown(dialog, seen: dict) -> bool:
        field = dialog.budget_field
        seen["shown"] = (field.edit.text(), field.error.text() if field.error.isVisibleTo(dialog) else None)
        field.edit.setText("30")  # what a user does next: a budget that can be used
        return True

    switch_language(language)
    try:
        seen = in_dialog(shown)
        window.admin.edit_current()
    finally:
        switch_language("en")
    assert "error" not in seen, seen
    assert seen.get("shown") == ("1E308", refused), seen
    assert seen.get("accepted"), seen
    assert ServerRegistry(window.store.db).get(demo_server.url).budget_s == 30
