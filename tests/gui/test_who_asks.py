"""Who is asking (issue 18, item 3): a server's question and sampling dialogs name the server, its
address and the operation in a header the server's text cannot imitate; they close when their
operation ends or is cancelled; an operation that asks again and again can be told to stop.
Against the official SDK server on 127.0.0.1, in the real window.

The handshake era is pinned (``era="handshake"``, and the ``sdk_server`` fixture's endpoint): the
test server's tools ask by sending requests on the stream, which only that era has. A question
asked in rounds (the stateless era) is tested against the demo server in test_stateless_questions."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from PySide6.QtWidgets import QLabel

from inspector.agent.chat_model import OpenAIChatModel
from inspector.agent.sampling import ChatModelSampler
from inspector.gui.dialogs.elicitation_dialog import ElicitationDialog, SamplingDialog
from inspector.gui.language import switch_language
from tests.gui.test_server_questions import finish
from tests.support.asgi_server import serve_asgi
from tests.support.fake_chat_model import FakeChatModel, answer

#: A question that writes what our header writes, with a right-to-left override in it.
SPOOF = "Server: demo — http://127.0.0.1:1/mcp\nOperation: tools/call transfer \u202eexe.txt · run #1"


def open_dialog(qtbot, window, kind=ElicitationDialog):
    """The window's one open dialog of ``kind`` (waits for it)."""
    qtbot.waitUntil(lambda: any(isinstance(d, kind) and d.isVisible() for d in window.dialogs.values()),
                    timeout=5000)
    [dialog] = [d for d in window.dialogs.values() if isinstance(d, kind) and d.isVisible()]
    return dialog


def header_texts(dialog) -> list[str]:
    return [label.text() for label in dialog.header.findChildren(QLabel)]


def call(window, tool: str, arguments: dict, budget_s: float = 20):
    return window.engine.call_tool(window.admin.endpoint_for(window.servers.current()), tool, arguments,
                                   budget_s=budget_s)


@contextmanager
def model_allowed(window):
    """The window may use a fake model for sampling (as when allowed in the Settings)."""
    fake = FakeChatModel(lambda body: answer("yes"))
    with serve_asgi(fake.app(), path="/v1") as model_url:
        window.answers.set_sampler(ChatModelSampler(OpenAIChatModel(model_url, "fake-model"), "fake-model"))
        yield fake


def test_the_question_names_server_address_and_operation_and_the_servers_text_stays_below(
        qtbot, make_window, sdk_server) -> None:
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    task = call(window, "keep_asking", {"times": 1, "message": SPOOF})
    dialog = open_dialog(qtbot, window)
    # The header: our record of the operation, one value per line.
    assert dialog.header.server.text() == "sdk server"
    assert dialog.header.address.text() == sdk_server.url
    operation = dialog.header.operation.text()
    assert operation.startswith("tools/call keep_asking · run\u00a0") and " · started " in operation
    assert "sdk server" in dialog.windowTitle()
    # The server's words are in the box labelled as the server's, never in the header.
    assert dialog.server_text.title() == "The server says:"
    assert dialog.server_text.isAncestorOf(dialog.message) and not dialog.header.isAncestorOf(dialog.message)
    assert not any("demo" in text or "transfer" in text for text in header_texts(dialog))
    assert dialog.message.textFormat().name == "PlainText"
    assert "\u202e" not in dialog.message.text() and "\ufffd" in dialog.message.text()
    assert all(label.textFormat().name == "PlainText" for label in dialog.header.findChildren(QLabel)
               if label.text())
    dialog.decline_button.click()
    assert finish(qtbot, task).record.result.content == "answers: decline"


def test_the_sampling_dialog_names_who_asks(qtbot, make_window, sdk_server) -> None:
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    with model_allowed(window):
        task = call(window, "keep_sampling", {"times": 1})
        dialog = open_dialog(qtbot, window, SamplingDialog)
        assert dialog.header.server.text() == "sdk server"
        assert dialog.header.address.text() == sdk_server.url
        assert dialog.header.operation.text().startswith("tools/call keep_sampling · run\u00a0")
        assert dialog.server_text.isAncestorOf(dialog.messages)
        assert "Once more?" in dialog.messages.toPlainText()
        dialog.allow_button.click()
        assert finish(qtbot, task).record.result.content == "sampled: yes"


@pytest.mark.parametrize("how", ["esc", "cancel button"])
def test_cancelling_the_operation_closes_its_question(qtbot, make_window, sdk_server, how: str) -> None:
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    task = call(window, "keep_asking", {"times": 3})
    dialog = open_dialog(qtbot, window)
    if how == "esc":
        window.cancel_action.trigger()
    else:
        qtbot.waitUntil(window.workbench.cancel_button.isEnabled, timeout=2000)
        window.workbench.cancel_button.click()
    assert task.cancel_signal.fired
    assert not dialog.isVisible()  # at once, not when a countdown runs out
    assert dialog.answered == {"action": "cancel"}  # the MCP answer for a question dismissed unanswered
    assert finish(qtbot, task).status == "cancelled"
    assert not window.dialogs


def test_a_question_closes_when_its_operation_ends(qtbot, make_window, sdk_server) -> None:
    """The tool asks on the side and ends without waiting for the answer: the question goes with it."""
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    task = call(window, "ask_and_leave", {}, budget_s=30)
    dialog = open_dialog(qtbot, window)
    # Asked on the operation's own GET stream, not on the call's answer: still named.
    assert dialog.header.operation.text().startswith("tools/call ask_and_leave · run\u00a0")
    assert finish(qtbot, task).record.result.content == "left"
    assert not dialog.isVisible()
    assert not window.dialogs


def test_a_question_closes_when_its_operation_runs_out_of_budget(qtbot, make_window, sdk_server) -> None:
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    with model_allowed(window):
        question = call(window, "keep_asking", {"times": 1}, budget_s=3)
        sampling = call(window, "keep_sampling", {"times": 1}, budget_s=3)
        asked = open_dialog(qtbot, window)
        confirming = open_dialog(qtbot, window, SamplingDialog)
        # Not the dialogs' own countdown (it may tick a fifth of a second late): the operation's end.
        asked.countdown.timer.stop()
        confirming.countdown.timer.stop()
        shut_when_told: list[bool] = []
        # Checked in the first slot after the operation's end reached the window.
        question.finished.connect(lambda _outcome: shut_when_told.append(not asked.isVisible()))
        sampling.finished.connect(lambda _outcome: shut_when_told.append(not confirming.isVisible()))
        assert finish(qtbot, question, 5000).status == "failed"  # timed out
        finish(qtbot, sampling, 5000)  # the tool hears its request cut off and may still answer
    assert shut_when_told == [True, True]
    assert asked.answered is None and confirming.answered is None  # nobody answered: the time ran out


def test_stop_asking_declines_the_operations_later_questions_without_a_dialog(qtbot, make_window,
                                                                               sdk_server) -> None:
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    opened: list = []
    window.answers.question.connect(opened.append)
    task = call(window, "keep_asking", {"times": 5})
    dialog = open_dialog(qtbot, window)
    assert dialog.stop_button.text() == "Stop asking for this operation"
    dialog.stop_button.click()
    outcome = finish(qtbot, task)
    assert outcome.record.result.content == "answers: decline, decline, decline, decline, decline"
    assert len(opened) == 1 and not window.dialogs  # one dialog; the other four never reached the window
    model = window.log_dock.view.model
    qtbot.waitUntil(lambda: model.rowCount() >= 4, timeout=10000)
    lines = [model.index(row, 5).data() for row in range(model.rowCount())]
    declined = [line for line in lines if "stop asking for this operation" in line]
    assert len(declined) == 4
    assert declined[0] == ("elicitation/create: declined (you told the window to stop asking for this "
                           "operation)")
    row = lines.index(declined[0])
    try:  # our sentence follows the language, as the rest of the line does
        switch_language("de")
        assert "angewiesen, für diesen Vorgang nicht mehr zu fragen" in model.index(row, 5).data()
    finally:
        switch_language("en")
    # Only that operation: the next one asks again.
    again = call(window, "keep_asking", {"times": 1})
    open_dialog(qtbot, window).decline_button.click()
    assert finish(qtbot, again).record.result.content == "answers: decline"


def test_stop_asking_refuses_the_operations_later_sampling_without_a_dialog(qtbot, make_window,
                                                                            sdk_server) -> None:
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    opened: list = []
    window.answers.sampling.connect(opened.append)
    with model_allowed(window) as fake:
        task = call(window, "keep_sampling", {"times": 3})
        open_dialog(qtbot, window, SamplingDialog).stop_button.click()
        assert finish(qtbot, task).record.result.content == "sampled: refused, refused, refused"
    assert len(opened) == 1 and fake.requests == []


def test_a_refusal_in_a_german_window_is_sent_and_kept_in_english(qtbot, make_window, sdk_server) -> None:
    # The window's reasons went to the server, and into the step, in the window's language: a German
    # window's export carried 'Der Benutzer hat dem Server die Verwendung des Modells verweigert.'
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    try:
        switch_language("de")
        with model_allowed(window) as fake:
            task = call(window, "keep_sampling", {"times": 1})
            open_dialog(qtbot, window, SamplingDialog).refuse_button.click()
            record = finish(qtbot, task).record
    finally:
        switch_language("en")
    assert record.result.content == "sampled: refused" and fake.requests == []
    [entry] = record.step.to_payload()["serverRequests"]
    assert [exchange["answered"]["message"] for exchange in entry["exchanges"]] == [
        "The user refused to let the server use the model."]
