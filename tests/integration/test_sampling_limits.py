"""Sampling is bounded as the user approved it: the server's ``maxTokens`` (and the user's own cap)
reaches the model as ``max_tokens``; a server asking again and again is refused per operation and
per minute; on the command line ``--allow-sampling [N]`` approves at most N requests. Against the
official SDK server, with a model server on loopback that records every request."""

from __future__ import annotations

# Sampling here is the handshake era's request from the server, pinned (era="handshake");
# the stateless era's is a round of an input_required answer (test_stateless_era.py).
import asyncio
import json

import pytest

from inspector.agent import execute_tool
from inspector.agent.chat_model import OpenAIChatModel
from inspector.agent.sampling import ChatModelSampler
from inspector.cli import main
from inspector.mcp import McpClient, ServerEndpoint, ServerRequestHandler
from tests.support.asgi_server import serve_asgi
from tests.support.fake_chat_model import FakeChatModel, answer
from tests.support.sdk_server import build_sdk_server

#: The limits the README states (inspector.mcp.sampling_limits, inspector.cli.sampling_option).
PER_OPERATION, PER_SERVER_PER_MINUTE, DEFAULT_APPROVED = 5, 10, 3


@pytest.fixture(scope="module")
def sdk_url():
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        yield url


@pytest.fixture
def model():
    """A model server that answers "answer N" to its N-th request, and the URL it listens on."""
    fake = FakeChatModel(lambda body: answer(f"answer {len(fake.requests)}"))
    with serve_asgi(fake.app(), path="/v1") as url:
        yield fake, url


def run_tool(url: str, tool: str, handler: ServerRequestHandler, arguments: dict, client: McpClient | None = None):
    async def go():
        used = client or McpClient(handler=handler)
        record = await execute_tool(used, ServerEndpoint(url, era="handshake"), tool, arguments, budget_s=20)
        await used.drain()
        return record

    return asyncio.run(go())


def outcomes(content: str) -> list[str]:
    """The tool's lines, "N: answered: ..." or "N: refused: ...", as "answered" / "refused"."""
    return [line.split(": ")[1] for line in content.splitlines()]


# -- max_tokens ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("server_asks", "user_cap", "sent"), [
    (50, "default", 50), (4000, "default", 1024), (50, 20, 20), (4000, None, 4000)])
def test_the_smaller_of_the_servers_max_tokens_and_the_users_cap_reaches_the_model(
        sdk_url, model, server_asks: int, user_cap: int | str | None, sent: int) -> None:
    fake, model_url = model
    cap = {} if user_cap == "default" else {"max_tokens": user_cap}
    sampler = ChatModelSampler(OpenAIChatModel(model_url, "fake-model"), "fake-model", **cap)
    record = run_tool(sdk_url, "summarise_often", ServerRequestHandler(sample=sampler),
                      {"text": "cats", "times": 1, "max_tokens": server_asks})
    assert record.tool_result.content == "1: answered: answer 1"
    [asked] = fake.requests
    assert asked["max_tokens"] == sent


def test_the_command_line_sends_max_tokens_and_takes_a_cap(sdk_url, model, capsys) -> None:
    fake, model_url = model
    base = ["call", sdk_url, "--era", "handshake", "summarise", "--args", '{"text": "a long story"}',
            "--sampling-model-url", model_url,
            "--sampling-model", "fake-model", "--json", "--no-store"]
    assert main([*base, "--allow-sampling"]) == 0, capsys.readouterr().err
    assert main([*base, "--allow-sampling", "--sampling-max-tokens", "12"]) == 0, capsys.readouterr().err
    assert [asked["max_tokens"] for asked in fake.requests] == [50, 12]  # summarise asks for 50
    assert main(["call", sdk_url, "--era", "handshake", "echo", "--sampling-max-tokens", "12", "--no-store"]) == 2
    assert "--sampling-max-tokens takes effect only with --allow-sampling" in capsys.readouterr().err
    assert main([*base, "--allow-sampling", "--sampling-max-tokens", "0"]) == 2
    assert "--sampling-max-tokens takes a whole number from 1 to" in capsys.readouterr().err


def test_the_parser_and_the_sampler_agree_on_the_cap_and_the_readme_on_the_limits() -> None:
    from inspector.agent.sampling import DEFAULT_MAX_TOKENS, LARGEST_MAX_TOKENS
    from inspector.cli import sampling_option
    from inspector.mcp import sampling_limits

    assert (sampling_limits.PER_OPERATION, sampling_limits.PER_SERVER_PER_MINUTE,
            sampling_option.DEFAULT_APPROVED) == (PER_OPERATION, PER_SERVER_PER_MINUTE, DEFAULT_APPROVED)
    assert (sampling_option.DEFAULT_MAX_TOKENS, sampling_option.LARGEST_MAX_TOKENS) == (
        DEFAULT_MAX_TOKENS, LARGEST_MAX_TOKENS)


# -- the command line approves N requests ----------------------------------------------------------------

def test_allow_sampling_n_approves_n_requests_and_refuses_the_next(sdk_url, model, capsys) -> None:
    fake, model_url = model
    code = main(["call", sdk_url, "--era", "handshake", "summarise_often", "--args", '{"text": "cats", "times": 4}',
                 "--allow-sampling", "2", "--sampling-model-url", model_url, "--sampling-model", "fake-model",
                 "--json", "--no-store"])
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert outcomes(report["content"]) == ["answered", "answered", "refused", "refused"]
    assert len(fake.requests) == 2, "the model was asked beyond the approved number"
    assert ("Over the 2 sampling requests the user approved (--allow-sampling 2): the client refused this one."
            in report["content"])
    [entry] = report["server_requests"]
    refusal = entry["exchanges"][2]["answered"]
    assert refusal["code"] == -1 and refusal["data"] == {"samplingLimit": "approved", "limit": 2}
    # The user sees it on stderr, once per refused request.
    assert err.count("Over the 2 sampling requests the user approved") == 2


def test_allow_sampling_alone_approves_the_default_and_keeps_its_old_places(sdk_url, model, capsys) -> None:
    fake, model_url = model
    times = DEFAULT_APPROVED + 2
    # The option without a number, directly before the server's URL: it still means "allowed".
    code = main(["call", "--allow-sampling", sdk_url, "--era", "handshake", "summarise_often", "--args",
                 json.dumps({"text": "cats", "times": times}), "--sampling-model-url", model_url,
                 "--sampling-model", "fake-model", "--json", "--no-store"])
    out, err = capsys.readouterr()
    assert code == 0, err
    answered = outcomes(json.loads(out)["content"])
    assert answered == ["answered"] * DEFAULT_APPROVED + ["refused"] * 2
    assert len(fake.requests) == DEFAULT_APPROVED
    assert main(["call", sdk_url, "--era", "handshake", "echo", "--allow-sampling", "0", "--sampling-model-url",
                 model_url, "--sampling-model", "fake-model", "--no-store"]) == 2
    assert "--allow-sampling takes the number of sampling requests to approve" in capsys.readouterr().err


# -- rate limits per operation and per server ----------------------------------------------------------------

class Clock:
    """A clock the test moves (for the per-minute limit)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_operation_may_sample_only_so_often(sdk_url, model) -> None:
    fake, model_url = model
    sampler = ChatModelSampler(OpenAIChatModel(model_url, "fake-model"), "fake-model")
    record = run_tool(sdk_url, "summarise_often", ServerRequestHandler(sample=sampler),
                      {"text": "cats", "times": PER_OPERATION + 2})
    assert outcomes(record.tool_result.content) == ["answered"] * PER_OPERATION + ["refused"] * 2
    assert len(fake.requests) == PER_OPERATION
    assert f"Over the limit of {PER_OPERATION} sampling requests per operation" in record.tool_result.content
    exchanges = record.step.to_payload()["serverRequests"][0]["exchanges"]
    assert exchanges[-1]["answered"]["data"] == {"samplingLimit": "operation", "limit": PER_OPERATION}


def test_a_server_may_sample_only_so_often_a_minute_across_operations(sdk_url, model) -> None:
    from inspector.mcp.sampling_limits import SamplingLimits

    fake, model_url = model
    clock = Clock()
    sampler = ChatModelSampler(OpenAIChatModel(model_url, "fake-model"), "fake-model")
    client = McpClient(handler=ServerRequestHandler(sample=sampler, sampling_limits=SamplingLimits(clock=clock)))
    per_call = PER_OPERATION
    calls = PER_SERVER_PER_MINUTE // per_call
    for _ in range(calls):  # each operation within its own limit, together up to the minute's
        record = run_tool(sdk_url, "summarise_often", client.handler, {"text": "cats", "times": per_call}, client)
        assert outcomes(record.tool_result.content) == ["answered"] * per_call
    record = run_tool(sdk_url, "summarise_often", client.handler, {"text": "cats", "times": 1}, client)
    assert outcomes(record.tool_result.content) == ["refused"]
    assert (f"Over the limit of {PER_SERVER_PER_MINUTE} sampling requests a minute from one server"
            in record.tool_result.content)
    assert len(fake.requests) == PER_SERVER_PER_MINUTE
    clock.now += 61  # a minute later the server may ask again
    record = run_tool(sdk_url, "summarise_often", client.handler, {"text": "cats", "times": 1}, client)
    assert outcomes(record.tool_result.content) == ["answered"]
