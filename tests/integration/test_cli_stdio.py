"""The command line and command servers: `--stdio "COMMAND LINE"`, configured command servers, the
older HTTP+SSE transport, `servers set/remove/import`, and no process left behind (also after Ctrl-C).

The real CLI (in a process of its own where a test is about Ctrl-C or a terminal, else in this one)
against the official SDK server over stdio (tests/support/stdio_server.py) or its SSE app.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

from inspector.store import RunStore
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here

ROOT = Path(__file__).resolve().parents[2]
SERVER = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command line with ``env`` added, as a process started with an empty stdin sees it; in this
    process (these tests are about what it says, stores and leaves running, not about its own process)."""
    return cli_here(*args, env=env)


def marked_server() -> tuple[str, str]:
    """The SDK server's command line with a marker word that finds its processes in /proc."""
    marker = f"cli-stdio-{uuid.uuid4().hex}"
    return f"{SERVER} {marker}", marker


def processes_with(marker: str) -> list[int]:
    """The processes whose command line holds ``marker`` (the server, and anything it started)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                words = handle.read().split(b"\0")
        except OSError:
            continue
        # The server's own command line, not the CLI's (which holds the marker inside --stdio's value).
        if marker.encode() in words and b"inspector" not in words:
            found.append(int(entry))
    return found


def test_tools_over_stdio_lists_the_servers_tools_and_leaves_no_process() -> None:
    command, marker = marked_server()
    done = cli("tools", "--stdio", command, "--era", "handshake", "--json", "--no-store")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {tool["name"] for tool in report["tools"]} >= {"echo", "hang"}
    assert [leg["method"] for leg in report["legs"]] == ["start", "initialize", "notifications/initialized",
                                                        "tools/list"]
    assert "server stderr: stdio test server starting" in done.stderr  # the server's log, as it is written
    assert processes_with(marker) == []


def test_call_over_stdio_takes_the_tool_as_its_one_word_and_is_stored_under_the_command(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    done = cli("call", "--stdio", SERVER, "echo", "--args", '{"text": "hi"}', "--json", "--db", str(db))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["content"] == "hi" and report["tool"] == "echo"
    with RunStore.open(db) as store:
        run = store.get_run(report["run_id"])
    assert run.status == "ok" and run.server == f"stdio:{SERVER}"
    # Options may stand between the words, as for an address.
    again = cli("call", "--json", "--stdio", SERVER, "--no-store", "echo", "--args", '{"text": "x"}')
    assert json.loads(again.stdout)["content"] == "x"


def test_a_missing_program_is_named() -> None:
    done = cli("tools", "--stdio", "no-such-program-4711 --flag", "--no-store")
    assert done.returncode == 1
    assert "the program 'no-such-program-4711' was not found" in done.stdout


def test_a_server_whose_last_words_end_a_sentence_ends_the_error_with_one_full_stop() -> None:
    # The commonest failure: a sentence on stderr, then its exit. The error ended "… is not set.." before.
    done = cli("call", "--stdio", "sh -c 'echo Error: API_TOKEN is not set. >&2; exit 3'", "echo", "--json",
               "--no-store")
    message = json.loads(done.stdout)["error"]["message"]
    assert done.returncode == 1
    assert message.endswith("exited with status 3; its last words on stderr: Error: API_TOKEN is not set."), message
    ellipsis = cli("tools", "--stdio", "sh -c 'echo Waiting for the token... >&2; exit 3'", "--json", "--no-store")
    assert "stderr: Waiting for the token..." in json.loads(ellipsis.stdout)["error"]["message"]  # not cut


def test_a_command_typed_as_the_server_says_so_and_suggests_stdio_with_the_words_as_typed() -> None:
    typed = "npx -y @modelcontextprotocol/server-filesystem /tmp"
    done = cli("tools", typed, "--no-store")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f'run-inspector: "{typed}" is not a server address and no configured server has that name. To start it '
        f'as a command and speak to it over stdin/stdout, write: --stdio "{typed}"')
    scheme_left_out = cli("ping", "localhost:8000/mcp", "--no-store")
    assert "did you mean http://localhost:8000/mcp?" in scheme_left_out.stderr


def test_ctrl_c_cancels_a_call_over_stdio_and_no_process_of_the_server_is_left() -> None:
    command, marker = marked_server()
    process = subprocess.Popen([sys.executable, "-m", "inspector", "call", "--stdio", command, "hang", "--no-store"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               stdin=subprocess.DEVNULL)
    try:
        assert process.stderr is not None
        seen = []
        for line in process.stderr:  # the server's stderr reaches the command's, line by line
            seen.append(line)
            if "hang started" in line:
                break
        assert any("hang started" in line for line in seen), seen
        servers = processes_with(marker)
        assert len(servers) == 1
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert "Cancelled: You cancelled the operation after tools/call had been sent" in stdout
    assert processes_with(marker) == []
    assert not os.path.exists(f"/proc/{servers[0]}")


def test_ctrl_c_during_the_shutdown_kills_a_server_that_ignores_the_shutdown_with_its_grandchild() -> None:
    marker = f"cli-stdio-{uuid.uuid4().hex}"
    # The stubborn server ignores the end of stdin and SIGTERM, and starts a grandchild; its answers to
    # tools/list lack the tools (it echoes), which does not matter here: the call is the point.
    command = f"{shlex.quote(sys.executable)} -m tests.support.stdio_faults stubborn {marker}"
    process = subprocess.Popen([sys.executable, "-m", "inspector", "ping", "--stdio", command, "--no-store"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               stdin=subprocess.DEVNULL)
    try:
        assert process.stderr is not None and process.stdout is not None
        grandchild = None
        for line in process.stderr:
            if "grandchild" in line:
                grandchild = int(line.split()[-1])
                break
        assert grandchild is not None
        process.stdout.readline()  # the ping's answer: the command is now shutting the server down
        started = time.monotonic()
        process.send_signal(signal.SIGINT)  # during the shutdown: the group is killed, not waited for
        process.communicate(timeout=20)
        took = time.monotonic() - started
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0  # the ping answered: a Ctrl-C during the shutdown only cuts it short
    assert took < 2.0  # not the shutdown's 4 s
    assert processes_with(marker) == []
    deadline = time.monotonic() + 5
    while os.path.exists(f"/proc/{grandchild}") and _state(grandchild) != "Z" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{grandchild}") or _state(grandchild) == "Z"


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def test_sse_chooses_the_older_transport_for_an_address() -> None:
    from tests.support.stdio_server import server

    with serve_asgi(server.sse_app(), "/sse") as url:
        done = cli("tools", url, "--sse", "--json", "--no-store")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [leg["method"] for leg in report["legs"]][:2] == ["connect", "initialize"]
    assert {tool["name"] for tool in report["tools"]} >= {"echo", "hang"}


def test_a_configured_command_server_is_used_by_name_and_its_secret_is_not_stored(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    saved = cli("servers", "set", "sdk", "--command", SERVER, "--secret-env", "MY_PASS=hunter2-secret",
                "--env", "MODE=plain", "--db", str(db))
    assert saved.returncode == 0, saved.stderr
    assert "hunter2-secret" not in saved.stdout + saved.stderr
    listed = json.loads(cli("servers", "--json", "--db", str(db)).stdout)["servers"]
    assert [(s["name"], s["transport"], s["url"]) for s in listed] == [("sdk", "stdio", f"stdio:{SERVER}")]
    assert listed[0]["command"]["env"] == [{"name": "MODE", "secret": False, "value": "plain"},
                                           {"name": "MY_PASS", "secret": True}]
    text = cli("servers", "--db", str(db)).stdout
    assert f"MODE=… MY_PASS=… {SERVER}" in text and "stdio" in text
    done = cli("tools", "sdk", "--json", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["server"] == "sdk"
    # The same name with another command replaces the earlier command server.
    other = f"{SERVER} --other"
    cli("servers", "set", "sdk", "--command", other, "--db", str(db))
    listed = json.loads(cli("servers", "--json", "--db", str(db)).stdout)["servers"]
    named = [s["url"] for s in listed if s["name"] == "sdk"]
    assert named == [f"stdio:{other}"]
    assert b"hunter2-secret" not in db.read_bytes()
    removed = cli("servers", "remove", "sdk", "--db", str(db))
    assert removed.returncode == 0
    assert [s for s in json.loads(cli("servers", "--json", "--db", str(db)).stdout)["servers"]
            if s["name"] == "sdk"] == []


def test_servers_set_an_address_with_its_transport(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    assert cli("servers", "set", "http://127.0.0.1:9/sse", "--transport", "sse", "--name", "old", "--db", db
               ).returncode == 0
    (server,) = json.loads(cli("servers", "--json", "--db", db).stdout)["servers"]
    assert (server["name"], server["transport"]) == ("old", "sse")


def test_servers_import_of_a_claude_desktop_file(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {
        "sdk": {"command": sys.executable, "args": ["-m", "tests.support.stdio_server"],
                "env": {"GITHUB_TOKEN": "ghp-do-not-store", "MODE": "plain"}},
        "remote": {"url": "https://example.com/mcp"},
        "broken": {"args": []},
    }}))
    env = {"HOME": str(tmp_path)}
    preview = cli("servers", "import", str(config), "--db", str(db), env=env)
    # No terminal and no --yes: the preview, and nothing added.
    assert preview.returncode == 2
    assert "nothing was added" in preview.stderr and "--yes" in preview.stderr
    assert "  sdk     stdio  GITHUB_TOKEN=… MODE=… " in preview.stdout
    assert "  remote  http   https://example.com/mcp" in preview.stdout
    assert "broken: the entry has neither a 'command' nor a 'url'" in preview.stdout
    assert not db.exists()
    added = cli("servers", "import", str(config), "--yes", "--db", str(db), env=env)
    assert added.returncode == 0, added.stderr
    assert "Added 2 servers." in added.stdout
    assert "ghp-do-not-store" not in added.stdout + added.stderr
    assert b"ghp-do-not-store" not in db.read_bytes()
    listed = {s["name"]: s for s in json.loads(cli("servers", "--json", "--db", str(db)).stdout)["servers"]}
    assert listed["sdk"]["transport"] == "stdio" and listed["remote"]["transport"] == "http"
    done = cli("tools", "sdk", "--json", "--db", str(db), env=env)
    assert done.returncode == 0, done.stderr
    # Importing again says what it updates.
    again = cli("servers", "import", str(config), "--yes", "--db", str(db), env=env)
    assert again.stdout.count("updates the server configured so") == 2


def test_servers_import_of_a_vscode_file_with_inputs(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({
        "inputs": [{"type": "promptString", "id": "api-key", "description": "API key", "password": True}],
        "servers": {
            "sdk": {"type": "stdio", "command": sys.executable, "args": ["-m", "tests.support.stdio_server"],
                    "env": {"SERVICE_KEY": "${input:api-key}"}},
            "legacy": {"type": "sse", "url": "http://127.0.0.1:9/sse",
                       "headers": {"Authorization": "Bearer ${input:api-key}"}},
            "untyped": {"command": "x"},
        }}))
    cli("servers", "set", "sdk", "--command", f"{SERVER} --earlier", "--db", str(db))
    done = cli("servers", "import", str(config), "--yes", "--json", "--db", str(db))
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["added"] is True and document["format"] == "vscode"
    planned = {entry["name"]: entry for entry in document["servers"]}
    assert planned["sdk"]["asks_for"] == ["SERVICE_KEY"]
    assert planned["sdk"]["effect"] == "replaces" and planned["sdk"]["replaces"] == [f"stdio:{SERVER} --earlier"]
    assert planned["legacy"]["transport"] == "sse" and planned["legacy"]["asks_for"] == ["Authorization"]
    # Nobody to ask (--yes, no terminal): a header left to ask is not kept, and the user is told.
    assert "the header Authorization of legacy was not given" in done.stderr
    assert document["skipped"] == [{"name": "untyped", "reason": "the entry has no 'type' (VS Code requires one)"}]
    listed = {s["name"]: s for s in json.loads(cli("servers", "--json", "--db", str(db)).stdout)["servers"]}
    # The value left to ask for is a secret variable without a value: asked for when the server is used.
    assert listed["sdk"]["command"]["env"] == [{"name": "SERVICE_KEY", "secret": True}]
    assert listed["sdk"]["url"] == f"stdio:{SERVER}"
    assert listed["legacy"]["transport"] == "sse"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM servers WHERE name = 'sdk'").fetchone()[0] == 1


def test_an_address_of_the_older_transport_is_found_by_itself() -> None:
    """The command line asks for the standalone stream, which the older transport does not have."""
    from tests.support.stdio_server import server

    with serve_asgi(server.sse_app(), "/sse") as url:
        done = cli("call", url, "echo", "--args", '{"text": "old"}', "--json", "--no-store")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["content"] == "old"
    assert "connect" in [leg["method"] for leg in report["legs"]]


def _at_a_terminal(args: list[str], answer: str, wait_for: str) -> tuple[int, str]:
    """Run the command with a terminal as its stdin and stdout; type ``answer`` once ``wait_for`` shows."""
    import pty
    import select

    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "inspector", *args], stdin=follower, stdout=follower,
                               stderr=follower, cwd=ROOT, start_new_session=True)
    os.close(follower)
    seen, typed = b"", False
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:  # the command ended and closed the terminal
                    break
                if not chunk:
                    break
                seen += chunk
            if not typed and wait_for.encode() in seen:
                os.write(leader, answer.encode() + b"\n")
                typed = True
            if process.poll() is not None and not ready:
                break
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(leader)
    return process.returncode, seen.decode(errors="replace")


def test_servers_import_at_a_terminal_asks_before_adding(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"remote": {"url": "https://example.com/mcp"}}}))
    status, shown = _at_a_terminal(["servers", "import", str(config), "--db", str(db)], "n", "[y/N]")
    assert status == 0 and "Add this server? [y/N]" in shown and "Nothing was added." in shown
    assert not db.exists()
    status, shown = _at_a_terminal(["servers", "import", str(config), "--db", str(db)], "y", "[y/N]")
    assert status == 0 and "Added 1 server." in shown
    listed = json.loads(cli("servers", "--json", "--db", str(db)).stdout)["servers"]
    assert [(s["name"], s["url"]) for s in listed] == [("remote", "https://example.com/mcp")]


def test_a_configured_commands_secret_is_asked_at_a_terminal_and_reaches_only_the_process(tmp_path: Path) -> None:
    """No keyring here: the secret variable's value was not kept, so `call NAME` asks for it."""
    import pty
    import select

    db = tmp_path / "runs.db"
    command, marker = marked_server()
    cli("servers", "set", "sdk", "--command", command, "--secret-env", "MY_PASS=never-kept", "--db", str(db))
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "inspector", "call", "sdk", "hang", "--db", str(db)],
                               stdin=follower, stdout=follower, stderr=follower, cwd=ROOT, start_new_session=True)
    os.close(follower)
    seen = b""

    def until(text: str) -> None:
        nonlocal seen
        deadline = time.monotonic() + 30
        while text.encode() not in seen and time.monotonic() < deadline:
            if select.select([leader], [], [], 0.2)[0]:
                seen += os.read(leader, 4096)
        assert text.encode() in seen, seen.decode(errors="replace")

    try:
        until("MY_PASS for sdk: ")
        os.write(leader, b"typed-secret\n")
        until("hang started")
        (pid,) = processes_with(marker)
        with open(f"/proc/{pid}/environ", "rb") as handle:
            assert b"MY_PASS=typed-secret" in handle.read().split(b"\0")
        process.send_signal(signal.SIGINT)
        until("Cancelled: ")
        process.wait(20)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(leader)
    assert process.returncode == 130
    assert processes_with(marker) == []
    assert b"typed-secret" not in db.read_bytes() and b"never-kept" not in db.read_bytes()


def test_ctrl_c_during_the_handshake_still_shuts_a_stubborn_server_down() -> None:
    """A process whose handshake was cancelled is shut down in the background; the command waits for it."""
    marker = f"cli-stdio-{uuid.uuid4().hex}"
    command = f"{shlex.quote(sys.executable)} -m tests.support.stdio_mute {marker}"
    process = subprocess.Popen([sys.executable, "-m", "inspector", "ping", "--stdio", command, "--era", "handshake",
                                "--no-store"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               stdin=subprocess.DEVNULL)
    try:
        assert process.stderr is not None
        for line in process.stderr:
            if "server stderr: mute" in line:
                break
        process.send_signal(signal.SIGINT)  # initialize is in flight, and will never be answered
        stdout, _ = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert "Cancelled: " in stdout and "during initialize" in stdout
    assert processes_with(marker) == []


def test_the_json_report_names_the_transport_the_command_and_the_stderr() -> None:
    done = cli("call", "--stdio", SERVER, "echo", "--args", '{"text": "hi"}', "--json", "--no-store")
    report = json.loads(done.stdout)
    assert (report["transport"], report["command"]) == ("stdio", SERVER)
    assert "echo called with 2 characters" in report["stderr"] and report["line_problems"] == []


def test_servers_db_before_the_action_is_the_database_used(tmp_path: Path) -> None:
    """`servers --db X set ...` once wrote to RUN_INSPECTOR_DB: the action's own --db default hid X."""
    named = tmp_path / "named.db"
    cli("servers", "--db", str(named), "set", "http://127.0.0.1:9/mcp", "--name", "here")
    assert named.exists() and not Path(os.environ["RUN_INSPECTOR_DB"]).exists()
    listed = json.loads(cli("servers", "--json", "--db", str(named)).stdout)["servers"]
    assert [server["name"] for server in listed] == ["here"]


def test_runs_show_does_not_say_a_command_server_was_reached_when_it_never_answered(tmp_path: Path) -> None:
    """A program that was not found, or that exited before it answered, was shown as "Reached over
    stdio, MCP 2026-07-28, stateless era"; an HTTP server that never answered says "Tried over"."""
    db = str(tmp_path / "runs.db")
    assert cli("call", "--stdio", "no-such-program-4711", "x", "--db", db).returncode == 1
    assert cli("call", "--stdio", "false", "x", "--db", db).returncode == 1
    assert cli("call", "--stdio", SERVER, "echo", "--args", '{"text": "hi"}', "--db", db).returncode == 0

    def transport(run: str, lang: str = "en") -> list[str]:
        shown = cli("--lang", lang, "runs", "show", run, "--db", db)
        assert shown.returncode == 0, shown.stderr
        return [line.strip() for line in shown.stdout.splitlines()
                if line.strip().startswith(("Reached over", "Tried over", "Erreicht über", "Über"))]

    assert transport("1") == ["Tried over stdio: the server's command did not start"]
    assert transport("2") == ["Tried over stdio: no answer from the server"]
    assert transport("3")[0].startswith("Reached over stdio, MCP ")
    assert transport("1", "de") == ["Über stdio versucht: der Befehl des Servers ist nicht gestartet"]
    assert transport("2", "de") == ["Über stdio versucht: keine Antwort vom Server"]


def test_a_banner_on_stdout_is_said_as_ours_in_the_readers_language_not_as_the_servers_stderr() -> None:
    """The server's stderr is printed as it is written ("server stderr: ..."); a line on stdout that
    is not JSON is our sentence about the server, and was printed as if the server had said it, in
    English under German too."""
    banner = f"{shlex.quote(sys.executable)} -m tests.support.stdio_faults banner"
    english = cli("ping", "--stdio", banner, "--era", "handshake", "--no-store")
    assert english.returncode == 0, english.stderr
    assert "run-inspector: the server wrote a line on stdout that is not JSON: Server v1.0 ready!" in english.stderr
    assert "server stderr: the server wrote" not in english.stderr
    german = cli("ping", "--stdio", banner, "--era", "handshake", "--no-store", "--lang", "de")
    assert german.returncode == 0, german.stderr
    assert "run-inspector: " in german.stderr and "Server v1.0 ready!" in german.stderr
    assert "the server wrote a line" not in german.stderr
