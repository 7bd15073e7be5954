"""A server as a child process: real processes on this machine, the official SDK's stdio server among them."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from inspector.mcp.channels.stdio import ChannelError, ProcessExited, StdioProcess, server_environment
from inspector.mcp.server_command import ServerCommand
from tests.support.processes import alive, group_alive

ROOT = Path(__file__).resolve().parents[2]
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}


def sdk_server() -> ServerCommand:
    return ServerCommand(sys.executable, ("-m", "tests.support.stdio_server"), cwd=str(ROOT))


def faults(mode: str) -> ServerCommand:
    return ServerCommand(sys.executable, ("-m", "tests.support.stdio_faults", mode), cwd=str(ROOT))


def call(name: str, arguments: dict, request_id: int = 7) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}


async def started_sdk_server(**callbacks) -> StdioProcess:
    process = await StdioProcess.start(sdk_server(), **callbacks)
    answer = await asyncio.wait_for(process.request(INITIALIZE), 20)
    assert answer["id"] == 1 and "serverInfo" in answer["result"]
    await process.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return process


def test_the_sdk_server_answers_over_stdio_and_its_stderr_is_its_log() -> None:
    async def scenario() -> None:
        logged: list[str] = []
        process = await started_sdk_server(on_stderr=logged.append)
        try:
            answer = await asyncio.wait_for(process.request(call("echo", {"text": "hello"})), 10)
            assert answer["id"] == 7 and answer["result"]["content"][0]["text"] == "hello"
            # Two operations at once on one process, each with its own id 7: each gets its own answer.
            both = await asyncio.wait_for(asyncio.gather(process.request(call("echo", {"text": "a"})),
                                                         process.request(call("echo", {"text": "b"}))), 10)
            assert [item["result"]["content"][0]["text"] for item in both] == ["a", "b"]
            assert "stdio test server starting" in logged and "echo called with 5 characters" in logged
        finally:
            status = await process.close()
        assert status is not None and not process.running

    asyncio.run(scenario())


def test_a_cancelled_request_is_named_to_the_server_and_the_process_keeps_serving() -> None:
    async def scenario() -> None:
        logged: list[str] = []
        process = await started_sdk_server(on_stderr=logged.append)
        try:
            hang = asyncio.ensure_future(process.request(call("hang", {})))
            for _ in range(200):
                if "hang started" in logged:
                    break
                await asyncio.sleep(0.05)
            hang.cancel()
            with pytest.raises(asyncio.CancelledError):
                await hang
            for _ in range(200):
                if "hang cancelled" in logged:
                    break
                await asyncio.sleep(0.05)
            assert "hang cancelled" in logged, logged[-5:]
            answer = await asyncio.wait_for(process.request(call("echo", {"text": "still here"})), 10)
            assert answer["result"]["content"][0]["text"] == "still here"
        finally:
            await process.close()

    asyncio.run(scenario())


def test_a_banner_and_a_huge_line_on_stdout_are_named_and_the_answers_still_arrive() -> None:
    async def scenario(mode: str) -> list[str]:
        problems: list[str] = []
        process = await StdioProcess.start(faults(mode), on_problem=lambda sentence: problems.append(str(sentence)))
        try:
            answer = await asyncio.wait_for(process.request({"jsonrpc": "2.0", "id": "a", "method": "m",
                                                             "params": {"n": 1}}), 20)
            assert answer == {"jsonrpc": "2.0", "id": "a", "result": {"echo": {"n": 1}}}
        finally:
            await process.close()
        return problems

    assert asyncio.run(scenario("banner")) == ["the server wrote a line on stdout that is not JSON: Server v1.0 ready!"]
    assert asyncio.run(scenario("huge")) == [
        "the server sent a message of 20 MB on stdout, over the 16 MB limit; it was dropped"]


def test_a_process_that_exits_mid_call_is_named_with_its_status_and_last_words() -> None:
    async def scenario() -> None:
        process = await StdioProcess.start(faults("exit"))
        with pytest.raises(ProcessExited) as exited:
            await asyncio.wait_for(process.request({"jsonrpc": "2.0", "id": 1, "method": "m"}), 20)
        assert exited.value.status == 3
        assert str(exited.value) == "the server process exited with status 3; its last words on stderr: boom"
        with pytest.raises(ProcessExited):
            await process.request({"jsonrpc": "2.0", "id": 2, "method": "m"})
        assert await process.close() == 3

    asyncio.run(scenario())


def test_a_server_that_fails_at_its_start_is_named_with_its_status_and_last_words_every_time() -> None:
    # The commonest failure (a missing token, a bad flag): it says why on stderr and exits before it
    # reads anything, so the first request's write, the end of stdout, the exit and the stderr line
    # come in any order. Each time the sentence has the status and the reason, never just "closed".
    async def scenario() -> list[str]:
        said = []
        for _ in range(10):
            process = await StdioProcess.start(ServerCommand("sh", ("-c", "echo missing API_TOKEN >&2; exit 3")))
            with pytest.raises(ProcessExited) as exited:
                await asyncio.wait_for(process.request(INITIALIZE), 20)
            said.append(str(exited.value))
            await process.close()
        return said

    assert asyncio.run(scenario()) == 10 * [
        "the server process exited with status 3; its last words on stderr: missing API_TOKEN"]


def test_a_server_that_closes_its_stdin_and_runs_on_is_said_to_have_closed_its_stdin() -> None:
    # Its stdout is open, it has not exited: "closed its output" would name the wrong pipe.
    closer = "import os, sys, time; os.close(0); print('closed', file=sys.stderr, flush=True); time.sleep(60)"

    async def scenario() -> None:
        logged: list[str] = []
        process = await StdioProcess.start(ServerCommand(sys.executable, ("-c", closer)), on_stderr=logged.append)
        for _ in range(200):
            if logged:
                break
            await asyncio.sleep(0.05)
        with pytest.raises(ProcessExited) as exited:
            await asyncio.wait_for(process.request(INITIALIZE), 20)
        assert exited.value.status is None
        assert str(exited.value) == "the server process closed its stdin and runs on: no request can reach it"
        assert await process.close(grace_s=0.3) == -signal.SIGTERM

    asyncio.run(scenario())


def test_a_process_killed_by_a_signal_mid_call_is_named_with_the_signal_not_a_negative_status() -> None:
    async def scenario() -> None:
        logged: list[str] = []
        process = await started_sdk_server(on_stderr=logged.append)
        waiting = asyncio.ensure_future(process.request(call("hang", {})))
        while "hang started" not in logged:
            await asyncio.sleep(0.02)
        os.kill(process.pid, signal.SIGKILL)
        with pytest.raises(ProcessExited) as exited:
            await asyncio.wait_for(waiting, 20)
        assert exited.value.status == -9  # Python's way; the sentence says it as a person would
        assert str(exited.value) == ("the server process was ended by signal SIGKILL (9); its last words on "
                                     "stderr: stdio test server starting\nhang started")
        assert await process.close() == -9

    asyncio.run(scenario())


def test_a_stubborn_server_and_its_grandchild_are_gone_after_a_bounded_close() -> None:
    async def scenario() -> tuple[float, int]:
        logged: list[str] = []
        process = await StdioProcess.start(faults("stubborn"), on_stderr=logged.append)
        for _ in range(200):
            if any(line.startswith("grandchild") for line in logged):
                break
            await asyncio.sleep(0.05)
        grandchild = int(next(line for line in logged if line.startswith("grandchild")).split()[1])
        began = time.monotonic()
        await process.close(grace_s=0.5)
        return time.monotonic() - began, grandchild

    took, grandchild = asyncio.run(scenario())
    assert took < 5, took  # two grace periods and a kill: about a second
    for _ in range(100):  # the grandchild was killed with the group; wait for it to be reaped by init
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"grandchild {grandchild} outlived its server")


def test_a_program_that_does_not_exist_is_named() -> None:
    with pytest.raises(ChannelError, match="the program 'no-such-mcp-server' was not found"):
        asyncio.run(StdioProcess.start(ServerCommand("no-such-mcp-server")))
    with pytest.raises(ChannelError, match="does not exist"):
        asyncio.run(StdioProcess.start(ServerCommand(sys.executable, cwd="/no/such/folder")))


def test_a_flood_on_stderr_is_kept_bounded() -> None:
    async def scenario() -> StdioProcess:
        process = await StdioProcess.start(faults("flood"))
        await asyncio.wait_for(process.request({"jsonrpc": "2.0", "id": 1, "method": "m"}), 30)
        await process.close()
        return process

    process = asyncio.run(scenario())
    assert len(process.stderr_tail) == 200 and process.stderr_tail[-1] == "log line 199999"


def test_a_server_gets_the_base_environment_and_its_own_variables_only() -> None:
    parent = {"PATH": "/usr/bin", "HOME": "/home/ada", "OPENAI_API_KEY": "sk-parent", "SHELL": "() { :; }",
              "HTTPS_PROXY": "http://proxy:3128", "NODE_EXTRA_CA_CERTS": "/etc/ca.pem", "AWS_SECRET_ACCESS_KEY": "x"}
    env = server_environment(ServerCommand("prog", env={"API_KEY": "own"}), parent)
    assert env == {"PATH": "/usr/bin", "HOME": "/home/ada", "API_KEY": "own", "HTTPS_PROXY": "http://proxy:3128",
                   "NODE_EXTRA_CA_CERTS": "/etc/ca.pem"}


def test_an_initialize_given_up_is_not_cancelled_but_any_other_request_is() -> None:
    # The lifecycle says a client MUST NOT cancel initialize; the server hears of the other one at once.
    async def scenario() -> list[str]:
        logged: list[str] = []
        process = await StdioProcess.start(faults("silent"), on_stderr=logged.append)
        try:
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(process.request(INITIALIZE), 0.5)
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(process.request(call("echo", {})), 0.5)
            for _ in range(200):
                if "heard notifications/cancelled" in logged:
                    break
                await asyncio.sleep(0.05)
        finally:
            await process.close()
        return logged

    assert asyncio.run(scenario()) == ["heard initialize", "heard tools/call", "heard notifications/cancelled"]


def handshaken(mode: str, **callbacks) -> StdioProcess:
    async def start() -> StdioProcess:
        process = await StdioProcess.start(faults(mode), **callbacks)
        await asyncio.wait_for(process.request(INITIALIZE), 20)
        return process

    return start()


def test_a_server_that_closes_its_stdout_and_runs_on_fails_the_call_at_once() -> None:
    # No answer can come any more: the call fails now, not at its deadline as a time-out.
    async def scenario() -> None:
        process = await handshaken("closeout")
        try:
            began = time.monotonic()
            with pytest.raises(ProcessExited) as exited:
                await asyncio.wait_for(process.request(call("echo", {})), 20)
            assert time.monotonic() - began < 5
            assert str(exited.value) == "the server process closed its output"
            assert not process.running  # the next operation starts a process anew
        finally:
            await process.close(grace_s=0.5)
        assert not group_alive(process.pid)

    asyncio.run(scenario())


def test_a_server_that_exits_while_its_child_holds_stdout_fails_the_call_with_its_status() -> None:
    async def scenario() -> None:
        logged: list[str] = []
        process = await handshaken("orphan", on_stderr=logged.append)
        try:
            began = time.monotonic()
            with pytest.raises(ProcessExited) as exited:
                await asyncio.wait_for(process.request(call("echo", {})), 20)
            assert time.monotonic() - began < 5
            assert exited.value.status == 4 and "exited with status 4" in str(exited.value)
            child = int(next(line for line in logged if line.startswith("child ")).split()[1])
            assert alive(child)  # it holds the pipe: the server's exit alone is what ended the call
        finally:
            await process.close(grace_s=0.5)
        for _ in range(100):  # killed with the group; it closed the pipe on its way out, a moment before its end
            if not alive(child):
                break
            await asyncio.sleep(0.05)
        assert not alive(child) and not group_alive(process.pid)

    asyncio.run(scenario())


def test_an_answer_without_its_newline_is_named_while_the_call_still_waits() -> None:
    # The beginner's server bug: write(json) without "\n". The answer is never a message; what
    # the server wrote is said (once) so the time-out that follows has its reason.
    async def scenario() -> list[str]:
        problems: list[str] = []
        process = await handshaken("unended", on_problem=lambda sentence: problems.append(str(sentence)))
        try:
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(process.request(call("echo", {})), 3)
        finally:
            await process.close(grace_s=0.5)
        return problems

    assert asyncio.run(scenario()) == [
        'the server wrote 41 bytes on stdout without ending the line, and nothing more for 1 s: every message '
        'must end with a newline. It begins: {"jsonrpc": "2.0", "id": 2, "result": {}}',
        # It hangs: the shutdown waits for it, then says why it took that long.
        "the server process did not exit within 0.5 s of the end of its input (a server should exit when its stdin "
        "closes); it was sent SIGTERM"]


def test_a_folder_given_as_the_program_is_named_a_folder(tmp_path: Path) -> None:
    # The usual slip: the server's folder, not its script or binary. "Permission denied" would
    # send the user after the file's mode instead.
    with pytest.raises(ChannelError) as refused:
        asyncio.run(StdioProcess.start(ServerCommand(str(tmp_path))))
    assert str(refused.value) == (f"the program '{tmp_path}' is a folder: give the program in it to start "
                                  "(a script or a binary), or the command that runs it")


def test_a_script_whose_interpreter_is_missing_is_not_said_to_be_missing_itself(tmp_path: Path) -> None:
    # A virtual environment moved after install: its scripts' "#!" lines name the old python. The
    # system says "not found" of the script, which is right there; the interpreter is what is missing.
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    moved = bin_folder / "mcp-server-moved"
    moved.write_text("#!/old/venv/bin/python3\nimport sys\n")
    saved_on_windows = tmp_path / "server.py"
    saved_on_windows.write_bytes(("#!" + sys.executable + "\r\nprint(1)\r\n").encode())
    for script in (moved, saved_on_windows):
        script.chmod(0o755)

    def refusal(command: ServerCommand) -> str:
        with pytest.raises(ChannelError) as refused:
            asyncio.run(StdioProcess.start(command))
        return str(refused.value)

    advice = "(a virtual environment moved or removed, or a runtime not installed)"
    assert refusal(ServerCommand(str(moved))) == (f"the program '{moved}' was found, but not the interpreter its "
                                                  f"first line names: /old/venv/bin/python3 {advice}")
    # Found on the server's PATH by its bare name, as a command line usually gives it.
    assert refusal(ServerCommand("mcp-server-moved", env={"PATH": str(bin_folder)})) == (
        f"the program 'mcp-server-moved' was found, but not the interpreter its first line names: "
        f"/old/venv/bin/python3 {advice}")
    assert refusal(ServerCommand("./server.py", cwd=str(tmp_path))) == (
        f"the program './server.py' was found, but not the interpreter its first line names: "
        f"{sys.executable}\\r {advice}")


def test_close_is_bounded_when_a_child_in_a_session_of_its_own_holds_stdout() -> None:
    # The server ignores SIGTERM and needs SIGKILL; its child escaped the group and keeps the pipes
    # open. The ladder follows the server's exit, not the pipes' end, so close() still ends.
    async def scenario() -> tuple[float, int, int | None]:
        logged: list[str] = []
        process = await StdioProcess.start(faults("escaped"), on_stderr=logged.append)
        for _ in range(200):
            if any(line.startswith("grandchild") for line in logged):
                break
            await asyncio.sleep(0.05)
        escaped = int(next(line for line in logged if line.startswith("grandchild")).split()[1])
        began = time.monotonic()
        try:
            status = await asyncio.wait_for(process.close(grace_s=0.3), 10)
        finally:
            os.kill(escaped, signal.SIGKILL)  # beyond the client's reach: the test's to end
        return time.monotonic() - began, escaped, status

    took, _escaped, status = asyncio.run(scenario())
    assert took < 3, took
    assert status == -signal.SIGKILL
