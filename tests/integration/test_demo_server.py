"""The demo server, driven by the official SDK client and by ours: every tool and every mode."""

from __future__ import annotations

import asyncio
import base64
import sys
import threading
import time

import httpx
import mcp_types as types
import pytest
from mcp.client import Client

from inspector.demo import DEMO_TOOLS, DemoOptions, DemoServer, InvalidDemoOptionsError
from inspector.mcp import CancelSignal, McpClient, McpTransportError, OperationRecorder, ProgressSeen, ServerEndpoint
from inspector.mcp.server_requests import ServerRequestHandler
from tests.support.asgi_server import refused_after

MODES = {
    "event-stream+session": DemoOptions(),
    "json+session": DemoOptions(json_response=True),
    "event-stream+stateless": DemoOptions(stateless=True),
    "json+stateless": DemoOptions(json_response=True, stateless=True),
}


@pytest.fixture(params=list(MODES))
def demo(request):
    with DemoServer(MODES[request.param]) as server:
        yield server


@pytest.fixture
def plain_demo():
    with DemoServer() as server:
        yield server


#: The eras our client speaks; the demo server (the official SDK) answers in both: ``auto`` finds
#: the stateless era there.
ERAS = ("handshake", "stateless")


def ours(url: str, coroutine_factory, *, era: str = "auto", **client_options):
    async def go():
        client = McpClient(**client_options)
        try:
            return await coroutine_factory(client, ServerEndpoint(url, era=era))
        finally:
            await client.drain()
    return asyncio.run(go())


def leg_names(recorder: OperationRecorder) -> list[str]:
    return [leg.method for leg in recorder.legs]


def sdk(url: str, work, **options):
    async def go():
        async with Client(url, mode="legacy", **options) as client:
            return await work(client)
    return asyncio.run(go())


def texts(result: types.CallToolResult) -> list[str]:
    return [block.text for block in result.content if block.type == "text"]


# -- our client ---------------------------------------------------------------------------------

def test_our_client_every_simple_tool(demo):
    async def go(client: McpClient, endpoint: ServerEndpoint):
        return {
            "echo": await client.call_tool(endpoint, "echo", {"text": "hé", "repeat": 2, "uppercase": True}),
            "add": await client.call_tool(endpoint, "add", {"a": 2, "b": 0.5}),
            "fail": await client.call_tool(endpoint, "fail", {"reason": "a demo"}),
            "flaky": [await client.call_tool(endpoint, "flaky", {"every": 3}) for _ in range(3)],
            "image": await client.call_tool(endpoint, "describe_image", {}),
            "ask": await client.call_tool(endpoint, "ask_user", {"question": "Name?"}),
            "bad": await client.call_tool(endpoint, "echo", {"text": 5}),
            "catalogue": await client.list_tools(endpoint),
        }

    got = ours(demo.url, go)
    assert got["echo"].content == "HÉ\nHÉ" and not got["echo"].is_error
    assert got["add"].structured_content == {"sum": 2.5}
    assert got["fail"].is_error and "a demo" in got["fail"].content
    assert [r.is_error for r in got["flaky"]] == [False, False, True]
    assert got["image"].dropped_blocks == {"image": 1}
    assert got["image"].structured_content == {"width": 16, "height": 8, "format": "png"}
    assert not got["ask"].is_error and "declined" in got["ask"].content
    assert got["bad"].is_error and "text" in got["bad"].content
    assert got["catalogue"].pages == 1
    assert got["catalogue"].names == [tool.name for tool in DEMO_TOOLS]


def test_the_schemas_cover_every_json_type_a_form_meets(plain_demo):
    catalogue = ours(plain_demo.url, lambda client, endpoint: client.list_tools(endpoint))
    seen, has_enum, has_default, has_optional = set(), False, False, False
    for tool in catalogue.tools:
        schema = tool["inputSchema"]
        for name, spec in schema.get("properties", {}).items():
            seen.add(spec["type"])
            has_enum |= "enum" in spec
            has_default |= "default" in spec
            has_optional |= name not in schema.get("required", [])
        assert tool["description"]
    assert seen == {"string", "number", "integer", "boolean", "array", "object"}
    assert has_enum and has_default and has_optional


def test_our_client_writes_and_lists_notes(plain_demo):
    async def go(client, endpoint):
        first = await client.call_tool(endpoint, "write_note", {"text": "milk", "tags": ["shop"], "priority": "high",
                                                                 "meta": {"author": "me"}})
        second = await client.call_tool(endpoint, "write_note", {"text": "milk"})  # not idempotent
        return first, second, await client.call_tool(endpoint, "list_notes", {})

    first, second, listed = ours(plain_demo.url, go)
    assert (first.content, second.content) == ("Note 1 written.", "Note 2 written.")
    assert listed.content == "1. milk (high)\n2. milk (normal)"
    assert plain_demo.state.notes_snapshot()[0]["meta"] == {"author": "me"}


@pytest.mark.parametrize("era", ERAS)
def test_our_client_sees_slow_task_progress(plain_demo, era):
    recorder = OperationRecorder()
    seen: list[ProgressSeen] = []

    class Watch(OperationRecorder):
        def progress(self, report: ProgressSeen) -> None:  # the observer hook of inspector.mcp
            seen.append(report)

    async def go(client, endpoint):
        from inspector.mcp import FanOut
        return await client.call_tool(endpoint, "slow_task", {"seconds": 0.3, "steps": 3},
                                      observer=FanOut(recorder, Watch()))

    result = ours(plain_demo.url, go, era=era)
    assert result.content.startswith("Finished 3 steps")
    assert [(p.progress, p.total) for p in seen] == [(1, 3), (2, 3), (3, 3)]
    assert recorder.finished is not None and recorder.finished.era == era


# The handshake era not in json+stateless: there the SDK has neither a stream whose close it
# notices nor a session that a notifications/cancelled could name, so nothing can reach the handler
# (the client still ends the call at once, and stopping the server ends the handler). In the
# stateless era a cancel is the close of the response stream, which the demo notices in every mode.
@pytest.mark.parametrize(("mode", "era"), [("event-stream+session", "handshake"), ("json+session", "handshake"),
                                           ("event-stream+stateless", "handshake"),
                                           *((mode, "stateless") for mode in MODES)])
def test_the_server_sees_our_cancel_of_hang(mode, era):
    with DemoServer(MODES[mode]) as server:
        cancel = CancelSignal()

        def fire_when_hanging() -> None:
            assert server.state.hang_started.wait(10)
            cancel.fire()

        threading.Thread(target=fire_when_hanging, daemon=True).start()

        async def go(client, endpoint):
            with pytest.raises(McpTransportError) as caught:
                await client.call_tool(endpoint, "hang", {}, budget_s=30, cancel=cancel)
            return caught.value

        error = ours(server.url, go, era=era)
        assert error.is_cancellation and error.in_flight
        assert server.state.hang_cancelled.wait(5), server.state.log_lines()
        assert any("saw the cancel" in line for line in server.state.log_lines())


def test_our_client_walks_the_paged_catalogue():
    with DemoServer(DemoOptions(page_size=7, catalogue_size=40)) as server:
        recorder = OperationRecorder()
        catalogue = ours(server.url, lambda client, endpoint: client.list_tools(endpoint, observer=recorder))
    total = len(DEMO_TOOLS) + 40
    assert len(catalogue.tools) == total and len(set(catalogue.names)) == total
    assert catalogue.pages == -(-total // 7)
    assert [leg.method for leg in recorder.legs].count("tools/list") == catalogue.pages
    assert "lookup_040" in catalogue.names


def test_slow_handshake_delays_both_handshake_legs():
    with DemoServer(DemoOptions(handshake_delay_s=0.4)) as server:
        recorder = OperationRecorder()
        ours(server.url, lambda client, endpoint: client.call_tool(endpoint, "echo", {"text": "x"},
                                                                   observer=recorder), era="handshake")
    elapsed = {leg.method: leg.elapsed_ms for leg in recorder.legs}
    assert elapsed["initialize"] >= 400 and elapsed["notifications/initialized"] >= 400
    assert elapsed["tools/call"] < 400


def test_slow_handshake_delays_the_discover_probe_of_the_stateless_era():
    with DemoServer(DemoOptions(handshake_delay_s=0.4)) as server:
        recorder = OperationRecorder()
        ours(server.url, lambda client, endpoint: client.call_tool(endpoint, "echo", {"text": "x"},
                                                                   observer=recorder))
    # (the client may look the tool up in tools/list first: that is the client's business)
    assert leg_names(recorder)[0] == "server/discover" and leg_names(recorder)[-1] == "tools/call"
    elapsed = {leg.method: leg.elapsed_ms for leg in recorder.legs}
    assert elapsed["server/discover"] >= 400 and elapsed["tools/call"] < 400


def _answer_blue(asked: list):
    async def elicit(request) -> dict:
        asked.append(request)
        return {"action": "accept", "content": {"answer": "blue"}}
    return ServerRequestHandler(elicit=elicit)


@pytest.mark.parametrize("mode", list(MODES))
def test_ask_user_asks_in_rounds_in_the_stateless_era(mode):
    asked: list = []
    recorder = OperationRecorder()
    with DemoServer(MODES[mode]) as server:
        result = ours(server.url, lambda client, endpoint: client.call_tool(
            endpoint, "ask_user", {"question": "Which colour?"}, observer=recorder), handler=_answer_blue(asked))
    assert result.content == "The user answered: blue" and not result.is_error
    assert result.structured_content == {"action": "accept", "answer": "blue"}
    # The probe first (and, where the client wants the tool's definition, tools/list), then the rounds.
    assert leg_names(recorder)[0] == "server/discover"
    assert leg_names(recorder)[-3:] == ["tools/call", "input: elicitation/create", "tools/call (round 2)"]
    assert recorder.finished is not None and recorder.finished.era == "stateless"
    assert len(asked) == 1  # asked once: the input leg, not a request on a stream


def test_ask_user_asks_by_a_server_request_in_the_handshake_era(plain_demo):
    asked: list = []
    recorder = OperationRecorder()
    result = ours(plain_demo.url, lambda client, endpoint: client.call_tool(
        endpoint, "ask_user", {"question": "Which colour?"}, observer=recorder),
        era="handshake", handler=_answer_blue(asked))
    assert result.content == "The user answered: blue"
    assert leg_names(recorder) == ["initialize", "notifications/initialized", "tools/call"]
    assert len(asked) == 1 and [seen.method for seen in recorder.server_requests] == ["elicitation/create"]


@pytest.mark.parametrize("era", ERAS)
def test_ask_user_a_declined_question_in_either_era(plain_demo, era):
    async def decline(request) -> dict:
        return {"action": "decline"}

    result = ours(plain_demo.url, lambda client, endpoint: client.call_tool(endpoint, "ask_user", {}),
                  era=era, handler=ServerRequestHandler(elicit=decline))
    assert result.content == "The user declined the question." and not result.is_error


def _log_lines(recorder: OperationRecorder) -> list[tuple[str, str]]:
    return [(note.params["level"], note.params["data"]) for note in recorder.notifications
            if note.method == "notifications/message"]


@pytest.mark.parametrize("era", ERAS)
def test_log_messages_reach_a_client_that_asked_for_a_level(plain_demo, era):
    recorder = OperationRecorder()
    ours(plain_demo.url, lambda client, endpoint: client.call_tool(endpoint, "write_note", {"text": "milk"},
                                                                   observer=recorder), era=era, log_level="info")
    assert _log_lines(recorder) == [("info", "write_note: note 1 written.")]


def test_a_stateless_request_asking_for_debug_gets_the_debug_lines(plain_demo):
    # No session to remember a level by: the level the request's _meta names is the one that counts.
    cancel = CancelSignal()

    class CancelOnDebug(OperationRecorder):
        def notification(self, report) -> None:
            super().notification(report)
            if report.method == "notifications/message" and report.params.get("level") == "debug":
                cancel.fire()

    recorder = CancelOnDebug()

    async def go(client, endpoint):
        with pytest.raises(McpTransportError):
            await client.call_tool(endpoint, "hang", {}, budget_s=10, cancel=cancel, observer=recorder)

    ours(plain_demo.url, go, log_level="debug")
    levels = [level for level, _ in _log_lines(recorder)]
    assert levels[:2] == ["info", "debug"]
    assert recorder.finished is not None and recorder.finished.era == "stateless"


def test_the_stateless_era_sends_no_log_messages_unasked_and_none_below_the_level(plain_demo):
    unasked, too_low = OperationRecorder(), OperationRecorder()
    ours(plain_demo.url, lambda client, endpoint: client.call_tool(endpoint, "write_note", {"text": "milk"},
                                                                   observer=unasked))
    ours(plain_demo.url, lambda client, endpoint: client.call_tool(endpoint, "write_note", {"text": "tea"},
                                                                   observer=too_low), log_level="warning")
    assert _log_lines(unasked) == [] and _log_lines(too_low) == []
    assert unasked.finished is not None and unasked.finished.era == "stateless"


@pytest.mark.parametrize("mode", list(MODES))
def test_the_transport_modes_on_the_wire(mode):
    options = MODES[mode]
    with DemoServer(options) as server:
        initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "test", "version": "1"}}}
        response = httpx.post(server.url, json=initialize,
                              headers={"Accept": "application/json, text/event-stream"})
    assert response.status_code == 200
    media = response.headers["content-type"].split(";")[0]
    assert media == ("application/json" if options.json_response else "text/event-stream")
    assert ("mcp-session-id" in response.headers) is (not options.stateless)
    assert server.url.startswith("http://127.0.0.1:")


def test_stop_frees_the_port_and_a_taken_port_is_refused(plain_demo):
    from inspector.demo import DemoServerError

    port = int(plain_demo.url.split(":")[2].split("/")[0])
    with pytest.raises(DemoServerError, match="--port"):
        DemoServer(DemoOptions(port=port)).start()
    plain_demo.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.post(plain_demo.url, json={})


def test_options_are_checked():
    for bad in ({"port": -1}, {"handshake_delay_s": -1}, {"page_size": 0}, {"catalogue_size": -3},
                {"catalogue_size": 10_001}):
        with pytest.raises(InvalidDemoOptionsError):
            DemoOptions(**bad)
    assert DemoOptions(catalogue_size=10_000).catalogue_size == 10_000


def test_a_scenario_file_s_catalogue_is_held_to_the_demo_server_s_limit():
    from inspector.agent import scenario
    from inspector.demo.options import MAX_CATALOGUE_SIZE

    assert scenario.MAX_CATALOGUE_SIZE == MAX_CATALOGUE_SIZE  # the agent layer cannot import the demo's


# -- the official SDK client -------------------------------------------------------------------

def test_sdk_client_every_simple_tool(demo):
    async def go(client: Client):
        listed = await client.list_tools()
        return {
            "names": [tool.name for tool in listed.tools],
            "echo": await client.call_tool("echo", {"text": "hi"}),
            "add": await client.call_tool("add", {"a": 1, "b": 2}),
            "fail": await client.call_tool("fail", {}),
            "flaky": [await client.call_tool("flaky", {"every": 2}) for _ in range(2)],
            "image": await client.call_tool("describe_image", {}),
            "note": await client.call_tool("write_note", {"text": "from the SDK"}),
            "notes": await client.call_tool("list_notes", {}),
            "lookup": await client.call_tool("lookup_001", {}),
        }

    got = sdk(demo.url, go)
    assert got["names"] == [tool.name for tool in DEMO_TOOLS]
    assert texts(got["echo"]) == ["hi"]
    assert got["add"].structured_content == {"sum": 3}
    assert got["fail"].is_error
    assert [r.is_error for r in got["flaky"]] == [False, True]
    image = next(block for block in got["image"].content if block.type == "image")
    assert base64.b64decode(image.data).startswith(b"\x89PNG") and image.mime_type == "image/png"
    assert texts(got["notes"]) == ["1. from the SDK (normal)"]
    assert got["lookup"].is_error  # the catalogue tools exist only in the catalogue mode


def test_sdk_client_gets_progress_from_slow_task(plain_demo):
    seen: list[tuple[float, float | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, total))

    result = sdk(plain_demo.url, lambda client: client.call_tool("slow_task", {"seconds": 0.2, "steps": 2},
                                                                 progress_callback=progress))
    assert texts(result)[0].startswith("Finished 2 steps")
    assert seen == [(1, 2), (2, 2)]


def test_sdk_client_answers_ask_user(plain_demo):
    async def answer(context, params: types.ElicitRequestParams) -> types.ElicitResult:
        assert params.message == "Which colour?"
        return types.ElicitResult(action="accept", content={"answer": "blue"})

    result = sdk(plain_demo.url, lambda client: client.call_tool("ask_user", {"question": "Which colour?"}),
                 elicitation_callback=answer)
    assert texts(result) == ["The user answered: blue"]
    assert result.structured_content == {"action": "accept", "answer": "blue"}


def test_sdk_client_without_elicitation_is_declined(plain_demo):
    result = sdk(plain_demo.url, lambda client: client.call_tool("ask_user", {}))
    assert "declined" in texts(result)[0] and not result.is_error


def test_the_server_sees_the_sdk_clients_cancel_of_hang(plain_demo):
    async def go(client: Client):
        call = asyncio.ensure_future(client.call_tool("hang", {}))
        await asyncio.get_running_loop().run_in_executor(None, plain_demo.state.hang_started.wait, 10)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        return await asyncio.get_running_loop().run_in_executor(None, plain_demo.state.hang_cancelled.wait, 5)

    assert sdk(plain_demo.url, go) is True


def test_sdk_client_pages_the_catalogue():
    with DemoServer(DemoOptions(page_size=25, catalogue_size=60)) as server:
        async def go(client: Client):
            names, cursor, pages = [], None, 0
            while True:
                page = await client.list_tools(cursor=cursor)
                pages += 1
                names += [tool.name for tool in page.tools]
                cursor = page.next_cursor
                if cursor is None:
                    return names, pages
        names, pages = sdk(server.url, go)
    assert len(names) == len(DEMO_TOOLS) + 60 and pages == 3


def test_sdk_client_through_a_slow_handshake():
    with DemoServer(DemoOptions(handshake_delay_s=0.3)) as server:
        result = sdk(server.url, lambda client: client.call_tool("echo", {"text": "late"}))
    assert texts(result) == ["late"]


def test_sdk_client_in_its_default_mode_speaks_the_newer_protocol(plain_demo):
    async def go():
        async with Client(plain_demo.url) as client:  # probes server/discover, no handshake
            return client.protocol_version, await client.call_tool("echo", {"text": "modern"})

    version, result = asyncio.run(go())
    assert version not in ("2025-11-25", "2025-06-18")
    assert texts(result) == ["modern"]


def test_sdk_client_in_its_default_mode_answers_ask_user_in_rounds(plain_demo):
    async def answer(context, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"answer": "green"})

    async def go():
        async with Client(plain_demo.url, elicitation_callback=answer) as client:
            return await client.call_tool("ask_user", {"question": "Which colour?"})

    result = asyncio.run(go())
    assert texts(result) == ["The user answered: green"]


def test_slow_task_says_step_for_one_step(plain_demo):
    result = ours(plain_demo.url, lambda client, endpoint: client.call_tool(endpoint, "slow_task",
                                                                           {"seconds": 0, "steps": 1}))
    assert result.content.startswith("Finished 1 step in ")


def test_a_window_listening_in_the_stateless_era_is_acknowledged(plain_demo):
    # The demo serves subscriptions/listen, so the window's listening session stands in this era too
    # (it used to be told "offers no stream of its own").
    from inspector.mcp.eras import RememberedEras
    from inspector.mcp.listening import ListenerState, ServerListener

    async def go() -> ListenerState:
        eras = RememberedEras()
        endpoint = ServerEndpoint(plain_demo.url, era="stateless")
        listener = ServerListener(endpoint, eras=eras)
        task = asyncio.create_task(listener.run())
        try:
            async with asyncio.timeout(10):
                while listener.status.state is not ListenerState.LISTENING:
                    await asyncio.sleep(0.01)
            return listener.status.state
        finally:
            await listener.stop(task)

    assert asyncio.run(go()) is ListenerState.LISTENING


def test_the_demo_server_answers_on_uvloop_and_httptools_where_they_are_installed(plain_demo):
    """The window shares its two cores with this server: the faster loop and parser are what it runs on
    (a fifth less CPU per request, benchmarks/README.md section 8), not asyncio's loop and h11."""
    config = plain_demo._server.config
    assert config.loaded and config.http_protocol_class.__name__ == "HttpToolsProtocol"
    loop = config.get_loop_factory()()
    try:
        expected = "asyncio" if sys.platform == "win32" else "uvloop"
        assert type(loop).__module__.split(".")[0] == expected
    finally:
        loop.close()
    answer = ours(plain_demo.url, lambda client, endpoint: client.call_tool(endpoint, "echo", {"text": "on uvloop"}))
    assert answer.content == "on uvloop" and not answer.is_error


def test_a_stop_is_heard_at_once_not_at_the_servers_next_tick():
    # uvicorn looks at should_exit every tenth of a second: a scenario's demo server kept its
    # command waiting that long on top of the shutdown's own tenth (benchmarks/README.md, section 13).
    heard = []
    for _ in range(3):
        server = DemoServer()
        port = int(server.start().rsplit(":", 1)[1].split("/")[0])
        asked = time.perf_counter()
        server.request_stop()  # returns at once; the listener closes as soon as the loop hears it
        heard.append(refused_after(port, asked))
        server.stop()
    assert sorted(heard)[1] < 0.05, heard
