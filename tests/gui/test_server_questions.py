"""The window answers a server's requests: the question dialog (form from the schema, Accept,
Decline, Cancel, the budget counting down and running out, a JSON editor for a schema the form
cannot show), the sampling confirmation, and a list change refreshing the catalogue. Against the
official SDK server.

The handshake era is pinned (``era="handshake"``, and the ``sdk_server`` fixture's endpoint): the
test server's tools ask by sending requests on the stream, which only that era has. A question
asked in rounds (the stateless era) is tested against the demo server in test_stateless_questions."""

from __future__ import annotations

import asyncio
import json

import pytest
from PySide6.QtWidgets import QPlainTextEdit

from inspector.agent.chat_model import OpenAIChatModel
from inspector.agent.sampling import ChatModelSampler
from inspector.gui.dialogs.elicitation_dialog import ElicitationDialog, SamplingDialog, budget_left_text
from inspector.gui.workbench.engine import OperationsEngine
from inspector.gui.workbench.server_requests import PendingQuestion, WindowAnswers
from tests.support.asgi_server import serve_asgi
from tests.support.fake_chat_model import FakeChatModel, answer


def finish(qtbot, task, timeout_ms: int = 10000):
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=timeout_ms):
            pass
    return task.outcome


def open_dialogs(answers: WindowAnswers, kind=ElicitationDialog) -> list:
    """Open a dialog for every question, as the window does, and keep them for the test."""
    opened: list = []

    def show(pending: PendingQuestion) -> None:
        dialog = kind(pending, server="sdk server")
        answers.withdrawn.connect(lambda gone, d=dialog, p=pending: d.reject() if gone is p else None)
        dialog.show()
        opened.append(dialog)

    (answers.question if kind is ElicitationDialog else answers.sampling).connect(show)
    return opened


def test_the_user_fills_the_form_and_accepts(qtbot, engine, answers, sdk_server) -> None:
    dialogs = open_dialogs(answers)
    task = engine.call_tool(sdk_server.endpoint, "ask_name", {}, budget_s=10)
    qtbot.waitUntil(lambda: bool(dialogs), timeout=5000)
    [dialog] = dialogs
    qtbot.addWidget(dialog)
    assert dialog.message.text() == "What is your name?"
    assert dialog.message.textFormat().name == "PlainText"
    assert dialog.form is not None and dialog.form.field_at(("name",)) is not None
    assert "seconds of the operation's budget left." in dialog.countdown.label.text()
    dialog.form.set_value({"name": "Grace"})
    dialog.accept_button.click()
    outcome = finish(qtbot, task)
    assert outcome.record.result.content == "elicitation answered: accept"
    assert dialog.answered == {"action": "accept", "content": {"name": "Grace"}}
    assert not dialog.isVisible()


@pytest.mark.parametrize("button, action", [("decline_button", "decline"), ("cancel_button", "cancel")])
def test_decline_and_cancel(qtbot, engine, answers, sdk_server, button: str, action: str) -> None:
    dialogs = open_dialogs(answers)
    task = engine.call_tool(sdk_server.endpoint, "ask_name", {}, budget_s=10)
    qtbot.waitUntil(lambda: bool(dialogs), timeout=5000)
    qtbot.addWidget(dialogs[0])
    getattr(dialogs[0], button).click()
    assert finish(qtbot, task).record.result.content == f"elicitation answered: {action}"


def test_the_form_is_prefilled_with_the_schemas_defaults(qtbot, engine, answers, sdk_server) -> None:
    dialogs = open_dialogs(answers)
    task = engine.call_tool(sdk_server.endpoint, "ask_profile", {}, budget_s=10)
    qtbot.waitUntil(lambda: bool(dialogs), timeout=5000)
    qtbot.addWidget(dialogs[0])
    dialogs[0].accept_button.click()
    told = json.loads(finish(qtbot, task).record.result.content)
    assert told == {"action": "accept", "content": {"name": "Ada", "age": 36, "score": 9.5, "status": "active",
                                                    "verified": True}}


def test_the_budget_running_out_while_the_dialog_is_open_closes_it(qtbot, engine, answers, sdk_server) -> None:
    dialogs = open_dialogs(answers)
    # The question reaches the window some 0.3 s after the call (0.7 s at load 6): a budget of 4 s
    # leaves it room on a loaded machine (2 s once left too little).
    task = engine.call_tool(sdk_server.endpoint, "ask_name", {}, budget_s=4)
    qtbot.waitUntil(lambda: bool(dialogs), timeout=10000)
    dialog = dialogs[0]
    qtbot.addWidget(dialog)
    assert dialog.countdown.label.text() in [budget_left_text(left) for left in (4, 3, 2, 1)]
    outcome = finish(qtbot, task, 15000)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10000)
    assert dialog.answered is None  # nobody answered: the client stopped waiting
    exchange = outcome.record.step.to_payload()["serverRequests"][0]["exchanges"][0]
    assert exchange["declined"] is True and exchange["answered"]["code"] == -32001


def test_a_schema_the_form_cannot_show_is_answered_as_json(qtbot) -> None:
    loop = asyncio.new_event_loop()
    try:
        future = loop.create_future()
        schema = {"type": "object", "properties": {"address": {"type": "object", "default": {"city": "Graz"}}}}
        dialog = ElicitationDialog(PendingQuestion(loop, future, 30, "Where?", schema))
        qtbot.addWidget(dialog)
        assert dialog.form is None and dialog.json_editor is not None
        assert json.loads(dialog.json_editor.toPlainText()) == {"address": {"city": "Graz"}}
        dialog.json_editor.setPlainText("[1, 2]")
        dialog.accept_button.click()
        assert dialog.answered is None and "must be a JSON object" in dialog.problem.text()
        dialog.json_editor.setPlainText('{"address": {"city": "Wien"}}')
        dialog.accept_button.click()
        loop.run_until_complete(asyncio.sleep(0))
        assert future.result() == {"action": "accept", "content": {"address": {"city": "Wien"}}}
    finally:
        loop.close()


def test_budget_left_is_plural_aware() -> None:
    assert budget_left_text(1) == "1 second of the operation's budget left."
    assert budget_left_text(4.2) == "5 seconds of the operation's budget left."


# -- sampling ------------------------------------------------------------------------------------

@pytest.mark.parametrize("allow", [True, False])
def test_sampling_is_confirmed_by_the_user(qtbot, sdk_server, allow: bool) -> None:
    fake = FakeChatModel(lambda body: answer("A cat sat."))
    with serve_asgi(fake.app(), path="/v1") as model_url:
        answers = WindowAnswers(sampler=ChatModelSampler(OpenAIChatModel(model_url, "fake-model"), "fake-model"))
        engine = OperationsEngine(None, answers=answers)
        engine.start()
        try:
            dialogs = open_dialogs(answers, SamplingDialog)
            task = engine.call_tool(sdk_server.endpoint, "summarise", {"text": "The cat sat on the mat."},
                                    budget_s=10)
            qtbot.waitUntil(lambda: bool(dialogs), timeout=5000)
            dialog = dialogs[0]
            qtbot.addWidget(dialog)
            [shown] = dialog.findChildren(QPlainTextEdit)
            assert "user: The cat sat on the mat." in shown.toPlainText()
            assert "System: Summarise in five words." in shown.toPlainText()
            (dialog.allow_button if allow else dialog.refuse_button).click()
            content = finish(qtbot, task).record.result.content
        finally:
            engine.shutdown()
    if allow:
        assert content == "sampled by fake-model: A cat sat."
        assert len(fake.requests) == 1
    else:
        assert content.startswith("sampling failed") and "refused" in content
        assert fake.requests == []


# -- list changes --------------------------------------------------------------------------------

def test_a_list_change_on_an_operations_own_stream_reloads_the_catalogue(qtbot, make_window, sdk_server) -> None:
    """An operation opens its own session's stream and hears the change (with the window's listener
    stopped, nothing else could)."""
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    window.listener.stop()
    first = window.workbench.tools.task
    assert first is not None and not first.running
    window.engine.call_tool(window.admin.endpoint_for(window.servers.current()), "change_tools", {}, budget_s=10)
    qtbot.waitUntil(lambda: window.workbench.tools.task is not first, timeout=5000)
    qtbot.waitUntil(lambda: not window.workbench.tools.task.running, timeout=5000)
    assert window.workbench.tools.model.rowCount() > 0


def test_the_window_opens_a_dialog_for_a_question(qtbot, make_window, sdk_server) -> None:
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    task = window.engine.call_tool(window.admin.endpoint_for(window.servers.current()), "ask_name", {}, budget_s=10)
    qtbot.waitUntil(lambda: bool(window.dialogs), timeout=5000)
    [dialog] = window.dialogs.values()
    assert isinstance(dialog, ElicitationDialog) and dialog.isVisible()
    dialog.decline_button.click()
    assert finish(qtbot, task).record.result.content == "elicitation answered: decline"
    assert not window.dialogs
    # The result pane names what the server asked and what it was told.
    window.workbench.result.show_task(task)
    shown = window.workbench.result.text.toPlainText()
    assert 'The server asked "What is your name?"; the answer was decline.' in shown


def test_a_question_on_the_operations_own_stream_is_heard_while_the_window_listens(qtbot, make_window,
                                                                                   sdk_server) -> None:
    """The window's listening session is a session of its own: a server asks an operation's session on
    that session's stream, so the operation must hold it even while the window listens."""
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    qtbot.waitUntil(lambda: window.listener.listening_to == sdk_server.url, timeout=5000)
    endpoint = window.admin.endpoint_for(window.servers.current())
    task = window.engine.call_tool(endpoint, "ask_on_the_side", {}, budget_s=10)
    qtbot.waitUntil(lambda: bool(window.dialogs), timeout=5000)
    [dialog] = window.dialogs.values()
    dialog.decline_button.click()
    assert finish(qtbot, task).record.result.content == "asked on the side: decline"


def test_sampling_is_offered_only_once_allowed_in_the_settings(qtbot, make_window) -> None:
    from inspector.gui.dialogs.settings_dialog import SettingsDialog

    window = make_window()
    assert "sampling" not in window.answers.handler().capabilities()
    dialog = SettingsDialog(window.settings, str(window.db_path), window)
    qtbot.addWidget(dialog)
    dialog.allow_sampling.setChecked(True)
    dialog.accept()  # no model given: refused with a sentence, nothing saved
    assert not dialog.sampling_error.isHidden() and not window.settings.allow_sampling
    assert "the model server's address" in dialog.sampling_error.text()
    dialog.sampling_url.setText("http://127.0.0.1:9/v1")
    dialog.sampling_model.setText("fake-model")
    dialog.accept()
    assert window.settings.allow_sampling and window.settings.sampling_model == "fake-model"
    from inspector.gui.workbench.server_requests import sampler_from_settings

    window.answers.set_sampler(sampler_from_settings(window.settings))
    assert window.answers.handler().capabilities() == {"elicitation": {"form": {}}, "sampling": {}}


def test_a_stored_steps_detail_shows_what_the_server_asked(qtbot, tmp_path) -> None:
    from datetime import datetime, timezone

    from inspector.gui.runs.step_detail import StepDetail
    from inspector.runs import RunStep, StepKind
    from inspector.store import RunStore
    from inspector.store.browse import step_in_full, timeline_page

    store = RunStore.open(tmp_path / "runs.db")
    try:
        run_id = store.start_run("tools/call ask", "live", None)
        asked = [{"method": "elicitation/create", "count": 1, "declined": False, "exchanges": [
            {"asked": {"message": "Your name?", "requestedSchema": {}}, "answered": {"action": "cancel"},
             "declined": False, "durationMs": 812.5}]}]
        notes = [{"method": "notifications/message", "via": "GET", "level": "warning", "data": "disk almost full"}]
        store.append_step(run_id, RunStep(kind=StepKind.REQUEST, round=0, duration_ms=900.0, content="x",
                                          server_requests=asked, server_notifications=notes),
                          datetime.now(timezone.utc))
        (row,) = timeline_page(store, run_id, 0, 10)
        detail = StepDetail()
        qtbot.addWidget(detail)
        detail.show_step(step_in_full(store, row.id))
        shown = detail.server_side.toPlainText()
        assert "The server asked the client for elicitation/create once; the client answered." in shown
        assert 'The server asked "Your name?"; the answer was cancel.' in shown
        assert "Server log (warning): disk almost full" in shown
        assert '"durationMs": 812.5' in shown
        detail.show_step(None)
        assert detail.server_side.toPlainText() == ""
    finally:
        store.close()
