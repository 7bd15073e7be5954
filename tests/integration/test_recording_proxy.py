"""The recording proxy with a real agent: the official ``mcp`` SDK client, the demo server, a real database.

The agent's bytes are heard by an HTTP transport of its own (a real one, wrapped to keep what it
received), so the check "the same with and without the proxy" compares what the client read.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp.client import Client
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from inspector.capture.proxy import ProxyServer
from inspector.cli import main
from inspector.demo import DemoOptions, DemoServer
from inspector.store import RunStore
from tests.support.cli_process import cli_here

SECRET = "Bearer sk-proxy-test-4711-secret"


class HeardTransport(httpx2.AsyncBaseTransport):
    """A real HTTP transport that also keeps, per request, the method and the body bytes the client read."""

    def __init__(self) -> None:
        self._inner = httpx2.AsyncHTTPTransport()
        self.heard: list[tuple[str, str | None, int, bytes]] = []

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        body = json.loads(request.content) if request.content else None
        entry = [request.method, body.get("method") if isinstance(body, dict) else None, response.status_code, b""]
        self.heard.append(entry)  # type: ignore[arg-type]
        inner_stream = response.stream

        class Kept(httpx2.AsyncByteStream):
            async def __aiter__(self):
                async for chunk in inner_stream:  # type: ignore[union-attr]
                    entry[3] += chunk
                    yield chunk

            async def aclose(self) -> None:
                await inner_stream.aclose()  # type: ignore[union-attr]

        response.stream = Kept()
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


def runs_of(db: Path) -> list[dict[str, Any]]:
    """Every run, oldest first, with its one step's payload."""
    with RunStore.open(db) as store:
        found = []
        for run in reversed(store.list_runs(limit=None)):
            steps = [step.payload for step in store.iter_steps(run.id)]
            found.append({"title": run.title, "status": run.status, "source": run.source, "server": run.server,
                          "step": steps[0]})
        return found


def leg_names(run: dict[str, Any]) -> list[str]:
    return [leg["method"] for leg in run["step"].get("legs", [])]


async def agent_session(url: str, transport: HeardTransport | None = None) -> list[str]:
    """An agent's session: handshake, catalogue, three calls (ok, tool error, ok); what it was told."""
    headers = {"Authorization": SECRET}
    async with httpx2.AsyncClient(headers=headers, transport=transport) as http, \
            streamable_http_client(url, http_client=http) as (read, write, *_), \
            ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
        echo = await session.call_tool("echo", {"text": "hé, proxy"})
        fail = await session.call_tool("fail", {"reason": "on purpose"})
        add = await session.call_tool("add", {"a": 2, "b": 3})
        return [",".join(tool.name for tool in tools.tools), echo.content[0].text, str(fail.is_error),
                add.content[0].text]


@pytest.fixture
def demo():
    with DemoServer() as server:
        yield server


def test_every_operation_of_an_sdk_agent_is_a_run_with_its_legs(demo, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with ProxyServer(demo.url, db) as proxy:
        told = anyio.run(agent_session, proxy.url)
    assert told[1] == "hé, proxy" and told[2] == "True"
    runs = runs_of(db)
    by_title = {run["title"]: run for run in runs}
    calls = [run for run in runs if run["title"].startswith("tools/")]
    assert [run["title"] for run in calls] == ["tools/list · proxy", "tools/call echo · proxy",
                                               "tools/call fail · proxy", "tools/call add · proxy"]
    # The handshake opens the session's first operation, as in a call Run Inspector makes itself.
    assert leg_names(calls[0]) == ["initialize", "notifications/initialized", "tools/list"]
    assert [leg_names(run) for run in calls[1:]] == [["tools/call"]] * 3
    assert [run["status"] for run in calls] == ["ok", "ok", "failed", "ok"]
    echo = by_title["tools/call echo · proxy"]["step"]
    assert echo["toolOutcome"] == "ok" and echo["toolResult"] == "hé, proxy"
    assert echo["toolArguments"] == {"text": "hé, proxy"}
    assert "reported an error" in by_title["tools/call fail · proxy"]["step"]["toolResult"]
    assert all(run["source"] == "live" and run["server"] == demo.url for run in runs)
    # Elapsed per leg, no deadline: the agent's requests spent what they took.
    leg = echo["legs"][0]
    assert leg["grantedS"] is None and leg["elapsedMs"] > 0 and leg["httpStatus"] == 200 and leg["outcome"] == "ok"
    # Each leg keeps its exchange: request and answer, the credential never stored.
    exchange = leg["exchange"]
    assert json.loads(exchange["request"]["body"])["params"]["name"] == "echo"
    assert '"hé, proxy"' in "".join(event["data"] for event in exchange["answer"]["events"])
    assert ["Authorization", "[REDACTED]"] in [[name.title(), value] for name, value in exchange["request"]["headers"]]
    with RunStore.open(db) as store:
        everything = json.dumps([step.payload for run in store.list_runs() for step in store.iter_steps(run.id)])
    assert "sk-proxy-test-4711" not in everything
    # The server's stream and the session's end are runs of their own.
    assert "DELETE session · proxy" in by_title and by_title["DELETE session · proxy"]["status"] == "ok"


def _comparable(heard: list[tuple[str, str | None, int, bytes]]) -> list[tuple[str, str | None, int, bytes]]:
    # The session id differs between two sessions; it is the one thing that may.
    return [(method, rpc, status, body) for method, rpc, status, body in heard if method == "POST"]


def test_the_agent_reads_the_same_bytes_with_and_without_the_proxy(tmp_path: Path) -> None:
    heard = {}
    for how in ("direct", "proxied"):
        with DemoServer() as demo:  # a fresh server each time: the same state, the same answers
            transport = HeardTransport()
            if how == "direct":
                told = anyio.run(agent_session, demo.url, transport)
            else:
                with ProxyServer(demo.url, tmp_path / "runs.db") as proxy:
                    told = anyio.run(agent_session, proxy.url, transport)
            heard[how] = (told, _comparable(transport.heard))
    assert heard["direct"][0] == heard["proxied"][0]
    direct, proxied = heard["direct"][1], heard["proxied"][1]
    assert [entry[:3] for entry in direct] == [entry[:3] for entry in proxied]
    assert len(direct) >= 5 and all(entry[3] for entry in direct if entry[1] != "notifications/initialized")
    for one, other in zip(direct, proxied, strict=True):
        assert one[3] == other[3], f"{one[1]}: the bodies differ"


def test_a_call_the_sdk_agent_cancels_is_recorded_cancelled(demo, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"

    async def agent(url: str) -> str:
        async with Client(url, mode="legacy") as client:
            with anyio.move_on_after(1.0):
                await client.call_tool("hang", {})
            return (await client.call_tool("echo", {"text": "after"})).content[0].text

    with ProxyServer(demo.url, db) as proxy:
        assert anyio.run(agent, proxy.url) == "after"
    hang = next(run for run in runs_of(db) if run["title"] == "tools/call hang · proxy")
    assert hang["status"] == "cancelled"
    step = hang["step"]
    assert step["toolOutcome"] == "cancelled" and step["cancelledInFlight"] is True
    assert "notifications/cancelled" in step["toolResult"]
    outcomes = {leg["method"]: leg["outcome"] for leg in step["legs"]}
    assert outcomes["tools/call"] == "cancelled" and outcomes["notifications/cancelled"] == "ok"


def test_a_connection_the_agent_drops_mid_call_is_recorded_cancelled(demo, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"

    async def agent(url: str) -> str:
        # The SDK's own default (the 2026 wire): a cancel closes the request's connection.
        async with Client(url) as client:
            with anyio.move_on_after(1.0):
                await client.call_tool("hang", {})
            return (await client.call_tool("echo", {"text": "after"})).content[0].text

    with ProxyServer(demo.url, db) as proxy:
        assert anyio.run(agent, proxy.url) == "after"
    hang = next(run for run in runs_of(db) if run["title"] == "tools/call hang · proxy")
    assert hang["status"] == "cancelled"
    assert "closed its connection" in hang["step"]["toolResult"]
    assert [leg["outcome"] for leg in hang["step"]["legs"]] == ["cancelled"]


def test_pages_of_the_catalogue_are_legs_of_one_operation(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with DemoServer(DemoOptions(page_size=4, catalogue_size=6)) as demo, ProxyServer(demo.url, db) as proxy:
        async def agent(url: str) -> int:
            async with Client(url, mode="legacy") as client:
                cursor, names = None, []
                while True:
                    page = await client.list_tools(cursor=cursor) if cursor else await client.list_tools()
                    names += [tool.name for tool in page.tools]
                    cursor = page.next_cursor
                    if not cursor:
                        return len(names)

        count = anyio.run(agent, proxy.url)
    listing = [run for run in runs_of(db) if run["title"] == "tools/list · proxy"]
    assert len(listing) == 1, [(run["title"], leg_names(run)) for run in runs_of(db)]
    pages = [name for name in leg_names(listing[0]) if name == "tools/list"]
    assert len(pages) == -(-count // 4) > 1
    assert f"{count} tools in {len(pages)} pages" in listing[0]["step"]["content"]


def test_the_budget_ends_a_call_on_the_agents_behalf(demo, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"

    async def agent(url: str) -> str:
        async with Client(url, mode="legacy") as client:
            try:
                await client.call_tool("hang", {})
            except Exception as exc:  # noqa: BLE001 - the SDK's error for a JSON-RPC error answer
                return str(exc)
            return "no error"

    with ProxyServer(demo.url, db, budget_s=1.0) as proxy:
        told = anyio.run(agent, proxy.url)
    assert "Run Inspector's proxy ended tools/call: its budget of 1 s for this operation was used up." in told
    hang = next(run for run in runs_of(db) if run["title"] == "tools/call hang · proxy")
    assert hang["status"] == "failed"
    assert "proxy's budget of 1 s" in hang["step"]["toolResult"] and "timed out" in hang["step"]["toolResult"]
    call_leg = next(leg for leg in hang["step"]["legs"] if leg["method"] == "tools/call")
    assert call_leg["outcome"] == "failed" and call_leg["grantedS"] is not None and call_leg["grantedS"] <= 1
    # One budget for the operation, from its first leg (the handshake spent some of it).
    assert 950 < hang["step"]["durationMs"] < 3000 and call_leg["elapsedMs"] < hang["step"]["durationMs"]
    # The leg ended at its grant, so the run reads as the time-out it was, as a call of our own does
    # (it read "failed (the tool call failed)": the budget ended the leg short of the grant it showed).
    assert call_leg["elapsedMs"] >= call_leg["grantedS"] * 1000 - 50
    listed = cli_here("runs", "list", "--db", str(db))
    assert "failed (the tool call timed out)" in listed.stdout, listed.stdout


# -- servers that misbehave -----------------------------------------------------------------------

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "agent", "version": "1"}}}
CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "x"}}}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


class RawServer:
    """A TCP server on 127.0.0.1 that answers every connection with ``reply(request_bytes)`` and closes."""

    def __init__(self, reply) -> None:
        self._reply = reply
        self.url = ""

    async def __aenter__(self) -> RawServer:
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            await reader.readexactly(length)
            for part in self._reply():
                if isinstance(part, float):
                    await asyncio.sleep(part)
                else:
                    writer.write(part)
                    await writer.drain()
            writer.close()

        self._server = await asyncio.start_server(handle, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}/mcp"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._server.close()


def _through_proxy(reply, db: Path, message: dict[str, Any]) -> httpx.Response:
    async def go() -> httpx.Response:
        async with RawServer(reply) as server:
            proxy = ProxyServer(server.url, db)
            proxy.start()
            try:
                async with httpx.AsyncClient(timeout=10) as http:
                    return await http.post(proxy.url, json=message, headers=ACCEPT)
            finally:
                await asyncio.to_thread(proxy.stop)
    return asyncio.run(go())


def test_a_server_that_is_down_gets_the_agent_a_502_with_a_sentence(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with DemoServer() as gone:
        url = gone.url
    with ProxyServer(url, db) as proxy:
        answer = httpx.post(proxy.url, json=CALL, headers=ACCEPT, timeout=10)
    assert answer.status_code == 502
    sentence = answer.json()["error"]["message"]
    assert answer.json()["id"] == 7
    assert "could not reach the server" in sentence and url in sentence
    run = next(run for run in runs_of(db) if run["title"] == "tools/call echo · proxy")
    assert run["status"] == "failed" and run["step"]["toolResult"] == sentence
    assert run["step"]["legs"][0]["outcome"] == "failed" and run["step"]["legs"][0]["httpStatus"] is None


def test_a_server_that_answers_garbage_gets_the_agent_a_502(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    answer = _through_proxy(lambda: [b"SSH-2.0-OpenSSH_9.6 not http at all\r\n\r\n"], db, CALL)
    assert answer.status_code == 502
    sentence = answer.json()["error"]["message"]
    assert "broke off the connection before it answered tools/call" in sentence
    run = next(run for run in runs_of(db) if run["title"] == "tools/call echo · proxy")
    assert run["status"] == "failed" and run["step"]["toolResult"] == sentence


def test_an_answer_that_is_not_json_rpc_passes_unchanged_and_the_run_says_failed(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    body = b"<html>oops</html>"
    answer = _through_proxy(lambda: [b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: "
                                     + str(len(body)).encode() + b"\r\n\r\n" + body], db, CALL)
    assert answer.status_code == 200 and answer.content == body
    run = next(run for run in runs_of(db) if run["title"] == "tools/call echo · proxy")
    assert run["status"] == "failed"
    assert "ended its answer to tools/call without a result" in run["step"]["toolResult"]


NOT_AN_ANSWER = {
    "html": (b"text/html", b"<html>oops</html>"),
    "JSON, not JSON-RPC": (b"application/json", b'{"status": "fine"}'),
    "another request's answer": (b"application/json", b'{"jsonrpc": "2.0", "id": 999, "result": {}}'),
    "a stream without the answer": (b"text/event-stream", b'event: message\ndata: {"jsonrpc": "2.0", "method": '
                                    b'"notifications/message", "params": {"level": "info", "data": "x"}}\n\n'),
}


@pytest.mark.parametrize("method", ["ping", "tools/list", "resources/read"])
@pytest.mark.parametrize("shape", NOT_AN_ANSWER, ids=list(NOT_AN_ANSWER))
def test_any_request_answered_with_no_json_rpc_response_to_it_is_failed(tmp_path: Path, method: str,
                                                                       shape: str) -> None:
    """As a tools/call so answered; before, a ping (or any request but tools/call) so answered was ok."""
    db = tmp_path / "runs.db"
    kind, body = NOT_AN_ANSWER[shape]
    message = {"jsonrpc": "2.0", "id": 7, "method": method}
    answer = _through_proxy(lambda: [b"HTTP/1.1 200 OK\r\nContent-Type: " + kind + b"\r\nContent-Length: "
                                     + str(len(body)).encode() + b"\r\n\r\n" + body], db, message)
    assert answer.status_code == 200 and answer.content == body  # passed on unchanged
    run = next(run for run in runs_of(db) if run["title"] == f"{method} · proxy")
    server = run["step"]["legs"][0]["exchange"]["request"]["url"]
    assert run["status"] == "failed" and run["step"]["legs"][0]["outcome"] == "failed"  # before: ok, "answered"
    assert run["step"]["content"] == f"{method}: The server {server} ended its answer to {method} without a result."


def test_a_server_that_closes_mid_stream_ends_the_agents_stream_and_the_run_fails(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "working"}}
    event = b"event: message\ndata: " + json.dumps(note).encode() + b"\n\n"
    chunk = hex(len(event))[2:].encode() + b"\r\n" + event + b"\r\n"
    answer = _through_proxy(lambda: [head, chunk, 0.2], db, CALL)
    assert answer.status_code == 200 and answer.content == event  # what came, then the end
    run = next(run for run in runs_of(db) if run["title"] == "tools/call echo · proxy")
    assert run["status"] == "failed"
    assert "broke off its answer to tools/call before it ended" in run["step"]["toolResult"]
    assert run["step"]["serverNotifications"][0]["method"] == "notifications/message"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_question_the_server_asks_is_part_of_the_call_that_asked_it(demo, tmp_path: Path, mode: str) -> None:
    """Handshake era: the question comes on the call's stream and the agent's answer is a POST of its own;
    stateless era: the call is answered ``input_required`` and retried with the answer. One run either way."""
    import mcp_types as types

    db = tmp_path / "runs.db"

    async def answer(context, params):
        return types.ElicitResult(action="accept", content={"answer": "blue"})

    async def agent(url: str) -> str:
        async with Client(url, mode=mode, elicitation_callback=answer) as client:
            result = await client.call_tool("ask_user", {"question": "Which colour?"})
            return result.content[0].text

    with ProxyServer(demo.url, db) as proxy:
        assert anyio.run(agent, proxy.url) == "The user answered: blue"
    asked = [run for run in runs_of(db) if run["title"] == "tools/call ask_user · proxy"]
    assert len(asked) == 1 and asked[0]["status"] == "ok"
    step = asked[0]["step"]
    assert step["toolResult"] == "The user answered: blue"
    names = leg_names(asked[0])
    if mode == "legacy":
        assert names[-2:] == ["tools/call", "elicitation/create (answer)"]
        assert step["serverRequests"][0]["method"] == "elicitation/create"
    else:
        assert names.count("tools/call") == 2


def test_a_call_in_flight_shows_as_a_running_run_and_nothing_stays_running(demo, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"

    def statuses() -> dict[str, str]:
        with RunStore.open(db) as store:
            return {run.title: run.status for run in store.list_runs(limit=None)}

    async def agent(url: str) -> str:
        async with Client(url, mode="legacy") as client:
            seen = ""
            with anyio.move_on_after(10.0):
                async with anyio.create_task_group() as group:
                    group.start_soon(client.call_tool, "hang", {})
                    while seen != "running":
                        await anyio.sleep(0.05)
                        seen = (await anyio.to_thread.run_sync(statuses)).get("tools/call hang · proxy", "")
                    group.cancel_scope.cancel()
            return seen

    with ProxyServer(demo.url, db) as proxy:
        assert anyio.run(agent, proxy.url) == "running"
    after = statuses()
    assert after["tools/call hang · proxy"] == "cancelled"
    assert "running" not in after.values()


def test_a_log_message_the_server_sends_during_a_call_is_kept_with_its_words(demo, tmp_path: Path, capsys) -> None:
    """The proxy kept a log message as its level only: `runs show` and the window said 'Server log (info): null'."""
    db = tmp_path / "runs.db"

    async def agent(url: str) -> str:
        async with Client(url, mode="legacy") as client:
            return (await client.call_tool("write_note", {"text": "milk"})).content[0].text

    with ProxyServer(demo.url, db) as proxy:
        assert anyio.run(agent, proxy.url) == "Note 1 written."
    run = next(run for run in runs_of(db) if run["title"] == "tools/call write_note · proxy")
    assert run["step"]["serverNotifications"] == [{"method": "notifications/message", "via": "tools/call",
                                                   "level": "info", "logger": "demo",
                                                   "data": "write_note: note 1 written."}]
    with RunStore.open(db) as store:
        run_id = next(found.id for found in store.list_runs(limit=None) if found.title == run["title"])
    capsys.readouterr()
    assert main(["--db", str(db), "--lang", "en", "runs", "show", str(run_id)]) == 0
    assert "Server log (info, from demo): write_note: note 1 written." in capsys.readouterr().out


def test_a_call_cut_off_by_stopping_the_proxy_is_not_said_to_be_the_agents_doing(demo, tmp_path: Path) -> None:
    """Stopping the proxy (Ctrl-C, Stop in the window) under a call recorded 'The agent closed its connection
    before the answer to tools/call came.', and the agent's open stream 'the agent closed the server's stream'."""
    db = tmp_path / "runs.db"
    proxy = ProxyServer(demo.url, db)
    proxy.start()
    told: list[str] = []

    async def agent(url: str) -> None:
        try:
            async with Client(url, mode="legacy") as client:
                await client.call_tool("hang", {})
        except Exception as exc:  # noqa: BLE001 - the proxy stops under it: whatever the SDK makes of that
            told.append(type(exc).__name__)

    def statuses() -> dict[str, str]:
        with RunStore.open(db) as store:
            return {run.title: run.status for run in store.list_runs(limit=None)}

    agent_thread = threading.Thread(target=anyio.run, args=(agent, proxy.url), daemon=True)
    agent_thread.start()
    deadline = time.monotonic() + 20
    while statuses().get("tools/call hang · proxy") != "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # tools/call hang forwarded: the demo server holds it
    proxy.stop()
    agent_thread.join(20)
    runs = {run["title"]: run for run in runs_of(db)}
    hang = runs["tools/call hang · proxy"]
    assert hang["status"] == "cancelled" and hang["step"]["cancelledInFlight"] is True
    assert hang["step"]["toolResult"] == ("The proxy was stopped before the answer to tools/call came: the agent's "
                                          "request was cut off.")
    stream = runs["GET stream · proxy"]
    assert stream["status"] == "ok" and stream["step"]["content"] == ("GET: the proxy was stopped, and the server's "
                                                                      "stream with it")
