"""Stored runs of servers of every transport: each step names how its server was reached (and a
command server's command line), keeps the server's stderr, and says so in `runs show`, in the
health, in `runs list --server NAME` and in both export formats, secrets redacted, and back in
through an import.

Real parts: the official SDK server over stdio, Streamable HTTP and the older HTTP+SSE transport;
the client as the command line drives it; a real SQLite file; real export and import files.
"""

from __future__ import annotations

# The stdio mechanics here are tested in the handshake era, pinned (era="handshake") for the
# test servers; the stateless era over stdio is in test_real_stdio_servers.py and test_stateless_era.py.
import asyncio
import json
import sys
from pathlib import Path

from google.protobuf import json_format
from opentelemetry.proto.trace.v1.trace_pb2 import TracesData

from inspector.agent import execute_tool, list_tools_step, ping_step
from inspector.agent.server_commands import setting_of
from inspector.cli.recording import RunRecording
from inspector.mcp import McpClient, ServerEndpoint
from inspector.mcp.client import HANDSHAKE_VERSIONS
from inspector.mcp.server_command import ServerCommand
from inspector.store import RunStore, ServerRegistry
from inspector.traces.redact import REDACTED, redact
from inspector.transfer import export, import_trace
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here as cli  # what it says, not its process
from tests.support.stdio_server import server as sdk_server

ROOT = Path(__file__).resolve().parents[2]
#: A token given as an argument on the command line (``--token T``): the process is started with it; a run, the
#: health and what shows the server name the command with ``--token …`` (an export so too); only a configured
#: server's command keeps it (it was kept in every run's row, and shown in `runs show` and the window).
ARGUMENT_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
#: A secret environment value: never stored, never exported, scrubbed from what the server says.
ENV_SECRET = "env-secret-value-7731"
#: A credential the server quotes on its stderr.
BEARER = "Bearer stderr-bearer-4411"


def stdio_server(name: str | None = "local tools") -> ServerEndpoint:
    command = ServerCommand(sys.executable, ("-m", "tests.support.stdio_server", "--token", ARGUMENT_TOKEN),
                            env={"API_TOKEN": ENV_SECRET}, cwd=str(ROOT))
    return ServerEndpoint.for_command(command, name=name, era="handshake")


async def operate(store: RunStore, db: Path, server: ServerEndpoint, client: McpClient, which: str,
                  **arguments: str) -> int:
    """One operation recorded as `call`/`tools`/`ping` record it: a run of one step, and the health."""
    recording = RunRecording(store, db, f"{which} {server.key}", server.key)
    recording.start()
    if which == "call":
        record = await execute_tool(client, server, arguments.pop("tool"), arguments, budget_s=30)
    elif which == "tools":
        record = await list_tools_step(client, server, budget_s=30)
    else:
        record = await ping_step(client, server, budget_s=30)
    fate = recording.finish(record)
    assert fate.run_id is not None, fate.problem
    return fate.run_id


def payloads(store: RunStore, run_id: int) -> list[dict]:
    return [stored.payload for stored in store.iter_steps(run_id)]


def record_stdio_runs(db: Path) -> tuple[ServerEndpoint, list[int]]:
    server = stdio_server()

    async def scenario() -> list[int]:
        client = McpClient()
        try:
            with RunStore.open(db) as store:
                return [await operate(store, db, server, client, "tools"),
                        await operate(store, db, server, client, "call", tool="say_on_stderr",
                                      text=f"Authorization: {BEARER}\nthe key is $API_TOKEN"),
                        await operate(store, db, server, client, "ping")]
        finally:
            await client.close()

    return server, asyncio.run(scenario())


def test_every_step_of_a_command_server_names_its_transport_command_and_stderr(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    server, run_ids = record_stdio_runs(db)
    with RunStore.open(db) as store:
        listed, called, pinged = (payloads(store, run_id)[0] for run_id in run_ids)
    shown_command = f"API_TOKEN=… {sys.executable} -m tests.support.stdio_server --token …"
    for payload in (listed, called, pinged):
        assert payload["transport"] == "stdio"
        assert payload["serverCommand"] == shown_command  # the environment by its name only
        assert payload["protocolVersion"] in HANDSHAKE_VERSIONS
    # The process was started by the first operation; the call's stderr is the call's own.
    assert [leg["method"] for leg in listed["legs"]][:2] == ["start", "initialize"]
    # What the process writes as it starts belongs to the operation that starts it.
    assert listed["stderr"] == ["stdio test server starting"]
    assert called["stderr"] == [f"Authorization: {BEARER}", "the key is [REDACTED]"]
    assert "stderr" not in pinged
    # Kept apart from the server's notifications: those are its log messages only.
    assert not any(note.get("method") == "stderr" for note in called.get("serverNotifications", []))
    assert ENV_SECRET.encode() not in db.read_bytes() and ARGUMENT_TOKEN.encode() not in db.read_bytes()
    assert server.key == f"stdio:{sys.executable} -m tests.support.stdio_server --token …"


def test_runs_show_names_the_transport_the_command_and_the_stderr(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    server, run_ids = record_stdio_runs(db)
    shown = cli("runs", "show", str(run_ids[1]), "--db", str(db))
    assert shown.returncode == 0, shown.stderr
    assert "over stdio" in shown.stdout and "--token …" in shown.stdout and ARGUMENT_TOKEN not in shown.stdout
    assert f"Authorization: {BEARER}" in shown.stdout  # stderr, as the server wrote it
    as_json = json.loads(cli("runs", "show", str(run_ids[1]), "--json", "--db", str(db)).stdout)
    entry = as_json["timeline"][0]
    assert entry["transport"] == "stdio" and entry["command"].endswith("--token …")
    assert entry["stderr"] == [f"Authorization: {BEARER}", "the key is [REDACTED]"]


def test_runs_list_finds_a_command_servers_runs_by_its_name_and_by_its_key(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    server, run_ids = record_stdio_runs(db)
    with RunStore.open(db) as store:
        assert server.command is not None
        ServerRegistry(store.db).save_server(server.key, name="local tools", transport="stdio",
                                             command=setting_of(server.command))
    for given in ("local tools", server.key):
        found = cli("runs", "list", "--server", given, "--json", "--db", str(db))
        assert found.returncode == 0, found.stderr
        assert sorted(run["id"] for run in json.loads(found.stdout)["runs"]) == sorted(run_ids)


def test_health_and_the_sparklines_runs_count_every_transport_alike(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"

    async def scenario(servers: list[ServerEndpoint]) -> dict[str, list[dict]]:
        client = McpClient()
        seen: dict[str, list[dict]] = {}
        try:
            with RunStore.open(db) as store:
                for server in servers:
                    ids = [await operate(store, db, server, client, "tools"),
                           await operate(store, db, server, client, "call", tool="echo", text="hi")]
                    seen[server.key] = [payloads(store, run_id)[0] for run_id in ids]
        finally:
            await client.close()
        return seen

    with serve_asgi(sdk_server.streamable_http_app(), "/mcp") as http_url, \
            serve_asgi(sdk_server.sse_app(), "/sse") as sse_url:
        # The SSE address is given as a plain address: the client finds the older transport itself.
        servers = [ServerEndpoint(http_url), ServerEndpoint(sse_url), stdio_server()]
        seen = asyncio.run(scenario(servers))
    assert [[step["transport"] for step in seen[server.key]] for server in servers] == [
        ["http", "http"], ["sse", "sse"], ["stdio", "stdio"]]
    assert "serverCommand" not in seen[servers[0].key][0]
    with RunStore.open(db) as store:
        registry = ServerRegistry(store.db)
        for server in servers:
            health = registry.get(server.key)
            assert health is not None, server.key
            assert (health.ok_count, health.failed_count, health.last_contact_at is not None) == (2, 0, True)
            # The sparkline draws the server's last ok runs, found by its key.
            assert len(store.list_runs(server=server.key, outcome="ok", limit=20)) == 2


def test_exports_carry_transport_command_and_stderr_redacted_and_import_brings_them_back(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    server, run_ids = record_stdio_runs(db)
    with RunStore.open(db) as store:
        originals = [payloads(store, run_id)[0] for run_id in run_ids]
        trace_file, otlp_file = tmp_path / "runs.trace.json", tmp_path / "runs.otlp.json"
        export(store, run_ids, None, trace_file, "trace")
        export(store, run_ids, None, otlp_file, "otlp")
    for written in (trace_file, otlp_file):
        content = written.read_text(encoding="utf-8")
        assert ARGUMENT_TOKEN not in content and "stderr-bearer-4411" not in content and ENV_SECRET not in content
    # OTLP: the semantic conventions where they exist, ours for the command line and the stderr lines.
    json_format.Parse(otlp_file.read_text(), TracesData())  # the official definitions read it
    spans = json.loads(otlp_file.read_text())["resourceSpans"][0]["scopeSpans"][0]["spans"]
    steps = [span for span in spans if {"key": "run_inspector.span", "value": {"stringValue": "step"}}
             in span["attributes"]]
    attributes = {item["key"]: item["value"] for item in steps[1]["attributes"]}
    assert attributes["network.transport"] == {"stringValue": "pipe"}
    assert attributes["mcp.protocol.version"]["stringValue"] in HANDSHAKE_VERSIONS
    assert attributes["run_inspector.server.transport"] == {"stringValue": "stdio"}
    assert attributes["run_inspector.server.command"]["stringValue"].endswith("--token …")
    assert attributes["run_inspector.server.stderr"] == {"arrayValue": {"values": [
        {"stringValue": f"Authorization: {REDACTED}"}, {"stringValue": "the key is [REDACTED]"}]}}
    for written in (trace_file, otlp_file):
        with RunStore.open(tmp_path / f"from-{written.stem}.db") as elsewhere:
            report = import_trace(elsewhere, written)
            back = [payloads(elsewhere, run_id)[0] for run_id in report.run_ids]
        for original, imported in zip(originals, back, strict=True):
            assert imported["transport"] == original["transport"] == "stdio"
            assert imported["protocolVersion"] == original["protocolVersion"]
            assert imported["serverCommand"] == original["serverCommand"]
            assert imported.get("stderr") == (redact(original["stderr"]) if "stderr" in original else None)
        assert back[1]["stderr"] == [f"Authorization: {REDACTED}", "the key is [REDACTED]"]
        with RunStore.open(tmp_path / f"from-{written.stem}.db") as elsewhere:  # the server of both, one server
            assert [run.server for run in elsewhere.list_runs(limit=10)] == [server.key] * 3


def test_a_process_that_dies_at_once_leaves_its_last_words_in_the_step(tmp_path: Path) -> None:
    command = ServerCommand(sys.executable, ("-c", "import sys; print('fatal: no configuration file', "
                                                   "file=sys.stderr, flush=True); sys.exit(2)"))
    server = ServerEndpoint.for_command(command)

    async def scenario() -> dict:
        client = McpClient()
        try:
            with RunStore.open(tmp_path / "runs.db") as store:
                run_id = await operate(store, tmp_path / "runs.db", server, client, "tools")
                return payloads(store, run_id)[0]
        finally:
            await client.close()

    payload = asyncio.run(scenario())
    assert payload["transport"] == "stdio"
    assert payload["stderr"] == ["fatal: no configuration file"]


def test_a_flood_on_stderr_keeps_the_last_lines_and_counts_the_rest(tmp_path: Path) -> None:
    server = ServerEndpoint.for_command(ServerCommand(sys.executable, ("-m", "tests.support.stdio_faults", "flood"),
                                                      cwd=str(ROOT)))

    async def scenario() -> dict:
        client = McpClient()
        try:
            with RunStore.open(tmp_path / "runs.db") as store:
                run_id = await operate(store, tmp_path / "runs.db", server, client, "ping")
                return payloads(store, run_id)[0]
        finally:
            await client.close()

    payload = asyncio.run(scenario())
    assert len(payload["stderr"]) == 200 and payload["stderr"][-1] == "log line 199999"
    assert payload["stderrDropped"] + 200 == 200_000
