"""The budget shown is the budget used: both dialogs say, as the user types, what operations will get
(the one-second floor, whole-second grants), in English and German; the workbench's header and a real
operation's bar name the same deadline; and the overrun a refused operation shows is the admitted one."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from inspector.demo import DemoOptions, DemoServer
from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.language import switch_language
from inspector.gui.settings import AppSettings
from inspector.i18n.formatting import format_seconds


@pytest.fixture
def german() -> Iterator[None]:
    switch_language("de")
    yield
    switch_language("en")


def typed(qtbot, dialog, text: str) -> str:
    """Type into the dialog's budget field as a user does; return the line under it (no OK pressed)."""
    dialog.budget.clear()
    qtbot.keyClicks(dialog.budget, text)
    field = dialog.budget_field
    return field.effective.text() if not field.effective.isHidden() else field.error.text()


@pytest.mark.parametrize("make", [lambda: ServerDialog(url="http://127.0.0.1:9/mcp"),
                                  lambda: SettingsDialog(AppSettings(), "/tmp/runs.db")],
                         ids=["server", "settings"])
def test_both_dialogs_say_the_budget_operations_get_as_it_is_typed(qtbot, make) -> None:
    dialog = make()
    qtbot.addWidget(dialog)
    line = typed(qtbot, dialog, "0.02")
    assert line.startswith("Operations get 1 s: 0.02 s is below the 1-second floor and is raised to it.")
    assert "rounded up to whole seconds" in line and "just under 2 s" in line
    line = typed(qtbot, dialog, "1.5")
    assert line.startswith("Operations get 1.5 s.") and "just under 2.5 s" in line
    line = typed(qtbot, dialog, "2,5")  # a decimal comma, as written in German
    assert line.startswith("Operations get 2.5 s.") and "just under 3.5 s" in line
    line = typed(qtbot, dialog, "20")
    assert line.startswith("Operations get 20 s.") and "at least 1 s" in line
    line = typed(qtbot, dialog, "soon")
    assert line == "The budget must be a positive number of seconds, e.g. 20."
    assert dialog.budget_field.effective.isHidden()
    typed(qtbot, dialog, "2,5")
    assert dialog.budget_error.isHidden()


def test_the_server_dialog_keeps_a_decimal_comma_and_says_what_empty_means(qtbot) -> None:
    dialog = ServerDialog(url="http://127.0.0.1:9/mcp", default_budget_s=lambda: 30.0)
    qtbot.addWidget(dialog)
    assert typed(qtbot, dialog, "").startswith("Empty: the default budget applies, 30 s.")
    typed(qtbot, dialog, "2,5")
    assert dialog.settings().budget_s == 2.5


def test_the_settings_dialog_saves_a_decimal_comma(qtbot) -> None:
    settings = AppSettings()
    dialog = SettingsDialog(settings, "/tmp/runs.db")
    qtbot.addWidget(dialog)
    typed(qtbot, dialog, "2,5")
    dialog.accept()
    assert settings.default_budget_s == 2.5


def test_in_german_the_dialogs_say_it_in_german(qtbot, german) -> None:
    for dialog in (ServerDialog(url="http://127.0.0.1:9/mcp"), SettingsDialog(AppSettings(), "/tmp/runs.db")):
        qtbot.addWidget(dialog)
        line = typed(qtbot, dialog, "0,02")
        assert line.startswith("Vorgänge erhalten 1 s: 0,02 s liegt unter der Untergrenze von 1 s")
        assert "ganze Sekunden" in line and "knapp unter 2 s" in line
        assert typed(qtbot, dialog, "2,5").startswith("Vorgänge erhalten 2,5 s.")
        assert typed(qtbot, dialog, "1.5").startswith("Vorgänge erhalten 1,5 s.")
    # A switch of language says the line again in the new language.
    switch_language("en")
    assert dialog.budget_field.effective.text().startswith("Operations get 1.5 s.")


def finished(qtbot, task):
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=10000):
            pass
    return task.outcome


def test_the_header_and_a_real_operations_deadline_agree_on_a_sub_second_budget(qtbot, make_window,
                                                                              demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"), budget_s=0.02)
    assert window.workbench.budget_label.text() == "Budget: 1 s (0.02 s raised to the 1-second floor)"
    assert window.workbench.tools.select_tool("echo")
    window.workbench.arguments.set_arguments({"text": "hi"})
    task = window.workbench.run_current_tool()
    assert finished(qtbot, task).status == "ok"
    assert window.workbench.operations.current is task
    bar = window.workbench.operations.detail
    # The bar paints "deadline {seconds} s" from its state's budget: the header names the same number.
    assert task.state.budget_s == 1
    assert window.workbench.budget_label.text().startswith(f"Budget: {format_seconds(bar.state.budget_s)} s")


def test_a_refused_operation_runs_at_most_its_budget_plus_the_admitted_rounding(qtbot, make_window) -> None:
    # What was seen: budget 0.02 s, "deadline 1 s", a refused operation that ran 1.9 s. Each handshake leg
    # takes 0.7 s (0.3 s short of its grant, so a loaded machine does not time it out): initialize is
    # granted 1 s (the floor), leaves ~0.3 s; notifications/initialized is granted 1 s again (0.3 rounded
    # up), ends at ~1.4 s, past the deadline; tools/call is not sent.
    # The handshake era, pinned: the grants of its two handshake legs are what this test checks.
    with DemoServer(DemoOptions(handshake_delay_s=0.7)) as demo:
        window = make_window((demo.url, "slow handshake"), budget_s=30, era="handshake")
        assert window.workbench.tools.select_tool("echo")
        # Changed behind the window's back: with this budget the catalogue could not load at all.
        window.admin.registry.save_server(demo.url, budget_s=0.02)
        window.admin.reload_servers()
        window.workbench.arguments.set_arguments({"text": "never sent"})
        began = time.monotonic()
        task = window.workbench.run_current_tool()
        outcome = finished(qtbot, task)
        took = time.monotonic() - began
        assert outcome.record.error.kind.value == "exhausted_budget" and task.state.ending == "refused"
        grants = [(leg.method, leg.granted_s) for leg in task.state.legs]
        assert grants == [("initialize", 1), ("notifications/initialized", 1), ("tools/call", None)]
        # Past the 1 s deadline by the second leg's whole-second grant, never by a second or more.
        assert 1.0 < took < 2.0 + 0.3, took
        assert "1-second budget" in window.workbench.result.text.toPlainText()
