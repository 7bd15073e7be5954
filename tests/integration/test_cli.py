"""The command line as a user runs it: a real process against real servers on 127.0.0.1."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here
from tests.support.sdk_server import ToolEvents, build_sdk_server

ROOT = Path(__file__).resolve().parents[2]
SECRET = "Bearer s3cr3t-token-value"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return cli_here(*args)  # in this process; the tests below that are about the process start one


@pytest.fixture(scope="module")
def sdk_events() -> ToolEvents:
    return ToolEvents()


@pytest.fixture(scope="module")
def sdk_url(sdk_events: ToolEvents) -> Iterator[str]:
    with serve_asgi(build_sdk_server(sdk_events).streamable_http_app()) as url:
        yield url


def test_call_json_is_one_object_with_every_leg(sdk_url: str) -> None:
    done = run_cli("call", sdk_url, "echo", "--args", '{"text": "hello"}', "--json", "--budget", "7")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)  # exactly one object: json.loads refuses trailing data
    assert report["operation"] == "tools/call"
    assert report["tool"] == "echo"
    assert report["outcome"] == "ok"
    assert report["is_error"] is False
    assert report["content"] == "hello"
    assert report["error"] is None
    assert report["budget_s"] == 7
    # The SDK server serves the stateless era, which the default era (auto) finds with its probe;
    # the call lists the catalogue first (its x-mcp-header annotations make the call's headers).
    assert [leg["method"] for leg in report["legs"]] == ["server/discover", "tools/list", "tools/call"]
    assert [leg["granted_s"] for leg in report["legs"]] == [7, 7, 7]
    assert all(leg["outcome"] == "ok" and leg["elapsed_ms"] >= 0 for leg in report["legs"])
    assert [leg["http_status"] for leg in report["legs"]] == [200, 200, 200]
    assert report["era"] == "stateless"


def test_non_text_blocks_keep_their_details_in_json_readable_output_and_the_store(sdk_url: str) -> None:
    from tests.support.sdk_server import IMAGE_BASE64

    done = run_cli("call", sdk_url, "files", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    expected = [
        {"type": "text", "size": 18},
        {"type": "resource_link", "uri": "file:///srv/report.csv", "name": "report.csv", "mimeType": "text/csv",
         "size": 2048},
        {"type": "resource", "uri": "memo://notes/1", "mimeType": "text/plain", "size": 22,
         "text": "first note\nsecond note"},
        {"type": "image", "mimeType": "image/png", "size": 4},
    ]
    assert report["content_blocks"] == expected
    assert IMAGE_BASE64 not in done.stdout
    assert report["content"].startswith("[3 blocks are not shown as text: 1 image, 1 embedded resource, "
                                        "1 resource link.]")

    readable = run_cli("call", sdk_url, "files").stdout.splitlines()
    assert "Resource link report.csv: file:///srv/report.csv (text/csv, 2,048 bytes)." in readable
    assert "Embedded resource memo://notes/1 (text/plain, 22 bytes)." in readable
    assert "    second note" in readable
    assert "Image (image/png, 4 bytes)." in readable

    from inspector.store import RunStore

    with RunStore.open(os.environ["RUN_INSPECTOR_DB"]) as store:
        (step,) = store.steps_page(report["run_id"])
        assert step.payload["contentBlocks"] == expected
    shown = run_cli("runs", "show", str(report["run_id"])).stdout.splitlines()
    assert "    Resource link report.csv: file:///srv/report.csv (text/csv, 2,048 bytes)." in shown
    assert "    Image (image/png, 4 bytes)." in shown
    stored = json.loads(run_cli("runs", "show", str(report["run_id"]), "--json").stdout)
    assert stored["timeline"][0]["payload"]["contentBlocks"] == expected


def test_a_tool_that_reports_an_error_exits_1(sdk_url: str) -> None:
    done = run_cli("call", sdk_url, "explode", "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["outcome"] == "failed"
    assert report["is_error"] is True
    assert report["error"] is None  # the server answered; the tool said it failed


def test_a_tool_the_server_does_not_list_is_named_with_the_tools_it_lists(demo_server, tmp_path: Path) -> None:
    # The demo server (stateless era) says an unknown tool failed as a tool error; the catalogue the
    # call listed for its headers tells the user which names would have worked.
    db = str(tmp_path / "runs.db")
    done = run_cli("--db", db, "call", demo_server.url, "nosuch")
    assert done.returncode == 1
    assert ("The server lists no tool named nosuch; it lists add, ask_user, describe_image, echo, fail, flaky, "
            "hang, list_notes, slow_task, write_note.") in done.stdout
    report = json.loads(run_cli("--db", db, "call", demo_server.url, "nosuch", "--json").stdout)
    assert report["listed_tools"][:3] == ["add", "ask_user", "describe_image"]
    listed = json.loads(run_cli("--db", db, "call", demo_server.url, "fail", "--json").stdout)
    assert listed["outcome"] == "failed" and "listed_tools" not in listed  # a listed tool that failed


def test_in_the_handshake_era_too_a_tool_the_server_does_not_list_is_named(tmp_path: Path) -> None:
    # A server that runs tools as tasks: the call reads the catalogue for the tool's definition (may
    # it run as one?); read to its end without the tool, it tells the user what the server lists.
    from tests.support.task_server import TaskServer, _tools

    with TaskServer().serve() as url:
        done = run_cli("--db", str(tmp_path / "runs.db"), "call", "--era", "handshake", url, "nosuch", "--json")
        readable = run_cli("--db", str(tmp_path / "runs.db"), "call", "--era", "handshake", url, "nosuch")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["era"] == "handshake" and "unknown tool nosuch" in report["error"]["message"]
    assert report["listed_tools"] == sorted(tool["name"] for tool in _tools())
    assert "The server lists no tool named nosuch; it lists " in readable.stdout


def test_an_unlisted_tools_hint_shortens_a_long_list() -> None:
    from inspector.cli.operations import SHOWN_TOOL_NAMES, unlisted_tool_line

    names = [f"t{index:02}" for index in range(SHOWN_TOOL_NAMES + 3)]
    assert unlisted_tool_line("x", names).endswith("t08, t09 and 3 more.")
    assert unlisted_tool_line("x", []) == "The server lists no tools at all."


def test_tools_lists_names_and_pages(sdk_url: str) -> None:
    done = run_cli("tools", sdk_url, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["operation"] == "tools/list"
    assert {"echo", "add", "explode", "slow"} <= {tool["name"] for tool in report["tools"]}
    assert report["pages"] == 1
    readable = run_cli("tools", sdk_url)
    assert "echo" in readable.stdout and "tools/list" in readable.stdout


def test_tools_shows_each_tools_arguments_and_the_whole_schema_in_json(sdk_url: str) -> None:
    report = json.loads(run_cli("tools", sdk_url, "--json").stdout)
    tools = {tool["name"]: tool for tool in report["tools"]}
    assert tools["add"]["inputSchema"]["required"] == ["a", "b"]
    schema = tools["echo"]["inputSchema"]
    assert schema["type"] == "object" and schema["required"] == ["text"]
    assert schema["properties"]["text"]["type"] == "string"
    readable = run_cli("tools", sdk_url).stdout.splitlines()
    assert f"{len(report['tools'])} tools in 1 page:" in readable
    echo = next(index for index, line in enumerate(readable) if line.strip().startswith("echo"))
    assert readable[echo + 1].strip() == "text (string, required)"
    explode = next(index for index, line in enumerate(readable) if line.strip().startswith("explode"))
    assert readable[explode + 1].strip() == "reason (string, optional)"


def test_ping_sends_a_ping_request_after_the_handshake(sdk_url: str) -> None:
    done = run_cli("ping", sdk_url, "--era", "handshake", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [leg["method"] for leg in report["legs"]] == ["initialize", "notifications/initialized", "ping"]
    assert report["ping_ms"] >= 0
    readable = run_cli("ping", sdk_url, "--era", "handshake")
    assert readable.returncode == 0, readable.stderr
    assert "answered ping in" in readable.stdout


def test_ping_in_the_stateless_era_says_what_answered(sdk_url: str) -> None:
    """The stateless era has no ping: `ping` sends server/discover, but said "answered ping in 0.024 s"."""
    readable = run_cli("ping", sdk_url, "--era", "stateless", "--no-store")
    assert readable.returncode == 0, readable.stderr
    assert "answered ping" not in readable.stdout
    assert " and answered server/discover in " in readable.stdout
    assert "(the stateless era has no ping)" in readable.stdout
    # The stored step says it too (runs show, the window's timeline, an export).
    stored = run_cli("ping", sdk_url, "--era", "stateless", "--json")
    assert stored.returncode == 0, stored.stderr
    from inspector.store import RunStore

    with RunStore.open(os.environ["RUN_INSPECTOR_DB"]) as store:
        (step,) = store.steps_page(json.loads(stored.stdout)["run_id"])
        said = step.payload["content"]
    assert "answered server/discover in" in said and "answered ping" not in said, said


def test_readable_summary_names_legs_and_content(sdk_url: str) -> None:
    done = run_cli("call", sdk_url, "--era", "handshake", "echo", "--args", '{"text": "readable"}')
    assert done.returncode == 0
    assert "readable" in done.stdout
    for method in ("initialize", "notifications/initialized", "tools/call"):
        assert method in done.stdout
    assert "granted" in done.stdout


def test_unreachable_server_fails_with_the_error_sentence() -> None:
    from tests.support.asgi_server import closed_port

    url = f"http://127.0.0.1:{closed_port()}/mcp"
    done = run_cli("call", url, "echo", "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["error"]["kind"] == "unreachable"
    assert isinstance(report["error"]["code"], int)
    assert url in report["error"]["message"]
    assert report["legs"][0]["outcome"] == "failed"


@pytest.mark.parametrize("args, fragment", [
    (["call", "http://127.0.0.1:9/mcp", "echo", "--args", "{not json"], "--args"),
    (["call", "http://127.0.0.1:9/mcp", "echo", "--args", "[1, 2]"], "JSON object"),
    (["call", "http://127.0.0.1:9/mcp", "echo", "--args", '{"x": NaN}'], "not valid JSON"),
    (["call", "not-a-url", "echo"], "not a server address"),
    (["call", "ftp://127.0.0.1/mcp", "echo"], "not a server address"),
    (["call", "http://127.0.0.1:9/mcp", "echo", "--budget", "soon"], "--budget"),
    (["call", "http://127.0.0.1:9/mcp", "echo", "--budget", "-1"], "--budget"),
    (["tools", "http://127.0.0.1:9/mcp", "--header", "no colon here"], "--header"),
    (["frobnicate"], "is not a command of run-inspector"),
])
def test_bad_usage_exits_2_with_one_line(args: list[str], fragment: str) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert fragment in lines[0]


def test_header_values_are_sent_but_never_printed(sdk_url: str) -> None:
    from tests.support.asgi_server import closed_port

    for args in (["call", sdk_url, "echo", "--args", '{"text": "x"}'],
                 ["call", sdk_url, "echo", "--args", '{"text": "x"}', "--json"],
                 ["ping", f"http://127.0.0.1:{closed_port()}/mcp"],
                 ["ping", f"http://127.0.0.1:{closed_port()}/mcp", "--json"],
                 ["tools", sdk_url, "--header", f"Bad Name: {SECRET}"]):
        done = run_cli(*args, "--header", f"Authorization: {SECRET}")
        assert "s3cr3t" not in done.stdout + done.stderr


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_cancels_in_flight_and_exits_130(sdk_url: str, sdk_events: ToolEvents, signum) -> None:
    """SIGTERM (what `timeout`, a CI runner cancelling a job or a service manager sends) is a cancel as
    Ctrl-C is: it was exit 143, no JSON object, the server not told, the run left with no step."""
    sdk_events.started.clear()
    process = subprocess.Popen(
        [sys.executable, "-m", "inspector", "call", sdk_url, "slow", "--args", '{"seconds": 20}', "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert sdk_events.started.wait(20), "the slow tool never started"
        sent = time.monotonic()
        process.send_signal(signum)
        stdout, _stderr = process.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert took < 2.0  # generous here; the benchmark measures the 0.5 s target
    report = json.loads(stdout)
    assert report["outcome"] == "cancelled"
    assert report["cancelled_in_flight"] is True
    assert report["error"]["kind"] == "cancelled"
    assert report["legs"][-1]["method"] == "tools/call"
    assert report["legs"][-1]["outcome"] == "cancelled"
    assert sdk_events.cancelled.wait(5), "the server's tool was not told to stop"
    # Stored as cancelled, and the server's health does not count it as a failure.
    from inspector.store import RunStore, ServerRegistry

    with RunStore.open(os.environ["RUN_INSPECTOR_DB"]) as store:
        run = store.get_run(report["run_id"])
        assert run.status == "cancelled"
        (step,) = store.steps_page(run.id)
        assert step.outcome == "cancelled" and step.payload["cancelledInFlight"] is True
        health = ServerRegistry(store.db).get(sdk_url)
        assert health.cancelled_count == 1 and health.failed_count == 0


def test_a_cancel_in_flight_reads_as_a_cancel_not_an_error(sdk_url: str, sdk_events: ToolEvents) -> None:
    sdk_events.started.clear()
    process = subprocess.Popen(
        [sys.executable, "-m", "inspector", "call", sdk_url, "slow", "--args", '{"seconds": 20}'],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert sdk_events.started.wait(20), "the slow tool never started"
        process.send_signal(signal.SIGINT)
        stdout, _stderr = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert "Error (" not in stdout  # ADR-191: the user's cancel is never headed as a fault
    assert (f"Cancelled: You cancelled the operation after tools/call had been sent to the server "
            f"{sdk_url}, before its answer arrived. Whether the server acted on it is unknown.") in stdout


def test_python_dash_m_and_the_entry_point_agree() -> None:
    script = Path(sys.executable).with_name("run-inspector")
    if not script.exists():
        pytest.fail("the run-inspector entry point is not installed in this environment")
    by_module = run_cli("--help")
    by_script = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=30,
                               env={**os.environ})
    assert by_module.returncode == by_script.returncode == 0
    assert "call" in by_script.stdout and "tools" in by_script.stdout


@pytest.mark.parametrize("interrupts", [1, 2])
def test_a_server_that_stalls_the_cancel_notice_does_not_hold_the_command(interrupts: int) -> None:
    from tests.support.fault_server import Exchange, FaultServer

    def notification(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "notifications/cancelled":
            exchange.stall()
        else:
            exchange.send(202, b"", content_type=None)

    with FaultServer("session", work=lambda exchange: exchange.stall(), notification=notification) as server:
        process = subprocess.Popen([sys.executable, "-m", "inspector", "call", server.url, "x", "--json"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            assert server.wait_until(lambda: bool(server.posts("tools/call")), 20)
            process.send_signal(signal.SIGINT)
            line = process.stdout.readline()  # the result comes before any housekeeping
            started = time.monotonic()
            if interrupts == 2:
                process.send_signal(signal.SIGINT)
            process.wait(10)
            took = time.monotonic() - started
        finally:
            if process.poll() is None:
                process.kill()
        assert process.returncode == 130
        assert json.loads(line)["outcome"] == "cancelled"
        assert took < 2.0
        if interrupts == 1:  # a second Ctrl-C may leave before the notice is even sent
            assert server.wait_until(lambda: bool(server.posts("notifications/cancelled")), 3)


def test_ctrl_c_against_a_server_without_session_says_it_was_not_told() -> None:
    from tests.support.fault_server import FaultServer

    with FaultServer("stateless", work=lambda exchange: exchange.stall()) as server:
        process = subprocess.Popen([sys.executable, "-m", "inspector", "call", server.url, "x", "--json"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            assert server.wait_until(lambda: bool(server.posts("tools/call")), 20)
            process.send_signal(signal.SIGINT)
            stdout, _ = process.communicate(timeout=10)
        finally:
            if process.poll() is None:
                process.kill()
        assert process.returncode == 130
        report = json.loads(stdout)
        assert report["cancelled_in_flight"] is True and report["server_told_to_stop"] is False
        assert "was not told to stop" in report["error"]["message"]
        shown = run_cli("runs", "show", str(report["run_id"])).stdout
        assert "The server gave no session id, so it was not told to stop this request." in shown
        assert server.posts("notifications/cancelled") == []


def _read_all(fd: int) -> bytes:
    """Everything a pseudo-terminal's program wrote, up to its end (EIO once the program has gone)."""
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def test_on_a_terminal_the_report_after_ctrl_c_starts_on_a_new_line() -> None:
    import pty

    from tests.support.fault_server import FaultServer

    with FaultServer("session", work=lambda exchange: exchange.stall()) as server:
        main_fd, terminal_fd = pty.openpty()
        process = subprocess.Popen([sys.executable, "-m", "inspector", "call", server.url, "hang", "--no-store"],
                                   stdin=subprocess.DEVNULL, stdout=terminal_fd, stderr=subprocess.PIPE, cwd=ROOT)
        os.close(terminal_fd)
        try:
            assert server.wait_until(lambda: bool(server.posts("tools/call")), 20)
            # A terminal echoes the user's Ctrl-C as "^C" where its cursor is, then sends SIGINT.
            process.send_signal(signal.SIGINT)
            process.wait(10)
            written = _read_all(main_fd).decode()
        finally:
            os.close(main_fd)
            if process.poll() is None:
                process.kill()
    assert process.returncode == 130
    assert written.startswith("\r\ntools/call hang on "), written[:80]


def test_readable_legs_are_in_seconds_json_keeps_milliseconds(sdk_url: str) -> None:
    readable = run_cli("call", sdk_url, "--era", "handshake", "slow", "--args", '{"seconds": 1.2}', "--no-store")
    assert readable.returncode == 0, readable.stderr
    legs = [line.strip() for line in readable.stdout.splitlines() if "took" in line]
    [call_leg] = [line for line in legs if line.startswith("tools/call")]
    took = call_leg.split("took")[1].split("HTTP")[0].strip()
    assert took.endswith(" s") and 1.2 <= float(took[:-2]) < 5, call_leg
    [handshake] = [line for line in legs if line.startswith("initialize")]
    short = handshake.split("took")[1].split("HTTP")[0].strip()
    assert short.endswith(" s") and 0 <= float(short[:-2]) < 1.2, handshake  # the window's one format
    report = json.loads(run_cli("call", sdk_url, "--era", "handshake", "slow", "--args", '{"seconds": 1.2}',
                                "--no-store", "--json").stdout)
    assert report["legs"][-1]["elapsed_ms"] >= 1200


def test_a_leg_duration_reads_in_seconds_as_the_window_says_it() -> None:
    from inspector.cli.durations import readable_duration

    assert readable_duration(55.04) == "0.055 s"
    assert readable_duration(6010.1) == "6.0 s"
    assert readable_duration(125_000) == "2 min 5 s"
    assert readable_duration(None) == "-"


def test_a_leg_duration_is_written_with_the_languages_decimal_sign() -> None:
    from inspector import i18n
    from inspector.cli.durations import readable_duration

    assert i18n.set_language("de") == "de"
    try:
        assert (readable_duration(55.04), readable_duration(6010.1)) == ("0,055 s", "6,0 s")
    finally:
        i18n.set_language("en")
