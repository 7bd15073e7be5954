"""A question asked in rounds (the stateless era, multi round-trip requests) from the window: what a
user gets by default against a server of the official SDK (the demo server). The server answers
``input_required``; the window asks the person in the same dialog as a question on the stream, the
client sends the call again with the answer, and the budget bar shows the wait as its own kind."""

from __future__ import annotations

import time

from inspector.gui.dialogs.elicitation_dialog import ElicitationDialog
from inspector.gui.language import switch_language
from inspector.gui.widgets.budget_bar_words import leg_label, leg_tooltip
from inspector.gui.widgets.wire_text import leg_title
from tests.gui.test_screenshots import big_window, save
from tests.gui.test_server_questions import finish
from tests.gui.test_who_asks import open_dialog

ROUNDS = ["tools/call", "input: elicitation/create", "tools/call (round 2)"]


def ask(window, question: str = "Which colour?"):
    window.workbench.tools.select_tool("ask_user")
    window.workbench.arguments.set_arguments({"question": question})
    return window.workbench.run_current_tool()


def test_the_dialog_opens_for_a_question_asked_in_rounds_and_the_answer_reaches_the_tool(
        qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    catalogue = window.workbench.tools.task
    assert [leg.method for leg in catalogue.state.legs] == ["server/discover", "tools/list"]  # first contact
    task = ask(window)
    dialog = open_dialog(qtbot, window, ElicitationDialog)
    assert dialog.message.text() == "Which colour?"
    dialog.form.set_value({"answer": "teal"})
    dialog.accept_button.click()
    outcome = finish(qtbot, task)
    assert outcome.status == "ok" and outcome.record.result.content == "The user answered: teal"
    assert [leg.method for leg in task.state.legs] == ROUNDS
    window.workbench.operations.select(task)
    bar = window.workbench.operations.detail
    assert [segment.kind for segment in bar.current_geometry().segments] == ["ok", "waiting", "ok"]
    assert not window.dialogs


def test_a_question_asked_in_rounds_can_be_declined(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    task = ask(window)
    open_dialog(qtbot, window, ElicitationDialog).decline_button.click()
    assert finish(qtbot, task).record.result.content == "The user declined the question."


def test_screenshot_of_the_bar_of_a_question_asked_in_rounds(qtbot, make_window, demo_server) -> None:
    """The window after an answered question, in English and German, for a person to look at."""
    window = big_window(make_window, (demo_server.url, "Demo server"), budget_s=6)
    task = ask(window)
    dialog = open_dialog(qtbot, window, ElicitationDialog)
    dialog.form.set_value({"answer": "teal"})
    asked = time.monotonic()
    qtbot.waitUntil(lambda: time.monotonic() - asked >= 2, timeout=5000)  # a person takes a moment
    dialog.accept_button.click()
    finish(qtbot, task)
    window.workbench.operations.select(task)
    kinds = [segment.kind for segment in window.workbench.operations.detail.current_geometry().segments]
    assert kinds == ["ok", "waiting", "ok"]
    for language in ("en", "de"):
        switch_language(language)
        assert save(window, f"mrtr-question-{language}").exists()
        assert save(window.workbench.operations.detail, f"mrtr-bar-{language}", grey=True).exists()
    switch_language("en")


def test_the_operations_cancel_reaches_the_worker_before_the_questions_answer(qtbot, make_window, demo_server) -> None:
    """Cancelled while its question is open, the call is cancelled, even if the server would end its tool
    at once when told "cancel" (the demo server does): the cancel tears the call down first, then the
    dialog closes answering "cancel". A slot that holds the GUI thread after the dialog has answered
    (and lets the worker run) stands for a window busy then."""
    window = make_window((demo_server.url, "Demo server"))
    task = ask(window)
    dialog = open_dialog(qtbot, window, ElicitationDialog)
    task.cancelling.connect(lambda: time.sleep(0.5))  # after the dialog's own slot: it has answered
    window.workbench.cancel_current()
    assert not dialog.isVisible()
    assert dialog.answered == {"action": "cancel"}  # the MCP answer for a question dismissed unanswered
    outcome = finish(qtbot, task)
    assert outcome.status == "cancelled", outcome.record.result if outcome.record else outcome
    assert [leg.method for leg in task.state.legs] == ROUNDS[:2]  # no round sent after the cancel
    assert not window.dialogs


def test_the_legs_of_the_rounds_are_named_in_the_windows_language(qtbot, make_window, demo_server) -> None:
    """The bar's labels and tips and the Wire tab's titles said "tools/call (round 2)" in a German window."""
    window = make_window((demo_server.url, "Demo server"))
    task = ask(window)
    open_dialog(qtbot, window, ElicitationDialog).decline_button.click()
    finish(qtbot, task)
    legs = task.state.legs
    assert [leg.method for leg in legs] == ROUNDS  # kept in English
    said = {}
    try:
        for language in ("en", "de"):
            switch_language(language)
            said[language] = ([leg_tooltip(leg, 0.01).splitlines()[0].split(":")[0] for leg in legs[1:]],
                              leg_label(legs[2], 0.01).split(" 0")[0],
                              leg_title(3, legs[2].method, legs[2], None).split(" · ")[0])
    finally:
        switch_language("en")
    assert said["en"] == (["input", "tools/call (round 2)"], "tools/call (round 2)", "3. tools/call (round 2)")
    assert said["de"] == (["Eingabe", "tools/call (Runde 2)"], "tools/call (Runde 2)", "3. tools/call (Runde 2)")
