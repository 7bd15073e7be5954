"""Operations on a command server (stdio) and on the older HTTP+SSE transport, through the client's
one seam: the same legs, deadline, cancel and reports as over Streamable HTTP."""

from __future__ import annotations

# The stdio mechanics here are tested in the handshake era, pinned (era="handshake") for the
# test servers; the stateless era over stdio is in test_real_stdio_servers.py and test_stateless_era.py.
import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from inspector.mcp import CancelSignal, ErrorKind, McpClient, McpTransportError, OperationRecorder, ServerEndpoint
from inspector.mcp.server_command import ServerCommand
from inspector.mcp.standalone import LINE_PROBLEM, STDERR
from tests.support.asgi_server import serve_asgi
from tests.support.processes import alive, legs
from tests.support.stdio_server import server as sdk_server

ROOT = Path(__file__).resolve().parents[2]


def sdk_command(era: str = "handshake") -> ServerEndpoint:
    return ServerEndpoint.for_command(ServerCommand(sys.executable, ("-m", "tests.support.stdio_server"),
                                                    cwd=str(ROOT)), era=era)


def faults(mode: str) -> ServerEndpoint:
    return ServerEndpoint.for_command(ServerCommand(sys.executable, ("-m", "tests.support.stdio_faults", mode),
                                                    cwd=str(ROOT)), era="handshake")






def test_the_first_operation_starts_the_process_and_the_next_reuse_it() -> None:
    async def scenario() -> None:
        client = McpClient()
        server = sdk_command()
        first, second = OperationRecorder(), OperationRecorder()
        try:
            listed = await client.list_tools(server, budget_s=30, observer=first)
            pid = client.processes.pid(server.key)
            called = await client.call_tool(server, "echo", {"text": "hi"}, budget_s=5, observer=second)
            assert client.processes.pid(server.key) == pid and pid is not None and alive(pid)
        finally:
            await client.close()
        assert {tool["name"] for tool in listed.tools} >= {"echo", "hang"}
        assert called.content == "hi"
        assert legs(first) == [("start", "ok"), ("initialize", "ok"), ("notifications/initialized", "ok"),
                               ("tools/list", "ok")]
        assert legs(second) == [("tools/call", "ok")]  # the running process's handshake stands
        # The server's stderr is its log, kept with the operation during which it was written.
        # (kept apart from its notifications, so a flood of lines never crowds its log messages out)
        assert any("echo called with 2 characters" in line for line in second.stderr)
        assert not any(note.method == STDERR for note in second.notifications)
        assert not alive(pid)

    asyncio.run(scenario())


def test_operations_at_once_share_one_process() -> None:
    async def scenario() -> None:
        client = McpClient()
        server = sdk_command()
        recorders = [OperationRecorder() for _ in range(4)]
        try:
            results = await asyncio.gather(*(client.call_tool(server, "echo", {"text": str(n)}, budget_s=30,
                                                              observer=recorder)
                                             for n, recorder in enumerate(recorders)))
        finally:
            await client.close()
        assert [result.content for result in results] == ["0", "1", "2", "3"]
        initializes = sum(1 for recorder in recorders for method, _ in legs(recorder) if method == "initialize")
        assert initializes == 1  # one process, one handshake; the others waited in a "start" leg
        assert all(legs(recorder)[-1] == ("tools/call", "ok") for recorder in recorders)

    asyncio.run(scenario())


@pytest.mark.parametrize("era", ["handshake", "auto"])  # the SDK's stdio server speaks both; auto finds stateless
def test_cancel_in_flight_is_named_to_the_server_and_the_process_keeps_serving(era: str) -> None:
    async def scenario() -> None:
        lines: list[str] = []
        client = McpClient(server_output=lambda key, line: lines.append(line))
        server = sdk_command(era)
        cancel = CancelSignal()
        recorder = OperationRecorder()
        try:
            await client.ping(server, budget_s=30)
            pid = client.processes.pid(server.key)
            call = asyncio.ensure_future(client.call_tool(server, "hang", {}, budget_s=30, cancel=cancel,
                                                          observer=recorder))
            while "hang started" not in lines:
                await asyncio.sleep(0.02)
            fired = time.monotonic()
            cancel.fire()
            try:
                await call
            except McpTransportError as error:
                stopped = time.monotonic() - fired
                assert error.is_cancellation and error.in_flight
            else:
                raise AssertionError("the call was not cancelled")
            assert recorder.finished is not None and recorder.finished.outcome == "cancelled"
            assert recorder.finished.server_told_to_stop is True
            assert recorder.finished.era == ("stateless" if era == "auto" else "handshake")
            assert stopped < 1.0
            deadline = time.monotonic() + 10
            while "hang cancelled" not in lines and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert "hang cancelled" in lines  # the server was told at once, with the request's id
            again = await client.call_tool(server, "echo", {"text": "still here"}, budget_s=5)
            assert again.content == "still here" and client.processes.pid(server.key) == pid
        finally:
            await client.close()

    asyncio.run(scenario())


def test_a_call_that_never_answers_ends_on_the_deadline_and_the_process_stays() -> None:
    async def scenario() -> None:
        client = McpClient()
        server = sdk_command()
        try:
            await client.ping(server, budget_s=30)
            pid = client.processes.pid(server.key)
            started = time.monotonic()
            try:
                await client.call_tool(server, "hang", {}, budget_s=2)
            except McpTransportError as error:
                assert error.kind is ErrorKind.TIMED_OUT
            else:
                raise AssertionError("the call did not time out")
            assert 1.5 < time.monotonic() - started < 5
            assert client.processes.pid(server.key) == pid and alive(pid)
        finally:
            await client.close()

    asyncio.run(scenario())


def test_a_missing_program_is_named_in_a_failed_start_leg() -> None:
    async def scenario() -> tuple[McpTransportError, OperationRecorder]:
        client = McpClient()
        recorder = OperationRecorder()
        server = ServerEndpoint.for_command(ServerCommand("no-such-mcp-server-xyz", ("stdio",)))
        try:
            await client.ping(server, budget_s=5, observer=recorder)
        except McpTransportError as error:
            return error, recorder
        finally:
            await client.close()
        raise AssertionError("a missing program was started")

    error, recorder = asyncio.run(scenario())
    assert error.kind is ErrorKind.UNREACHABLE
    assert str(error) == ("Could not start the server no-such-mcp-server-xyz stdio: the program "
                          "'no-such-mcp-server-xyz' was not found: check the command, or give its full path.")
    assert legs(recorder) == [("start", "failed")]


def test_a_process_that_exits_mid_call_fails_the_call_with_its_status_and_last_words() -> None:
    async def scenario() -> McpTransportError:
        client = McpClient()
        try:
            await client.call_tool(faults("exit"), "echo", {}, budget_s=10)
        except McpTransportError as error:
            return error
        finally:
            await client.close()
        raise AssertionError("the call did not fail")

    error = asyncio.run(scenario())
    assert error.kind is ErrorKind.UNREACHABLE
    assert "exited with status 3" in str(error) and "boom" in str(error)


def test_a_banner_on_stdout_is_named_and_the_operation_goes_on() -> None:
    async def scenario() -> OperationRecorder:
        client = McpClient()
        recorder = OperationRecorder()
        try:
            await client.ping(faults("banner"), budget_s=10, observer=recorder)
        finally:
            await client.close()
        return recorder

    recorder = asyncio.run(scenario())
    assert recorder.finished is not None and recorder.finished.outcome == "ok"
    assert recorder.line_problems == ["the server wrote a line on stdout that is not JSON: Server v1.0 ready!"]
    assert not any(note.method == LINE_PROBLEM for note in recorder.notifications)


def test_an_address_of_the_older_transport_is_found_and_remembered() -> None:
    async def scenario(url: str) -> tuple[list, list, str]:
        client = McpClient()
        first, second = OperationRecorder(), OperationRecorder()
        try:
            await client.list_tools(ServerEndpoint(url), budget_s=20, observer=first)
            called = await client.call_tool(ServerEndpoint(url), "echo", {"text": "old"}, budget_s=20,
                                            observer=second)
        finally:
            await client.close()
        return legs(first), legs(second), called.content

    with serve_asgi(sdk_server.sse_app(), "/sse") as url:
        first, second, text = asyncio.run(scenario(url))
    # The probe's POST is refused (its answer: not the stateless era), then the handshake's (405):
    # the client asks for the event stream, and remembers the answer.
    assert first == [("server/discover", "ok"), ("initialize", "failed"), ("connect", "ok"), ("initialize", "ok"),
                     ("notifications/initialized", "ok"), ("tools/list", "ok")]
    assert second == [("connect", "ok"), ("initialize", "ok"), ("notifications/initialized", "ok"),
                      ("tools/call", "ok")]
    assert text == "old"


def test_cancel_on_the_older_transport_is_cancelled_in_flight() -> None:
    async def scenario(url: str) -> McpTransportError:
        client = McpClient()
        cancel = CancelSignal()
        server = ServerEndpoint(url, transport="sse")
        try:
            call = asyncio.ensure_future(client.call_tool(server, "hang", {}, budget_s=20, cancel=cancel))
            await asyncio.sleep(1.0)
            cancel.fire()
            try:
                await call
            except McpTransportError as error:
                return error
        finally:
            await client.close()
        raise AssertionError("not cancelled")

    with serve_asgi(sdk_server.sse_app(), "/sse") as url:
        error = asyncio.run(scenario(url))
    assert error.is_cancellation and error.in_flight


def test_an_address_that_refuses_the_post_and_has_no_event_stream_keeps_its_first_error() -> None:
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def refuse(_request):  # noqa: ANN001 - starlette's request
        return PlainTextResponse("no", status_code=405)

    app = Starlette(routes=[Route("/mcp", refuse, methods=["GET", "POST"])])

    async def scenario(url: str) -> McpTransportError:
        client = McpClient()
        try:
            await client.ping(ServerEndpoint(url), budget_s=10)
        except McpTransportError as error:
            return error
        finally:
            await client.close()
        raise AssertionError("not refused")

    with serve_asgi(app, "/mcp") as url:
        error = asyncio.run(scenario(url))
    assert error.kind is ErrorKind.HTTP_STATUS and error.http_status == 405


def test_a_process_silent_through_three_timed_out_operations_is_taken_for_wedged_and_restarted() -> None:
    async def scenario() -> tuple[list[str], int | None, int | None, int | None, list, bool]:
        client = McpClient()
        server = faults("mute")
        sentences = []
        try:
            await client.ping(server, budget_s=1)  # the handshake is answered, the ping is not
        except McpTransportError as error:
            sentences.append(str(error))
        first_pid = client.processes.pid(server.key)
        recorder = OperationRecorder()
        try:
            for _ in range(3):
                try:
                    await client.call_tool(server, "echo", {}, budget_s=1)
                except McpTransportError as error:
                    sentences.append(str(error))
            after_pid = client.processes.pid(server.key)
            try:
                await client.call_tool(server, "echo", {}, budget_s=1, observer=recorder)
            except McpTransportError:
                pass
            next_pid = client.processes.pid(server.key)
        finally:
            await client.close()
        return sentences, first_pid, after_pid, next_pid, legs(recorder), first_pid is not None and alive(first_pid)

    sentences, first_pid, after_pid, next_pid, next_legs, still_alive = asyncio.run(scenario())
    assert len(sentences) == 4 and all("did not finish answering" in sentence for sentence in sentences)
    # The ping's operation heard the handshake's answer: only the three silent ones count.
    assert ["it was stopped" in sentence for sentence in sentences] == [False, False, False, True]
    assert first_pid is not None and after_pid is None and not still_alive
    # The next operation starts it anew.
    assert next_pid not in (None, first_pid) and next_legs[:2] == [("start", "ok"), ("initialize", "ok")]


def test_a_process_whose_handshake_failed_is_gone_when_the_client_closes() -> None:
    """A process dropped after a failed handshake is shut down in the background; closing the
    client waits for that too (a command line ends right after close: nothing may outlive it)."""
    lines: list[str] = []

    async def scenario() -> McpTransportError:
        client = McpClient(server_output=lambda key, line: lines.append(line))
        try:
            await client.ping(faults("stuck"), budget_s=1)
        except McpTransportError as error:
            return error
        finally:
            await client.close()
        raise AssertionError("a stuck server answered")

    error = asyncio.run(scenario())
    assert error.kind is ErrorKind.TIMED_OUT and error.method == "initialize"
    pids = [int(line.split()[1]) for line in lines if isinstance(line, str) and line.startswith("stuck ")]
    assert len(pids) == 1
    assert not alive(pids[0])


def test_closing_the_client_while_a_process_is_being_started_leaves_no_process(monkeypatch) -> None:  # noqa: ANN001
    """The window closing (or Ctrl-C) just while an operation spawns the server: the process that
    comes up after ``close()`` began is shut down at once, not left running unknown to the client."""
    from inspector.mcp.channels.stdio import StdioProcess

    real_start = StdioProcess.start.__func__  # type: ignore[attr-defined]
    spawned: list[int] = []

    async def scenario() -> McpTransportError:
        started, release = asyncio.Event(), asyncio.Event()

        async def held_start(cls, command, **kwargs):  # noqa: ANN001, ANN202 - the real start, held open
            process = await real_start(cls, command, **kwargs)
            spawned.append(process.pid)
            started.set()
            await release.wait()
            return process

        monkeypatch.setattr(StdioProcess, "start", classmethod(held_start))
        client = McpClient()
        recorder = OperationRecorder()
        ping = asyncio.ensure_future(client.ping(sdk_command(), budget_s=20, observer=recorder))
        await started.wait()
        await client.close()
        release.set()
        try:
            await ping
        except McpTransportError as error:
            assert legs(recorder) == [("start", "failed")]
            assert client.processes.running() == []
            return error
        finally:
            await client.close()
        raise AssertionError("the operation went on after the client was closed")

    error = asyncio.run(scenario())
    assert "stopped while its process was starting" in str(error)
    assert len(spawned) == 1 and not alive(spawned[0])


def test_a_process_killed_mid_call_fails_the_call_by_its_signal_and_the_next_operation_starts_anew() -> None:
    async def scenario() -> None:
        lines: list[str] = []
        client = McpClient(server_output=lambda key, line: lines.append(line))
        server = sdk_command()
        recorder = OperationRecorder()
        try:
            await client.ping(server, budget_s=30)
            pid = client.processes.pid(server.key)
            assert pid is not None
            call = asyncio.ensure_future(client.call_tool(server, "hang", {}, budget_s=30, observer=recorder))
            while "hang started" not in lines:
                await asyncio.sleep(0.02)
            os.kill(pid, signal.SIGKILL)
            try:
                await call
            except McpTransportError as error:
                assert error.kind is ErrorKind.UNREACHABLE and error.method == "tools/call"
                assert "was ended by signal SIGKILL (9)" in str(error) and "hang started" in str(error)
            else:
                raise AssertionError("the call outlived its process")
            assert legs(recorder) == [("tools/call", "failed")]
            assert client.processes.running() == []
            again = OperationRecorder()
            called = await client.call_tool(server, "echo", {"text": "anew"}, budget_s=30, observer=again)
            assert called.content == "anew"
            assert [method for method, _ in legs(again)] == ["start", "initialize", "notifications/initialized",
                                                             "tools/call"]
            assert client.processes.pid(server.key) not in (None, pid)
        finally:
            await client.close()

    asyncio.run(scenario())


def test_a_log_message_between_operations_reaches_the_processes_listener_scrubbed() -> None:
    heard: list[tuple[str, str, dict]] = []

    async def scenario() -> str:
        client = McpClient()
        client.processes.on_notification = lambda key, note: heard.append((key, note.method, note.params))
        command = ServerCommand(sys.executable, ("-m", "tests.support.stdio_server"), {"API_TOKEN": "tok-5512-secret"},
                                cwd=str(ROOT))
        server = ServerEndpoint.for_command(command, era="handshake")  # messages between operations
        try:
            await client.call_tool(server, "log_later", {"text": "later: tok-5512-secret"}, budget_s=30)
            deadline = time.monotonic() + 10
            while not heard and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
        finally:
            await client.close()
        return server.key

    key = asyncio.run(scenario())
    assert [(k, method) for k, method, _ in heard] == [(key, "notifications/message")]
    assert heard[0][2]["data"] == "later: [REDACTED]" and heard[0][2]["level"] == "warning"


def test_a_failed_operation_names_what_the_server_wrote_besides_its_messages() -> None:
    async def scenario() -> McpTransportError:
        client = McpClient()
        try:
            await client.call_tool(faults("babble"), "echo", {}, budget_s=2)
        except McpTransportError as error:
            return error
        finally:
            await client.close()
        raise AssertionError("a babbling server answered")

    error = asyncio.run(scenario())
    assert error.kind is ErrorKind.TIMED_OUT
    assert str(error).endswith(" Seen on the way: the server wrote a line on stdout that is not JSON: "
                               "working on it....")
