"""The OpenAI-compatible chat model adapter against a fake endpoint on 127.0.0.1 and the demo server."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from inspector.agent import AgentRun, ModelError, StoreSink
from inspector.agent.chat_model import OpenAIChatModel, completions_url, parse_answer
from inspector.cli import main
from inspector.demo import DemoServer
from inspector.mcp import ServerEndpoint
from inspector.runs import StepKind, step_outcome
from inspector.store import RunStore, ServerRegistry
from tests.support.asgi_server import serve_asgi
from tests.support.fake_chat_model import FakeChatModel, answer, tool_then_report

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
    from tests.support.asgi_server import free_port

    _, outcome = play(OpenAIChatModel(f"http://127.0.0.1:{free_port()}/v1", "m"), demo.url)
    assert outcome.status == "failed" and "could not be reached" in outcome.error


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
