"""The client answers the server's requests through a pluggable handler, against the official SDK
server: questions (accept, decline, cancel, defaults, the budget running out while waiting),
sampling with a chat model (and declined), roots, and bad requests. The command line's options
build the handler."""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import asyncio
import json
from typing import Any

import pytest

from inspector.agent import execute_tool
from inspector.agent.chat_model import OpenAIChatModel
from inspector.agent.sampling import ChatModelSampler
from inspector.cli import main
from inspector.mcp import ElicitationRequest, ErrorKind, McpClient, Root, ServerEndpoint, ServerRequestHandler
from inspector.mcp.elicitation import accept_defaults, cancel_all, decline_all
from tests.support.asgi_server import serve_asgi
from tests.support.fake_chat_model import FakeChatModel, answer
from tests.support.fault_server import FaultServer
from tests.support.sdk_server import PROFILE_SCHEMA, build_sdk_server


@pytest.fixture(scope="module")
def sdk_url():
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        yield url


def run_tool(url: str, tool: str, handler: ServerRequestHandler | None, arguments: dict | None = None,
             budget_s: float = 10):
    async def go():
        client = McpClient(handler=handler)
        record = await execute_tool(client, ServerEndpoint(url, era="handshake"), tool, arguments or {},
                                    budget_s=budget_s)
        await client.drain()
        return record

    return asyncio.run(go())


def exchanges(record, method: str) -> list[dict[str, Any]]:
    for entry in record.step.to_payload()["serverRequests"]:
        if entry["method"] == method:
            return entry["exchanges"]
    raise AssertionError(f"no {method} recorded")


# -- elicitation -----------------------------------------------------------------------------

def test_a_question_answered_by_the_user(sdk_url: str) -> None:
    seen: list[ElicitationRequest] = []

    async def user(request: ElicitationRequest) -> dict[str, Any]:
        seen.append(request)
        return {"action": "accept", "content": {"name": "Grace"}}

    record = run_tool(sdk_url, "ask_name", ServerRequestHandler(elicit=user))
    assert record.status == "ok", record.tool_result
    assert record.tool_result.content == "elicitation answered: accept"
    assert seen[0].message == "What is your name?"
    assert "name" in seen[0].schema["properties"]
    assert 0 < seen[0].remaining_s <= 10
    [exchange] = exchanges(record, "elicitation/create")
    assert exchange["asked"]["message"] == "What is your name?"
    assert exchange["answered"] == {"action": "accept", "content": {"name": "Grace"}}
    assert exchange["declined"] is False and exchange["durationMs"] >= 0


@pytest.mark.parametrize("elicitor, action", [(decline_all, "decline"), (cancel_all, "cancel")])
def test_a_question_declined_or_cancelled(sdk_url: str, elicitor, action: str) -> None:
    record = run_tool(sdk_url, "ask_name", ServerRequestHandler(elicit=elicitor))
    assert record.tool_result.content == f"elicitation answered: {action}"
    assert exchanges(record, "elicitation/create")[0]["answered"] == {"action": action}


def test_a_question_accepted_with_the_forms_defaults(sdk_url: str) -> None:
    record = run_tool(sdk_url, "ask_profile", ServerRequestHandler(elicit=accept_defaults))
    told = json.loads(record.tool_result.content)
    assert told == {"action": "accept", "content": {"name": "Ada", "age": 36, "score": 9.5, "status": "active",
                                                    "verified": True}}
    assert PROFILE_SCHEMA["properties"]["age"]["default"] == 36


def test_the_budget_running_out_while_the_user_thinks_cuts_the_question_off(sdk_url: str) -> None:
    async def never(request: ElicitationRequest) -> dict[str, Any]:
        await asyncio.sleep(3600)
        return {"action": "cancel"}

    record = run_tool(sdk_url, "ask_name", ServerRequestHandler(elicit=never), budget_s=2)
    # The operation ends within its budget (plus less than the one second a leg's rounded-up
    # grant may admit), not when the user would have answered.
    assert record.latency_ms < 3100, "the question outlived the operation's budget"
    [exchange] = exchanges(record, "elicitation/create")
    assert exchange["declined"] is True and exchange["answered"]["code"] == -32001
    # The question was cut off at the deadline: it got what was left of the 2 s, no more.
    assert 0 < exchange["durationMs"] <= 2050
    # The server got the "stopped waiting" reply and answered within the leg's rounded grant,
    # or the leg timed out: either way the operation ends within the budget and says so.
    if record.error is not None:
        assert record.error.kind is ErrorKind.TIMED_OUT
    else:
        assert "stopped waiting" in record.tool_result.content


def test_elicitation_is_declared_only_when_the_client_can_answer() -> None:
    assert ServerRequestHandler().capabilities() == {}
    assert ServerRequestHandler(elicit=decline_all).capabilities() == {"elicitation": {"form": {}}}
    with FaultServer("session") as server:
        run_tool(server.url, "echo", ServerRequestHandler(elicit=decline_all, roots=()))
        run_tool(server.url, "echo", None)
        first, second = server.posts("initialize")
        assert first.params["capabilities"] == {"elicitation": {"form": {}}, "roots": {"listChanged": False}}
        assert second.params["capabilities"] == {}


# -- sampling --------------------------------------------------------------------------------

def test_sampling_answered_by_the_configured_chat_model(sdk_url: str) -> None:
    fake = FakeChatModel(lambda body: answer("Cats sleep a lot today."))
    with serve_asgi(fake.app(), path="/v1") as model_url:
        sampler = ChatModelSampler(OpenAIChatModel(model_url, "fake-model"), "fake-model")
        record = run_tool(sdk_url, "summarise", ServerRequestHandler(sample=sampler),
                          {"text": "A long text about cats."})
    assert record.tool_result.content == "sampled by fake-model: Cats sleep a lot today."
    [asked] = fake.requests
    assert asked["messages"] == [{"role": "system", "content": "Summarise in five words."},
                                 {"role": "user", "content": "A long text about cats."}]
    [exchange] = exchanges(record, "sampling/createMessage")
    assert exchange["answered"]["content"] == {"type": "text", "text": "Cats sleep a lot today."}


def test_sampling_declined_when_the_user_has_not_allowed_it(sdk_url: str) -> None:
    record = run_tool(sdk_url, "summarise", ServerRequestHandler(), {"text": "x"})
    assert record.tool_result.content.startswith("sampling failed: ")
    assert "has not allowed servers to use a model" in record.tool_result.content
    [exchange] = exchanges(record, "sampling/createMessage")
    assert exchange["declined"] is True and exchange["answered"]["code"] == -1


# -- roots, bad requests -----------------------------------------------------------------------

def test_roots_are_the_ones_configured(sdk_url: str) -> None:
    handler = ServerRequestHandler(roots=(Root("file:///work/project", "project"), Root("file:///tmp")))
    record = run_tool(sdk_url, "show_roots", handler)
    assert record.tool_result.content == "roots: file:///work/project, file:///tmp"
    assert exchanges(record, "roots/list")[0]["answered"] == {
        "roots": [{"uri": "file:///work/project", "name": "project"}, {"uri": "file:///tmp"}]}


def test_no_roots_by_default(sdk_url: str) -> None:
    record = run_tool(sdk_url, "show_roots", None)
    assert record.tool_result.content.startswith("roots failed")


def test_a_malformed_request_gets_invalid_request_and_an_unknown_one_method_not_found() -> None:
    asked = [{"jsonrpc": "2.0", "id": "bad-1", "method": 42},
             {"jsonrpc": "2.0", "id": "bad-2", "method": "roots/list", "params": ["not", "an", "object"]},
             {"jsonrpc": "2.0", "id": "odd-3", "method": "weather/today"}]
    with FaultServer("session", work=lambda ex: ex.ask_client(asked)) as server:
        record = run_tool(server.url, "ask", ServerRequestHandler(elicit=decline_all))
        assert record.tool_result.content == "error -32600; error -32600; error -32601"


# -- the command line ----------------------------------------------------------------------------

def test_the_command_line_accepts_with_defaults(sdk_url: str, tmp_path, capsys) -> None:
    code = main(["call", sdk_url, "--era", "handshake", "ask_profile", "--elicit", "defaults", "--json", "--db",
                 str(tmp_path / "r.db")])
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert json.loads(report["content"])["content"]["name"] == "Ada"
    assert report["server_requests"][0]["exchanges"][0]["answered"]["action"] == "accept"
    code = main(["runs", "show", str(report["run_id"]), "--db", str(tmp_path / "r.db")])
    assert 'The server asked "Tell us about you."; the answer was accept.' in capsys.readouterr().out


def test_defaults_that_cannot_answer_decline_and_say_why(sdk_url: str, capsys) -> None:
    # ask_name's name is required and has no default (as server-everything's trigger-elicitation-request):
    # --elicit defaults declines, and says so, rather than leave "the answer was decline" unexplained.
    code = main(["call", sdk_url, "--era", "handshake", "ask_name", "--elicit", "defaults", "--no-store"])
    out, err = capsys.readouterr()
    assert code == 0 and "elicitation answered: decline" in out
    assert "--elicit defaults declined the question: the required field name has no default." in err
    assert main(["call", sdk_url, "--era", "handshake", "ask_name", "--elicit", "defaults", "--no-store",
                 "--lang", "de"]) == 0
    assert "das Pflichtfeld name hat keinen Standardwert" in capsys.readouterr().err


def test_the_command_line_offers_roots_and_refuses_bad_options(sdk_url: str, tmp_path, capsys) -> None:
    code = main(["call", sdk_url, "--era", "handshake", "show_roots", "--root", str(tmp_path), "--json", "--no-store"])
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out)["content"] == f"roots: {tmp_path.as_uri()}"
    assert main(["call", sdk_url, "--era", "handshake", "echo", "--allow-sampling", "--no-store"]) == 2
    assert "needs a model" in capsys.readouterr().err
    assert main(["call", sdk_url, "--era", "handshake", "echo", "--elicit", "ask",
                 "--no-store"]) == 2  # no terminal under pytest
    assert "needs a terminal" in capsys.readouterr().err


def test_the_command_line_lets_the_server_sample_only_when_allowed(sdk_url: str, capsys) -> None:
    fake = FakeChatModel(lambda body: answer("Short and sweet."))
    with serve_asgi(fake.app(), path="/v1") as model_url:
        code = main(["call", sdk_url, "--era", "handshake", "summarise", "--args", '{"text": "a long story"}',
                     "--allow-sampling",
                     "--sampling-model-url", model_url, "--sampling-model", "fake-model", "--json", "--no-store"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert json.loads(out)["content"] == "sampled by fake-model: Short and sweet."
        code = main(["call", sdk_url, "--era", "handshake", "summarise", "--args", '{"text": "a long story"}',
                     "--json", "--no-store"])
        report = json.loads(capsys.readouterr().out)
    assert len(fake.requests) == 1, "the model was asked although sampling was not allowed"
    assert report["content"].startswith("sampling failed")
    assert report["server_requests"][0]["exchanges"][0]["answered"]["code"] == -1
