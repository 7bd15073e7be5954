"""A server's questions during a played run (issue 26): the tool the agent calls asks the user
(``ask_user`` of the demo server, elicitation); the window opens the workbench's dialog, naming the
played run and its tool; the answer reaches the tool and the run's tool step records the exchange.
A cancel of the run while the dialog is open closes it, and the run ends cancelled, never failed.
Played on a fresh demo server: in a process of its own, as the Play tab does by default, for the first test;
in a thread of this process for the others (tests/support/threaded_demo.py)."""

from __future__ import annotations

import time

import pytest

from inspector.gui.dialogs.elicitation_dialog import ElicitationDialog
from inspector.gui.language import switch_language
from tests.gui.test_play_tab import play_tab, stored
from tests.gui.test_screenshots import big_window, save
from tests.gui.test_who_asks import open_dialog


def stored_steps(run_id):
    """The run's steps as stored (the whole steps), read with a connection of the test's own."""
    from inspector.store import RunStore, resolve_db_path

    store = RunStore.open(resolve_db_path())
    try:
        return [entry.step for entry in store.iter_steps(run_id)]
    finally:
        store.close()


def play_asking(qtbot, window):
    room = play_tab(window).room
    assert room.choices.choose("user-answers")
    run = room.play()
    assert run is not None
    dialog = open_dialog(qtbot, window, ElicitationDialog)  # the demo server's process starts first
    qtbot.waitUntil(lambda: run.run_id is not None, timeout=5000)
    return room, run, dialog


def test_a_played_runs_question_opens_the_dialog_and_the_answer_reaches_the_tool(qtbot, make_window,
                                                                                 play_demo_process) -> None:
    window = make_window()
    room, run, dialog = play_asking(qtbot, window)
    # The dialog names the played run and the tool that asks, from our record, never the server's words.
    # The server started for the run alone, not the window's "Demo server" entry (another address, its own health).
    assert dialog.header.server.text() == "Fresh demo server"
    assert dialog.header.address.text() == run.server_url
    switch_language("de")
    try:
        assert dialog.header.server.text() == "Demo-Server (frisch)"
    finally:
        switch_language("en")
    operation = dialog.header.operation.text()
    assert operation.startswith("tools/call ask_user · played run “scenario user-answers” · run\u00a0"
                                f"{run.run_id} · started ")
    assert "Fresh demo server" in dialog.windowTitle()
    # What it asks is not what its note says: asked "What should the note say?", it wrote its own words
    # whatever the answer, before an audience that had just typed one.
    assert dialog.message.text() == "How do you like the demo so far?"
    assert "seconds of the operation's budget left." in dialog.countdown.label.text()
    dialog.form.set_value({"answer": "teal"})
    dialog.accept_button.click()
    qtbot.waitUntil(lambda: not run.running, timeout=30000)
    assert not dialog.isVisible() and not window.dialogs
    assert run.status == "ok", run.error
    assert [(row.kind, row.text, row.state) for row in run.rows if row.kind == "tool"] == [
        ("tool", "ask_user", "ok"), ("tool", "write_note", "ok")]
    # Stored as the workbench stores a question: what the server asked and what it was told.
    record, steps = stored(run.run_id)
    assert record.status == "ok"
    ask = next(step for step in stored_steps(run.run_id) if step.tool_name == "ask_user")
    assert ask.tool_result == "The user answered: teal"
    [request] = ask.to_payload()["serverRequests"]
    assert request["method"] == "elicitation/create"
    [exchange] = request["exchanges"]
    assert exchange["declined"] is False
    assert exchange["asked"]["message"] == "How do you like the demo so far?"
    assert exchange["answered"] == {"action": "accept", "content": {"answer": "teal"}}
    note = next(step for step in stored_steps(run.run_id) if step.tool_name == "write_note")
    assert note.tool_arguments["text"] == "asked the user" and "note" not in exchange["asked"]["message"]
    assert run.final_answer == "Done: the question went out, and a note says so."


def test_a_played_runs_question_can_be_declined(qtbot, make_window) -> None:
    window = make_window()
    room, run, dialog = play_asking(qtbot, window)
    dialog.decline_button.click()
    qtbot.waitUntil(lambda: not run.running, timeout=30000)
    assert run.status == "ok", run.error
    ask = next(step for step in stored_steps(run.run_id) if step.tool_name == "ask_user")
    assert ask.tool_result == "The user declined the question."
    assert ask.to_payload()["serverRequests"][0]["exchanges"][0]["answered"] == {"action": "decline"}


def test_cancelling_the_run_while_its_question_is_open_closes_the_dialog(qtbot, make_window) -> None:
    window = make_window()
    room, run, dialog = play_asking(qtbot, window)
    assert window.play.cancel_action.isEnabled()
    window.play.cancel_action.trigger()  # Run → Cancel the played run (Esc while the tab is shown)
    assert not dialog.isVisible() and not window.dialogs  # at once, not when the cancel has landed
    qtbot.waitUntil(lambda: not run.running, timeout=10000)
    assert run.status == "cancelled"
    assert "cancelled" in room.status.text() and "failed" not in room.status.text()
    ask = run.rows[-1]
    assert (ask.text, ask.state) == ("ask_user", "cancelled")
    # Stored: the run cancelled, never failed; the asking call cancelled; nothing after it.
    record, steps = stored(run.run_id)
    assert record.status == "cancelled"
    assert steps == [("llm", None, ""), ("tool", "ask_user", "cancelled")]


def test_the_runs_cancel_reaches_the_worker_before_the_questions_answer(qtbot, make_window) -> None:
    """A server may end its tool at once when told "cancel": the run's cancel must have torn the call
    down by then, or the call ends ok and the agent starts its next round. A slot that holds the GUI
    thread after the dialog has answered (and lets the worker run) stands for a window busy then."""
    window = make_window()
    room, run, dialog = play_asking(qtbot, window)
    run.cancelling.connect(lambda: time.sleep(0.5))  # after the dialog's own slot: it has answered
    window.play.cancel_action.trigger()
    qtbot.waitUntil(lambda: not run.running, timeout=10000)
    assert run.status == "cancelled"
    assert [(row.kind, row.state) for row in run.rows] == [("model", "ok"), ("tool", "cancelled")]
    record, steps = stored(run.run_id)
    assert record.status == "cancelled"
    assert steps == [("llm", None, ""), ("tool", "ask_user", "cancelled")]


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_of_a_played_runs_question(qtbot, make_window, language) -> None:
    """The window while the played run waits on the user (its status bar counting the run) and the
    dialog naming the run and its tool, in English and German, for a person to look at."""
    window = big_window(make_window)
    switch_language(language)
    try:
        room, run, dialog = play_asking(qtbot, window)
        playing = "1 run playing" if language == "en" else "1 Lauf wird vorgeführt"
        assert playing in window.status.text()
        assert save(window, f"play-question-window-{language}").exists()
        assert save(dialog, f"play-question-dialog-{language}").exists()
        dialog.decline_button.click()
        qtbot.waitUntil(lambda: not run.running, timeout=30000)
        assert save(window, f"play-question-ended-{language}").exists()
    finally:
        switch_language("en")


def test_a_played_runs_sampling_request_is_confirmed_in_the_window(qtbot, make_window, sdk_server) -> None:
    """A real model (a fake one on 127.0.0.1) calls the SDK server's ``summarise``, which asks for
    the window's model (sampling): the sampling dialog names the played run's call; Allow lets it."""
    from inspector.agent.chat_model import OpenAIChatModel
    from inspector.agent.sampling import ChatModelSampler
    from inspector.gui.dialogs.elicitation_dialog import SamplingDialog
    from tests.support.asgi_server import serve_asgi
    from tests.support.fake_chat_model import FakeChatModel, answer, tool_then_report

    agent = FakeChatModel(tool_then_report("summarise", {"text": "The cat sat on the mat."}))
    sampled = FakeChatModel(lambda body: answer("A cat sat."))
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    room = play_tab(window).room
    with serve_asgi(agent.app(), path="/v1") as agent_url, serve_asgi(sampled.app(), path="/v1") as model_url:
        window.answers.set_sampler(ChatModelSampler(OpenAIChatModel(model_url, "fake-model"), "fake-model"))
        assert room.choices.choose("model") and room.choices.choose_server(sdk_server.url)
        room.choices.model_url.setText(agent_url)
        room.choices.model_name.setText("agent-model")
        room.choices.prompt.setText("Summarise it.")
        run = room.play()
        dialog = open_dialog(qtbot, window, SamplingDialog)
        assert dialog.header.server.text() == "sdk server"
        assert dialog.header.operation.text().startswith("tools/call summarise · played run “")
        assert "user: The cat sat on the mat." in dialog.messages.toPlainText()
        dialog.allow_button.click()
        qtbot.waitUntil(lambda: not run.running, timeout=20000)
    assert run.status == "ok", run.error
    assert len(sampled.requests) == 1
    summarise = next(step for step in stored_steps(run.run_id) if step.tool_name == "summarise")
    assert summarise.tool_result == "sampled by fake-model: A cat sat."
    assert summarise.to_payload()["serverRequests"][0]["method"] == "sampling/createMessage"
