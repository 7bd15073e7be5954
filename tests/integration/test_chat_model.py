"""The OpenAI-compatible chat model adapter against a fake endpoint on 127.0.0.1 and the demo server."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest

from inspector.agent import AgentRun, ModelError, ModelRequest, StoreSink
from inspector.agent.chat_model import OpenAIChatModel, completions_url, parse_answer
from inspector.cli import main
from inspector.demo import DemoServer
from inspector.mcp import ServerEndpoint
from inspector.runs import StepKind, step_outcome
from inspector.store import RunStore, ServerRegistry
from tests.support.asgi_server import serve_asgi
from tests.support.fake_chat_model import BREAK, FakeChatModel, RawEvents, answer, event, stream_of, tool_then_report

SECRET = "sk-test-very-secret-0123456789"


@pytest.fixture
def demo():
    with DemoServer() as server:
        yield server


def fake_endpoint(fake: FakeChatModel):
    return serve_asgi(fake.app(), path="/v1")


def kinds(outcome) -> list[tuple[str, int, str]]:
    return [(s.kind.value, s.round, step_outcome(s.to_payload())) for s in outcome.trace.steps]


def test_a_tool_call_round_trip_through_the_command_line(demo, tmp_path, capsys, monkeypatch):
    fake = FakeChatModel(tool_then_report("echo", {"text": "ping"}))
    db = tmp_path / "runs.db"
    monkeypatch.setenv("MY_MODEL_KEY", SECRET)
    with fake_endpoint(fake) as model_url:
        code = main(["agent", "--model-url", model_url, "--model", "fake-model", "--server", demo.url,
                     "--api-key-env", "MY_MODEL_KEY", "--db", str(db), "--json", "Say ping."])
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert report["status"] == "ok" and report["stop_reason"] == "answered"
    assert [(s["kind"], s["round"], s["outcome"]) for s in report["steps"]] == [
        ("request", 0, ""), ("llm", 1, ""), ("tool", 1, "ok"), ("llm", 2, "")]
    assert report["steps"][-1]["content"] == "The tool said: ping"
    # What the model was sent: the catalogue as tools, then the tool's answer under the call's id.
    first, second = fake.requests
    assert first["model"] == "fake-model"
    echo = next(tool for tool in first["tools"] if tool["function"]["name"] == "echo")
    assert echo["function"]["parameters"]["required"] == ["text"]
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "fake_0", "content": "ping"}
    assert second["messages"][-2]["tool_calls"][0]["function"] == {"name": "echo", "arguments": '{"text": "ping"}'}
    assert fake.headers[0]["authorization"] == f"Bearer {SECRET}"
    # The key is a secret: in no output and nowhere in the database file.
    assert SECRET not in out + err
    assert SECRET.encode() not in db.read_bytes()
    with RunStore.open(db) as store:
        llm = [s.step for s in store.iter_steps(report["run_id"]) if s.step.kind is StepKind.LLM][0]
        assert llm.requested_tool_calls[0]["name"] == "echo"
        assert (llm.prompt_tokens, llm.completion_tokens, llm.total_tokens) == (11, 7, 18)
        assert store.get_run(report["run_id"]).source == "live"


def play(model: OpenAIChatModel, server_url: str, **options):
    run = AgentRun(model, ServerEndpoint(server_url), "Do it.", **options)
    return run, asyncio.run(run.run())


def test_a_failed_tool_is_told_back_as_a_failure(demo):
    fake = FakeChatModel(tool_then_report("fail", {"reason": "the disk is full"}))
    with fake_endpoint(fake) as model_url:
        _, outcome = play(OpenAIChatModel(model_url, "fake-model"), demo.url)
    told = fake.requests[1]["messages"][-1]["content"]
    assert told.startswith("FAILED: the call to fail failed.") and "the disk is full" in told
    assert "CANCELLED" not in told
    assert kinds(outcome)[2] == ("tool", 1, "failed")
    assert outcome.status == "failed" and outcome.stop_reason == "answered"


def test_a_call_cancelled_on_its_own_is_told_back_as_a_cancel_and_the_run_goes_on(demo):
    fake = FakeChatModel(tool_then_report("hang", {}))
    with fake_endpoint(fake) as model_url:
        run = AgentRun(OpenAIChatModel(model_url, "fake-model"), ServerEndpoint(demo.url), "Wait for it.")

        def cancel_the_call() -> None:
            assert demo.state.hang_started.wait(10)
            run.cancel_current_call()

        threading.Thread(target=cancel_the_call, daemon=True).start()
        outcome = asyncio.run(run.run())
    told = fake.requests[1]["messages"][-1]["content"]
    assert told.startswith("CANCELLED: the call to hang was cancelled by the user while the server was working")
    assert "did not fail" in told and "FAILED" not in told
    assert kinds(outcome) == [("request", 0, ""), ("llm", 1, ""), ("tool", 1, "cancelled"), ("llm", 2, "")]
    assert outcome.status == "ok" and outcome.stop_reason == "answered"
    assert demo.state.hang_cancelled.wait(5)


def test_a_cancelled_run_cancels_the_call_in_flight_and_records_nothing_more(demo, tmp_path):
    fake = FakeChatModel(tool_then_report("hang", {}))
    with fake_endpoint(fake) as model_url, RunStore.open(tmp_path / "runs.db") as store:
        sink = StoreSink(store, "live")
        run = AgentRun(OpenAIChatModel(model_url, "fake-model"), ServerEndpoint(demo.url), "Wait.", sink=sink)

        def cancel_the_run() -> None:
            assert demo.state.hang_started.wait(10)
            run.cancel()

        threading.Thread(target=cancel_the_run, daemon=True).start()
        outcome = asyncio.run(run.run())
        stored = store.get_run(sink.run_id)
        health = ServerRegistry(store.db).get(stored.server)
    assert outcome.status == "cancelled" and outcome.stop_reason == "cancelled"
    assert kinds(outcome) == [("request", 0, ""), ("llm", 1, ""), ("tool", 1, "cancelled")]
    assert outcome.trace.steps[-1].cancelled_in_flight is True
    assert len(fake.requests) == 1  # the model was not asked again
    assert (stored.status, stored.step_count) == ("cancelled", 3)
    assert (health.failed_count, health.cancelled_count) == (0, 1)
    assert demo.state.hang_cancelled.wait(5)


def test_a_run_cancelled_while_the_model_thinks_records_no_model_step(demo):
    fake = FakeChatModel(lambda body: None)  # never answers
    with fake_endpoint(fake) as model_url:
        run = AgentRun(OpenAIChatModel(model_url, "fake-model"), ServerEndpoint(demo.url), "Think.")

        def cancel_the_run() -> None:
            assert fake.holding.wait(10)
            run.cancel()

        threading.Thread(target=cancel_the_run, daemon=True).start()
        outcome = asyncio.run(run.run())
    assert outcome.status == "cancelled"
    assert kinds(outcome) == [("request", 0, "")]


def test_a_model_that_answers_an_error_fails_the_run(demo):
    fake = FakeChatModel(lambda body: {"error": {"message": "model not loaded"}})
    fake.status = 503
    with fake_endpoint(fake) as model_url:
        _, outcome = play(OpenAIChatModel(model_url, "fake-model", api_key=SECRET), demo.url)
    assert outcome.status == "failed" and outcome.stop_reason == "model_error"
    assert "HTTP 503" in outcome.error and "model not loaded" in outcome.error
    llm = outcome.trace.steps[-1]
    assert (llm.kind, llm.finish_reason) == (StepKind.LLM, "error")
    assert SECRET not in json.dumps([s.to_payload() for s in outcome.trace.steps])


def test_an_unreachable_model_fails_the_run_with_a_sentence(demo):
    from tests.support.asgi_server import closed_port

    _, outcome = play(OpenAIChatModel(f"http://127.0.0.1:{closed_port()}/v1", "m"), demo.url)
    assert outcome.status == "failed" and "could not be reached" in outcome.error
    # Stored in English; said in the reader's language where it is shown.
    from inspector.i18n import set_language
    from inspector.i18n.details import localized_step_details
    from inspector.i18n.messages import translate

    assert str(outcome.error_sentence) == outcome.error
    # The model's step keeps the sentence as data beside the English: the timeline says it too.
    llm = outcome.trace.steps[-1].to_payload()
    assert llm["content"] == outcome.error and llm["wording"]["text"] == outcome.error
    set_language("de")
    try:
        assert "war nicht erreichbar" in translate(outcome.error_sentence)
        assert localized_step_details(llm).startswith("Das Modell unter ") and "war nicht erreichbar" in (
            localized_step_details(llm))
    finally:
        set_language("en")


def test_the_round_limit_stops_a_model_that_never_stops(demo):
    fake = FakeChatModel(lambda body: answer("Again.", [("echo", {"text": "x"})]))
    with fake_endpoint(fake) as model_url:
        _, outcome = play(OpenAIChatModel(model_url, "fake-model"), demo.url, max_rounds=2)
    assert outcome.stop_reason == "round_limit" and outcome.rounds == 2
    assert [k for k, _, _ in kinds(outcome)] == ["request", "llm", "tool", "llm", "tool"]


def test_answers_that_cannot_be_read_are_model_errors():
    for bad in ([], {"choices": []}, {"choices": [{"message": {"tool_calls": [{"function": {}}]}}]},
                {"choices": [{"message": {"tool_calls": [{"function": {"name": "x", "arguments": "{"}}]}}]}):
        with pytest.raises(ModelError, match="cannot read"):
            parse_answer(bad, "http://m")


def test_model_urls_and_the_key_never_shown():
    assert completions_url("http://127.0.0.1:11434/v1") == "http://127.0.0.1:11434/v1/chat/completions"
    assert completions_url("http://127.0.0.1:8080") == "http://127.0.0.1:8080/v1/chat/completions"
    with pytest.raises(ValueError):
        completions_url("ftp://x")
    model = OpenAIChatModel("http://user:pw@127.0.0.1:1/v1", "m", api_key=SECRET)
    assert SECRET not in repr(model) and "pw" not in model.label


def test_agent_command_refuses_a_missing_key_variable(capsys, monkeypatch):
    monkeypatch.delenv("NO_SUCH_KEY", raising=False)
    assert main(["agent", "--model-url", "http://127.0.0.1:1/v1", "--model", "m", "--server",
                 "http://127.0.0.1:2/mcp", "--api-key-env", "NO_SUCH_KEY", "hi"]) == 2
    assert "NO_SUCH_KEY is empty or not set" in capsys.readouterr().err


def test_the_key_from_the_default_variable_and_from_a_prompt(demo, tmp_path, capsys, monkeypatch):
    import getpass
    import sys

    fake = FakeChatModel(lambda body: answer("Nothing to do."))
    db = tmp_path / "runs.db"
    with fake_endpoint(fake) as model_url:
        monkeypatch.setenv("RUN_INSPECTOR_MODEL_API_KEY", SECRET)
        assert main(["agent", "--model-url", model_url, "--model", "m", "--server", demo.url, "--db", str(db),
                     "hi"]) == 0
        # No terminal here: the prompt itself is stood in for (getpass needs a real one).
        monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
        monkeypatch.setattr(getpass, "getpass", lambda prompt: SECRET + "-typed")
        assert main(["agent", "--model-url", model_url, "--model", "m", "--server", demo.url, "--db", str(db),
                     "--ask-api-key", "hi"]) == 0
    out, err = capsys.readouterr()
    assert [h["authorization"] for h in fake.headers] == [f"Bearer {SECRET}", f"Bearer {SECRET}-typed"]
    assert SECRET not in out + err and SECRET.encode() not in db.read_bytes()


def test_ask_api_key_without_a_terminal_is_a_usage_error(capsys, monkeypatch):
    import sys

    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)
    assert main(["agent", "--model-url", "http://127.0.0.1:1/v1", "--model", "m", "--server",
                 "http://127.0.0.1:2/mcp", "--ask-api-key", "hi"]) == 2
    assert "--ask-api-key needs a terminal" in capsys.readouterr().err


# -- the answer streamed ---------------------------------------------------------------------------

def ask(model: OpenAIChatModel, told: list[str]):
    request = ModelRequest(1, ({"role": "user", "content": "Go."},), ())
    return asyncio.run(model.respond(request, on_text=told.append))


def test_a_streamed_answer_is_told_as_it_arrives_and_ends_as_the_whole_answer():
    text = "First I look at the notes, then I write one down."
    fake = FakeChatModel(lambda body: answer(text, [("write_note", {"title": "t", "body": "b" * 40})]),
                         piece_chars=5)
    fake.hold_after = 4  # the role, then three pieces of text: then the test looks
    told: list[str] = []
    ended: dict = {}
    with fake_endpoint(fake) as model_url:
        model = OpenAIChatModel(model_url, "fake-model")
        worker = threading.Thread(target=lambda: ended.update(turn=ask(model, told)), daemon=True)
        worker.start()
        assert fake.stream_held.wait(10)
        # Text before the end: what came so far, and no more.
        deadline = time.monotonic() + 5
        while told[-1:] != [text[:15]] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert told == [text[:5], text[:10], text[:15]] and "turn" not in ended
        fake.resume.set()
        worker.join(10)
    turn = ended["turn"]
    assert told[-1] == text == turn.content and all(text.startswith(shown) for shown in told)
    assert [(call.id, call.name, call.arguments) for call in turn.tool_calls] == [
        ("fake_0", "write_note", {"title": "t", "body": "b" * 40})]
    assert (turn.finish_reason, turn.prompt_tokens, turn.completion_tokens, turn.total_tokens) == (
        "tool_calls", 11, 7, 18)
    assert turn.raw["choices"][0]["message"]["content"] == text
    sent = fake.requests[0]
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True}
    assert "text/event-stream" in fake.headers[0]["accept"]


def test_a_server_that_does_not_stream_is_read_as_before():
    fake = FakeChatModel(lambda body: answer("All at once.", [("echo", {"text": "x"})]), stream=False)
    told: list[str] = []
    with fake_endpoint(fake) as model_url:
        turn = ask(OpenAIChatModel(model_url, "fake-model"), told)
    assert told == ["All at once."]  # the whole text, once
    assert (turn.content, turn.tool_calls[0].arguments, turn.total_tokens) == ("All at once.", {"text": "x"}, 18)
    assert turn.raw == answer("All at once.", [("echo", {"text": "x"})])


def test_a_streamed_run_is_stored_like_an_answered_one(demo):
    fake = FakeChatModel(tool_then_report("echo", {"text": "ping"}), piece_chars=1)
    with fake_endpoint(fake) as model_url:
        _, outcome = play(OpenAIChatModel(model_url, "fake-model"), demo.url)
    assert outcome.status == "ok" and outcome.final_answer == "The tool said: ping"
    llm = outcome.trace.steps[1]
    assert (llm.content, llm.requested_tool_calls[0]["arguments"]) == ("Let me call a tool.", {"text": "ping"})
    assert (llm.prompt_tokens, llm.completion_tokens, llm.total_tokens) == (11, 7, 18)


def _chunk(delta: dict, finish: str | None = None) -> str:
    return event({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta,
                                                                  "finish_reason": finish}]})


@pytest.mark.parametrize(("events", "said", "german"), [
    (RawEvents([_chunk({"content": "Hal"}), "data: {not json\n\n"]),
     "sent streamed event 2, which is not JSON", "als Ereignis 2 seines Datenstroms etwas, das kein JSON ist"),
    (RawEvents([_chunk({"content": "Hal"}), event([1, 2])]), "sent streamed event 2, which is not a JSON object",
     "das kein JSON-Objekt ist"),
    (RawEvents([_chunk({"content": "Half an ans"}), _chunk({"content": "wer"})]),
     "stopped answering before its answer was complete (2 events, no finish reason and no [DONE])",
     "(2 Ereignisse, kein Abschlussgrund und kein [DONE])"),
    (RawEvents([_chunk({"content": "Half"})]),
     "stopped answering before its answer was complete (1 event, no finish reason and no [DONE])",
     "(1 Ereignis, kein Abschlussgrund"),
    (RawEvents([]), "stopped answering before its answer was complete (no event", "(kein Ereignis,"),
    (RawEvents([_chunk({"content": "Hal"}), BREAK]),
     "stopped answering before its answer was complete (the connection broke: the server closed it)",
     "die Verbindung brach ab: der Server hat sie geschlossen"),
    (RawEvents([_chunk({"content": "Hal"}), event({"error": {"message": f"overloaded; your key {SECRET} is fine"}})]),
     "reported an error while answering: overloaded; your key [REDACTED] is fine",
     "meldete beim Antworten einen Fehler: overloaded; your key [REDACTED] is fine"),
    (RawEvents(["event: error\n", 'data: {"message": "the GPU caught fire"}\n\n']),
     "reported an error while answering: the GPU caught fire", "einen Fehler: the GPU caught fire"),
])
def test_a_stream_that_cannot_be_read_to_its_end_is_a_model_error_naming_what_happened(events, said, german):
    fake = FakeChatModel(lambda body: events)
    with fake_endpoint(fake) as model_url, pytest.raises(ModelError) as caught:
        ask(OpenAIChatModel(model_url, "fake-model", api_key=SECRET), [])
    assert str(caught.value).startswith(f"The model at {model_url}/chat/completions ")
    assert said in str(caught.value) and SECRET not in str(caught.value)
    # One whole sentence, said in the reader's language where it is shown (stored in English).
    from inspector.i18n import set_language
    from inspector.i18n.messages import translate

    set_language("de")
    try:
        shown = translate(caught.value.sentence)
    finally:
        set_language("en")
    assert shown.startswith(f"Das Modell unter {model_url}/chat/completions ") and german in shown, shown
    assert SECRET not in shown


@pytest.mark.parametrize("media", ["text/event-stream", "application/json"])
def test_an_answer_not_packed_as_it_says_is_said_so_not_as_a_model_out_of_reach(media):
    """Before: "could not be reached: DecodingError. Check the model URL and that the model server runs." (a JSON
    answer), "stopped answering … (the connection broke: DecodingError)" (a stream): the model had answered."""
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route

    body = (event(answer("hi")) if media == "text/event-stream" else json.dumps(answer("hi"))).encode()
    unpacked = Starlette(routes=[Route("/v1/chat/completions", methods=["POST"], endpoint=lambda request: Response(
        body, media_type=media, headers={"Content-Encoding": "gzip"}))])
    with serve_asgi(unpacked, path="/v1") as model_url, pytest.raises(ModelError) as caught:
        ask(OpenAIChatModel(model_url, "fake-model", api_key=SECRET), [])
    assert str(caught.value) == (f"The model at {model_url}/chat/completions answered, but its answer cannot be "
                                 "unpacked as its Content-Encoding header says (the answer is damaged, or a proxy "
                                 "changed it).")


def test_a_stream_larger_than_the_cap_is_refused(monkeypatch):
    from inspector.agent import chat_model

    monkeypatch.setattr(chat_model, "MAX_ANSWER_BYTES", 3 * 1024 * 1024)
    fake = FakeChatModel(lambda body: RawEvents([_chunk({"content": "x" * (1024 * 1024)})] * 4))
    with fake_endpoint(fake) as model_url, pytest.raises(ModelError, match="more than 3 MiB; the answer was refused"):
        ask(OpenAIChatModel(model_url, "fake-model"), [])


def test_a_key_split_across_events_is_never_shown_as_it_arrives(demo):
    text = f"Your key is {SECRET}, kept. {SECRET[:5]}... is how keys start."
    whole = text.replace(SECRET, "[REDACTED]")
    for size in (1, 4, 9):
        fake = FakeChatModel(lambda body, size=size: stream_of(answer(text), piece_chars=size))
        told: list[str] = []
        with fake_endpoint(fake) as model_url:
            turn = ask(OpenAIChatModel(model_url, "fake-model", api_key=SECRET), told)
        assert turn.content == whole and told[-1] == whole
        assert SECRET not in json.dumps(turn.raw)
        # Everything told is the start of the scrubbed answer: no piece of the key, nothing taken back.
        assert all(whole.startswith(shown) for shown in told), size
        assert len(told) > 3


def test_agent_live_prints_the_model_words_on_stderr_as_they_arrive(demo, tmp_path, capsys, monkeypatch):
    def brain(body):
        if body["messages"][-1]["role"] == "tool":
            return answer(f"Done: \x1b[31m{body['messages'][-1]['content']}\nwith your key {SECRET}.")
        return answer("Let me call a tool.", [("echo", {"text": "ping"})])

    fake = FakeChatModel(brain, piece_chars=3)
    monkeypatch.setenv("MY_MODEL_KEY", SECRET)
    arguments = ["agent", "--model-url", "", "--model", "fake-model", "--server", demo.url, "--api-key-env",
                 "MY_MODEL_KEY", "--db", str(tmp_path / "runs.db"), "--json", "Say ping."]
    with fake_endpoint(fake) as model_url:
        arguments[2] = model_url
        assert main(arguments) == 0
        quiet, _ = capsys.readouterr()
        assert main([*arguments[:-1], "--live", arguments[-1]]) == 0
    out, err = capsys.readouterr()
    # Standard output as without --live (but for the run's number and the times); the words on standard error,
    # a line for each round, made safe for a terminal, the key cut out.
    def shape(text: str) -> dict:
        report = json.loads(text)
        return {**report, "run_id": 1, "steps": [{**step, "duration_ms": 0} for step in report["steps"]]}

    assert shape(out) == shape(quiet) and json.loads(out)["run_id"] == json.loads(quiet)["run_id"] + 1
    assert err == ("Model, round 1: Let me call a tool.\n"
                   "Model, round 2: Done:  [31mping\nwith your key [REDACTED].\n")


def test_a_stream_with_crlf_comments_and_split_lines_is_read():
    text = _chunk({"content": "Hello"}) + ": keep-alive\n\n" + _chunk({"content": ", world"}) + \
        _chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "echo", "arguments": '{"te'}}]}) + \
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": 'xt": "hi"}'}}]}, "tool_calls") + \
        event("[DONE]")
    wire = text.replace("\n", "\r\n")
    # Cut anywhere, even inside a line or between \r and \n.
    fake = FakeChatModel(lambda body: RawEvents([wire[start:start + 7] for start in range(0, len(wire), 7)]))
    told: list[str] = []
    with fake_endpoint(fake) as model_url:
        turn = ask(OpenAIChatModel(model_url, "fake-model"), told)
    assert (turn.content, told) == ("Hello, world", ["Hello", "Hello, world"])
    assert [(c.id, c.name, c.arguments) for c in turn.tool_calls] == [("c1", "echo", {"text": "hi"})]
    assert turn.finish_reason == "tool_calls" and turn.total_tokens is None


@pytest.mark.parametrize(("answer", "german"), [
    ([], "sie ist kein JSON-Objekt."),
    ({"choices": []}, "sie hat keine Auswahlen (choices)."),
    ({"choices": [{"message": {"tool_calls": [{"function": {"name": "echo", "arguments": "{bad"}}]}}]},
     "die Argumente von Tool-Aufruf 0 (echo) sind kein JSON."),
])
def test_an_answer_that_cannot_be_read_is_one_sentence_in_the_readers_language(answer, german):
    from inspector.i18n import set_language
    from inspector.i18n.messages import translate

    with pytest.raises(ModelError) as caught:
        parse_answer(answer, "http://model.example/v1")
    assert str(caught.value).startswith(
        "The model at http://model.example/v1 gave an answer this program cannot read: ")
    set_language("de")
    try:
        shown = translate(caught.value.sentence)
    finally:
        set_language("en")
    assert shown == ("Das Modell unter http://model.example/v1 gab eine Antwort, die dieses Programm nicht lesen "
                     f"kann: {german}")
