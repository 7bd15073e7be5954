"""The stateless era (MCP 2026-07-28) against a real server on 127.0.0.1: the probe, _meta and
headers, versions, multi round-trip requests, a broken stream, cancel, and a server that changes era."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from inspector.mcp import CancelSignal, ErrorKind, McpClient, McpTransportError, OperationRecorder, ServerEndpoint
from inspector.mcp.eras import RememberedEras
from inspector.mcp.server_requests import ServerRequestHandler
from tests.support.fault_server import Exchange, FaultServer
from tests.support.stateless_server import StatelessServer, serve_stateless


async def _accept(request: Any) -> dict[str, Any]:
    return {"action": "accept", "content": {"colour": "teal"}}


def run(coro_factory: Any) -> Any:
    return asyncio.run(coro_factory())


def call(url: str, tool: str = "echo", *, era: str = "auto", client: McpClient | None = None,
         budget_s: float = 5, arguments: dict[str, Any] | None = None,
         listed: bool = True) -> tuple[Any, OperationRecorder]:
    """One tools/call; ``listed``: the caller knows the tool's definition (as the window does)."""
    definition = {"name": tool, "inputSchema": {"type": "object"}} if listed else None

    async def go() -> tuple[Any, OperationRecorder]:
        the_client = client or McpClient(handler=ServerRequestHandler(elicit=_accept))
        recorder = OperationRecorder()
        try:
            result: Any = await the_client.call_tool(ServerEndpoint(url, era=era), tool, arguments or {"x": 1},
                                                      budget_s=budget_s, observer=recorder, definition=definition)
        except McpTransportError as error:
            result = error
        await the_client.drain()
        return result, recorder
    return run(go)


def cancelled_call(url: str, tool: str, arguments: dict[str, Any],
                   started: Any) -> tuple[McpTransportError | None, OperationRecorder]:
    """Call ``tool`` in the stateless era and cancel it once ``started()`` is true."""
    async def go() -> tuple[McpTransportError | None, OperationRecorder]:
        client, recorder, cancel = McpClient(), OperationRecorder(), CancelSignal()
        task = asyncio.ensure_future(client.call_tool(ServerEndpoint(url, era="stateless"), tool, arguments,
                                                      budget_s=20, cancel=cancel, observer=recorder,
                                                      definition={"name": tool, "inputSchema": {}}))
        while not started():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        cancel.fire()
        try:
            await task
        except McpTransportError as error:
            return error, recorder
        return None, recorder
    return run(go)


def legs(recorder: OperationRecorder) -> list[str]:
    return [leg.method for leg in recorder.legs]


def test_auto_probes_with_discover_then_speaks_the_stateless_era_with_meta_and_headers() -> None:
    with serve_stateless() as (server, url):
        result, recorder = call(url, listed=False)
    assert not isinstance(result, McpTransportError), result
    # Without the tool's definition the call lists the catalogue first: its x-mcp-header
    # annotations decide the call's headers.
    assert legs(recorder) == ["server/discover", "tools/list", "tools/call"]
    assert recorder.finished is not None
    assert (recorder.finished.era, recorder.finished.protocol_version) == ("stateless", "2026-07-28")
    [sent] = server.calls()
    meta = sent.params["_meta"]
    assert meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    assert meta["io.modelcontextprotocol/clientInfo"]["name"] == "run-inspector"
    # What the handler answers, and the tasks extension (a task the server makes is followed).
    assert meta["io.modelcontextprotocol/clientCapabilities"] == {
        "elicitation": {"form": {}}, "extensions": {"io.modelcontextprotocol/tasks": {}}}
    assert meta["traceparent"].startswith("00-") and "progressToken" in meta
    assert sent.headers["mcp-method"] == "tools/call" and sent.headers["mcp-name"] == "echo"
    assert sent.headers["mcp-protocol-version"] == "2026-07-28" and "mcp-session-id" not in sent.headers
    assert "initialize" not in server.methods()


def test_what_auto_found_is_remembered_so_the_next_operation_does_not_probe() -> None:
    client = McpClient(eras=RememberedEras())
    with serve_stateless() as (server, url):
        call(url, client=client)
        _, second = call(url, client=client)
    assert legs(second) == ["tools/call"]
    assert server.methods().count("server/discover") == 1


def test_a_server_of_the_handshake_era_is_probed_then_spoken_to_with_the_handshake() -> None:
    client = McpClient()
    with serve_stateless(StatelessServer(legacy=True)) as (server, url):
        result, first = call(url, client=client)
        _, second = call(url, client=client)
    assert not isinstance(result, McpTransportError), result
    assert legs(first) == ["server/discover", "initialize", "notifications/initialized", "tools/call"]
    assert first.finished is not None and first.finished.era == "handshake"
    assert legs(second) == ["initialize", "notifications/initialized", "tools/call"]


def test_a_server_that_left_the_remembered_era_is_probed_again() -> None:
    client = McpClient()
    server = StatelessServer()
    with serve_stateless(server) as (_, url):
        call(url, client=client)
        server.legacy = True  # e.g. rolled back to an older release
        result, recorder = call(url, client=client)
    assert not isinstance(result, McpTransportError), result
    assert legs(recorder) == ["tools/call", "server/discover", "initialize", "notifications/initialized",
                              "tools/call"]
    assert client.eras.recall(ServerEndpoint(url).key) == "handshake"


def test_a_server_that_left_the_remembered_handshake_era_is_probed_again() -> None:
    """A server of the stateless era alone refuses initialize with HTTP 400 and an error only that era
    sends (-32022): before, every operation failed so while the handshake era stayed remembered."""
    client = McpClient()
    server = StatelessServer(legacy=True)
    with serve_stateless(server) as (_, url):
        call(url, client=client)
        server.legacy = False  # upgraded to a release of the stateless era alone
        result, recorder = call(url, client=client)
        _, after = call(url, client=client)
    assert not isinstance(result, McpTransportError), result
    assert legs(recorder) == ["initialize", "server/discover", "tools/call"]
    assert legs(after) == ["tools/call"]
    assert client.eras.recall(ServerEndpoint(url).key) == "stateless"


def test_a_refusal_the_probe_confirms_is_the_answer_and_the_request_is_not_sent_again() -> None:
    """A remembered stateless server refusing the arguments (-32602) may be one that left the era, so it
    is probed again; when the probe finds it still stateless, the refusal stands. The request was sent
    a second time ("tools/call (sent again)"), doubling whatever the server did with it."""
    client = McpClient()
    server = StatelessServer()
    with serve_stateless(server) as (_, url):
        call(url, client=client)
        result, recorder = call(url, "bad_params", client=client)
    assert isinstance(result, McpTransportError) and result.rpc_code == -32602, result
    assert legs(recorder) == ["tools/call", "server/discover"]
    assert [seen.params.get("name") for seen in server.calls()] == ["echo", "bad_params"]
    assert client.eras.recall(ServerEndpoint(url).key) == "stateless"


def test_an_unsupported_version_is_retried_in_one_the_server_names() -> None:
    with serve_stateless(StatelessServer(refuse_first_version=True)) as (server, url):
        result, recorder = call(url, era="stateless")
    assert not isinstance(result, McpTransportError), result
    assert server.methods() == ["tools/call", "tools/call"]
    assert recorder.finished is not None and recorder.finished.outcome == "ok"


def test_a_server_that_shares_no_version_is_named_with_the_versions_it_speaks() -> None:
    with serve_stateless(StatelessServer(versions=["2099-01-01"])) as (_, url):
        result, _ = call(url, era="stateless")
    assert isinstance(result, McpTransportError) and result.rpc_code == -32022
    assert "does not speak the MCP protocol version 2026-07-28" in result.message
    assert "it speaks 2099-01-01" in result.message


def test_input_required_is_answered_and_retried_under_a_new_id_with_the_state_echoed() -> None:
    with serve_stateless() as (server, url):
        result, recorder = call(url, "ask", era="stateless")
    assert not isinstance(result, McpTransportError), result
    assert legs(recorder) == ["tools/call", "input: elicitation/create", "tools/call (round 2)"]
    first, second = server.calls()
    assert first.body["id"] != second.body["id"]
    assert "inputResponses" not in first.params
    assert second.params["requestState"] == "state-1"
    assert second.params["inputResponses"] == {"q": {"action": "accept", "content": {"colour": "teal"}}}
    assert json.loads(result.content)["state"] == "state-1"
    assert [seen.method for seen in recorder.server_requests] == ["elicitation/create"]


def test_a_server_that_keeps_asking_is_stopped_after_the_round_limit() -> None:
    from inspector.mcp.input_rounds import MAX_INPUT_ROUNDS

    with serve_stateless() as (server, url):
        result, _ = call(url, "always_ask", era="stateless")
    assert isinstance(result, McpTransportError)
    assert f"{MAX_INPUT_ROUNDS} times in a row without finishing" in result.message
    assert len(server.calls()) == MAX_INPUT_ROUNDS


def test_a_broken_answer_stream_is_sent_again_under_a_new_id() -> None:
    with serve_stateless() as (server, url):
        result, recorder = call(url, "break_once", era="stateless")
    assert not isinstance(result, McpTransportError), result
    assert legs(recorder) == ["tools/call", "tools/call (sent again)"]
    first, second = server.calls()
    assert first.body["id"] != second.body["id"]


def test_a_stream_with_event_ids_that_ends_without_the_answer_is_a_broken_leg_each_time() -> None:
    """Event ids promise a resumption the stateless era does not have: each leg broke off (failed, as
    the stored step and the budget bar show it), not ok, and the request is sent anew."""
    def ids_then_end(exchange: Exchange) -> None:
        exchange.open_stream()
        exchange.write_raw("id: e1\nretry: 100\ndata: \n\n")

    with FaultServer(work=ids_then_end) as server:
        result, recorder = call(server.url, era="stateless", budget_s=10)
    assert isinstance(result, McpTransportError) and "broke off 4 times in a row" in result.message, result
    assert legs(recorder) == ["tools/call"] + ["tools/call (sent again)"] * 3
    assert [(leg.outcome.value, leg.error_kind) for leg in recorder.legs] == [("failed", "malformed")] * 4
    assert [received.http_method for received in server.received] == ["POST"] * 4, "never resumed with GET"


def test_a_request_answered_202_without_a_body_says_so_and_is_not_sent_again() -> None:
    with FaultServer(work=lambda exchange: exchange.send(202, b"", content_type=None)) as server:
        result, recorder = call(server.url, era="stateless", budget_s=10)
    assert isinstance(result, McpTransportError) and result.kind is ErrorKind.MALFORMED, result
    assert "answered HTTP 202 (Accepted) with no body, as if it were a notification" in result.message
    assert legs(recorder) == ["tools/call"] and recorder.legs[0].http_status == 202


@pytest.mark.parametrize(("reset", "reason"), [(True, "the connection was reset by the other side"),
                                               (False, "the server closed it")])
def test_a_connection_that_breaks_mid_answer_each_time_is_named_as_broken_not_malformed(reset, reason) -> None:
    """The server drops the connection in the middle of each JSON answer: sent again under new ids
    (this era's way), then said as the handshake era says it, a broken connection, with why."""
    with FaultServer(work=lambda exchange: exchange.break_off(reset=reset)) as server:
        result, recorder = call(server.url, era="stateless", budget_s=10)
        assert not server.errors, server.errors
    assert isinstance(result, McpTransportError) and result.kind is ErrorKind.UNREACHABLE, result
    assert f"broke during tools/call: {reason}, 4 times in a row (sent again under a new id each time)." \
        in result.message, result.message
    assert legs(recorder) == ["tools/call"] + ["tools/call (sent again)"] * 3
    assert [(leg.outcome.value, leg.error_kind) for leg in recorder.legs] == [("failed", "unreachable")] * 4


def test_an_unknown_result_type_is_a_malformed_answer() -> None:
    with serve_stateless() as (_, url):
        result, _ = call(url, "odd_type", era="stateless")
    assert isinstance(result, McpTransportError) and result.kind is ErrorKind.MALFORMED
    assert "result type banana" in result.message


def test_cancel_closes_the_request_stream_and_is_recorded_as_cancelled_with_the_server_told() -> None:
    with serve_stateless() as (server, url):
        error, recorder = cancelled_call(url, "hang", {}, lambda: bool(server.calls()))
        assert server.client_left.wait(3), "the server never saw the request's stream close"
    assert isinstance(error, McpTransportError) and error.is_cancellation
    assert recorder.finished is not None and recorder.finished.outcome == "cancelled"
    assert recorder.finished.server_told_to_stop is True
    assert "was not told" not in error.message


def test_ping_in_the_stateless_era_is_a_discover_request() -> None:
    async def go() -> Any:
        return await McpClient().ping(ServerEndpoint(url), budget_s=5)

    with serve_stateless() as (server, url):
        result = run(go)
    assert result.protocol_version == "2026-07-28" and result.server_name == "stateless-test"
    assert server.methods() == ["server/discover"]  # the probe's answer is the ping's: asked once


@pytest.mark.parametrize("era", ["handshake"])
def test_a_pinned_handshake_era_never_probes(era: str) -> None:
    with serve_stateless(StatelessServer(legacy=True)) as (server, url):
        _, recorder = call(url, era=era)
    assert legs(recorder) == ["initialize", "notifications/initialized", "tools/call"]
    assert "server/discover" not in server.methods()


def test_threads_do_not_share_request_state() -> None:
    # Two operations in flight at once on one client: each keeps its own rounds.
    with serve_stateless() as (server, url):
        async def go() -> list[Any]:
            client = McpClient(handler=ServerRequestHandler(elicit=_accept))
            endpoint = ServerEndpoint(url, era="stateless")
            return await asyncio.gather(client.call_tool(endpoint, "ask", {}, budget_s=5),
                                        client.call_tool(endpoint, "echo", {"y": 2}, budget_s=5))
        asked, echoed = run(go)
    assert json.loads(echoed.content) == {"y": 2}
    echo_calls = [seen for seen in server.calls() if seen.params["name"] == "echo"]
    assert all("requestState" not in seen.params and "inputResponses" not in seen.params for seen in echo_calls)
    assert json.loads(asked.content)["state"] == "state-1"


# -- the official SDK server (mcp 2.x), which serves both eras -------------------------------------

SDK_PROFILES = {
    "event-stream+session": {"json_response": False, "stateless_http": False},
    "json+stateless": {"json_response": True, "stateless_http": True},
}


@pytest.mark.parametrize("profile", list(SDK_PROFILES))
def test_the_official_sdk_server_is_spoken_to_in_the_stateless_era_by_default(profile: str) -> None:
    from tests.support.asgi_server import serve_asgi
    from tests.support.fault_server import operate
    from tests.support.sdk_server import build_sdk_server

    app = build_sdk_server().streamable_http_app(**SDK_PROFILES[profile])
    with serve_asgi(app) as url:
        endpoint = ServerEndpoint(url)
        [listed] = operate(endpoint, "list")
        [called] = operate(endpoint, tool="add", arguments={"a": 2, "b": 3})
        [pinged] = operate(endpoint, "ping")
    assert listed.error is None and called.error is None and pinged.error is None, (
        listed.error, called.error, pinged.error)
    assert legs(listed.recorder) == ["server/discover", "tools/list"]
    assert listed.recorder.finished.era == "stateless"
    assert "add" in listed.result.names
    assert called.result.structured_content == {"sum": 5}
    assert pinged.result.protocol_version == "2026-07-28" and pinged.result.server_name == "run-inspector-test"


def test_a_cancel_reaches_the_official_sdk_servers_tool_in_the_stateless_era() -> None:
    from tests.support.asgi_server import serve_asgi
    from tests.support.sdk_server import ToolEvents, build_sdk_server

    events = ToolEvents()
    app = build_sdk_server(events).streamable_http_app(json_response=False, stateless_http=False)
    with serve_asgi(app) as url:
        error, recorder = cancelled_call(url, "slow", {"seconds": 30}, events.started.is_set)
        assert events.cancelled.wait(5), "the SDK server's tool was not cancelled"
    assert isinstance(error, McpTransportError) and error.is_cancellation
    assert recorder.finished.outcome == "cancelled" and recorder.finished.server_told_to_stop is True
    assert not events.finished.is_set()


def test_annotated_arguments_are_mirrored_into_headers_from_the_listed_catalogue() -> None:
    with serve_stateless() as (server, url):
        result, recorder = call(url, "route", era="stateless", listed=False,
                                arguments={"region": "Zürich", "priority": 7})
    assert not isinstance(result, McpTransportError), result
    assert legs(recorder) == ["tools/list", "tools/call"]
    [sent] = server.calls()
    assert sent.headers["mcp-param-priority"] == "7"
    assert sent.headers["mcp-param-region"] == "=?base64?WsO8cmljaA==?="  # not ASCII: base64 of its UTF-8


def test_a_tool_with_an_invalid_annotation_is_set_apart_and_never_called() -> None:
    async def listed() -> Any:
        return await McpClient().list_tools(ServerEndpoint(url, era="stateless"), budget_s=5)

    with serve_stateless() as (server, url):
        catalogue = run(listed)
        result, _ = call(url, "bad_header", era="stateless", listed=False, arguments={"score": 1.5})
    assert "bad_header" not in catalogue.names
    [(tool, reason)] = catalogue.excluded
    assert tool["name"] == "bad_header" and "number" in str(reason)
    assert isinstance(result, McpTransportError) and "was not called" in result.message
    assert server.calls() == []
