"""W3C trace context on our requests, and a server's spans of that trace joined to the run.

A recorded operation's requests name the run's trace and the span our OTLP export gives the leg
that carries them, in ``params._meta`` and as an HTTP header. The official ``mcp`` SDK's server
(the demo server, with the OpenTelemetry SDK's tracer provider in its own process) makes its spans
children of those legs; importing its spans adds them to the run, once, also merged with our export.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from inspector.runs.trace_ids import leg_span_id, trace_id
from inspector.store import RunStore
from inspector.store.database import open_database
from inspector.transfer import export, import_trace
from tests.support.cli_process import cli_here
from tests.support.fault_server import FaultServer
from tests.support.traced_demo import traced_demo

USERS = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


def only_run(db: Path) -> tuple[RunStore, Any, list[dict[str, Any]]]:
    store = RunStore(open_database(db))
    [run] = [run for run in store.list_runs() if not run.uid.startswith("otlp-")]
    legs = [dict(zip(("method", "position"), row, strict=True)) for row in store.db.conn.execute(
        "SELECT l.method, l.position FROM legs l JOIN steps s ON s.id = l.step_id WHERE s.run_id = ? "
        "ORDER BY l.position", (run.id,))]
    return store, run, legs


@pytest.mark.parametrize("era", ["handshake", "stateless"])
def test_every_request_names_the_runs_trace_and_its_leg_in_meta_and_header(tmp_path: Path, era: str) -> None:
    server = FaultServer("session")
    try:
        done = cli_here("call", server.url, "echo", "--args", '{"text": "hi"}', "--era", era,
                        "--db", str(tmp_path / "r.db"))
        assert done.returncode == 0, done.stderr
        requests = [got for got in server.posts() if got.rpc_id is not None and got.rpc_method]
    finally:
        server.close()
    store, run, legs = only_run(tmp_path / "r.db")
    positions = {leg["method"]: leg["position"] for leg in legs}
    assert requests and "tools/call" in positions
    for got in requests:
        header = got.headers["traceparent"]
        assert got.params["_meta"]["traceparent"] == header
        assert header == f"00-{trace_id(run.uid)}-{leg_span_id(run.uid, 1, positions[got.rpc_method])}-01"
    store.db.close()


def test_a_traceparent_header_the_user_set_is_kept(tmp_path: Path) -> None:
    server = FaultServer("session")
    try:
        done = cli_here("call", server.url, "echo", "--era", "handshake", "--header", f"traceparent: {USERS}",
                   "--db", str(tmp_path / "r.db"))
        assert done.returncode == 0, done.stderr
        [call] = server.posts("tools/call")
    finally:
        server.close()
    store, run, _ = only_run(tmp_path / "r.db")
    assert call.headers["traceparent"] == USERS
    assert call.params["_meta"]["traceparent"].startswith(f"00-{trace_id(run.uid)}-")
    store.db.close()


def test_without_a_run_nothing_is_added(tmp_path: Path) -> None:
    server = FaultServer("session")
    try:
        done = cli_here("call", server.url, "echo", "--era", "handshake", "--no-store")
        assert done.returncode == 0, done.stderr
        [call] = server.posts("tools/call")
    finally:
        server.close()
    assert "traceparent" not in call.headers
    assert "traceparent" not in (call.params.get("_meta") or {})


def spans_of(path: Path) -> list[dict[str, Any]]:
    return [span for line in path.read_text().splitlines() for group in json.loads(line)["resourceSpans"]
            for scope in group["scopeSpans"] for span in scope["spans"]]


def test_the_sdk_servers_spans_join_the_run_under_its_legs(tmp_path: Path) -> None:
    spans_file, db = tmp_path / "server-spans.jsonl", tmp_path / "runs.db"
    with traced_demo(spans_file) as url:
        done = cli_here("call", url, "echo", "--args", '{"text": "hi"}', "--db", str(db))
        assert done.returncode == 0, done.stderr
    store, run, legs = only_run(db)
    call_leg = next(leg["position"] for leg in legs if leg["method"] == "tools/call")
    [server_call] = [span for span in spans_of(spans_file) if span["name"] == "tools/call echo"]
    # The server's own span: our run's trace, our tools/call leg as its parent.
    assert server_call["traceId"] == trace_id(run.uid)
    assert server_call["parentSpanId"] == leg_span_id(run.uid, 1, call_leg)
    assert server_call["kind"] == 2  # SERVER

    imported = cli_here("import", str(spans_file), "--db", str(db), "--json")
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)["joined"] == [run.uid]
    joined = store.db.conn.execute(
        "SELECT sequence, kind, json_extract(payload, '$.raw.otlp.parentSpanId'), json_extract(payload, "
        "'$.raw.otlp.side'), json_extract(payload, '$.toolName') FROM steps WHERE run_id = ? AND sequence > 1 "
        "ORDER BY sequence", (run.id,)).fetchall()
    ours = {leg_span_id(run.uid, 1, leg["position"]) for leg in legs}
    assert joined and all(parent in ours and side == "server" for _, _, parent, side, _ in joined)
    assert ("tool", leg_span_id(run.uid, 1, call_leg), "echo") in {(kind, parent, tool)
                                                                  for _, kind, parent, _, tool in joined}
    # Again: every span is stored already; nothing is added, nothing else is touched.
    count = store.db.conn.execute("SELECT COUNT(*) FROM steps").fetchone()[0]
    assert import_trace(store, spans_file).steps_imported == 0
    assert store.db.conn.execute("SELECT COUNT(*) FROM steps").fetchone()[0] == count

    # A support engineer gets our export and the server's spans, merged in one file: the same run.
    export(store, [run.id], None, tmp_path / "ours.json", format="otlp")
    merged = [json.loads((tmp_path / "ours.json").read_text())]
    merged += [json.loads(line) for line in spans_file.read_text().splitlines()]
    (tmp_path / "merged.json").write_text(json.dumps(merged))
    fresh = RunStore(open_database(tmp_path / "fresh.db"))
    import_trace(fresh, tmp_path / "merged.json")
    again = fresh.find_run_by_uid(run.uid)
    assert again is not None
    # (Sequences after the run's own follow the file's order of spans, so only their order is compared.)
    shape = "SELECT kind, outcome, json_extract(payload, '$.raw.otlp.spanId') FROM steps WHERE run_id = ?" \
            " ORDER BY sequence"
    assert fresh.db.conn.execute(shape, (again.id,)).fetchall() == store.db.conn.execute(shape, (run.id,)).fetchall()
    # And our export alone, then the server's file: joined the same way.
    alone = RunStore(open_database(tmp_path / "alone.db"))
    import_trace(alone, tmp_path / "ours.json")
    import_trace(alone, spans_file)
    third = alone.find_run_by_uid(run.uid)
    assert alone.db.conn.execute(shape, (third.id,)).fetchall() == store.db.conn.execute(shape, (run.id,)).fetchall()
    for opened in (store, fresh, alone):
        opened.db.close()


def test_an_agent_runs_tool_calls_each_name_their_own_step(tmp_path: Path) -> None:
    spans_file, db = tmp_path / "server-spans.jsonl", tmp_path / "runs.db"
    with traced_demo(spans_file) as url:
        done = cli_here("scenario", "happy-path", "--server", url, "--db", str(db))
        assert done.returncode == 0, done.stderr
    store = RunStore(open_database(db))
    [run] = store.list_runs()
    steps = store.db.conn.execute(
        "SELECT s.sequence, json_extract(s.payload, '$.toolName'), l.position, l.method FROM steps s "
        "JOIN legs l ON l.step_id = s.id WHERE s.run_id = ? AND l.method = 'tools/call'", (run.id,)).fetchall()
    assert [tool for _, tool, _, _ in steps] == ["echo", "add", "write_note", "list_notes"]
    leg_of = {leg_span_id(run.uid, sequence, position): tool for sequence, tool, position, _ in steps}
    calls = [span for span in spans_of(spans_file) if span["name"].startswith("tools/call ")]
    assert len(calls) == 4
    for span in calls:
        # Each server span of a call hangs under the tools/call leg of the step that made that call.
        assert span["traceId"] == trace_id(run.uid)
        assert leg_of[span["parentSpanId"]] == span["name"].removeprefix("tools/call ")
    store.db.close()


def test_a_command_server_gets_the_traceparent_in_meta(tmp_path: Path) -> None:
    # The stdio server echoes each request's params in its answer: what it got, as the leg kept it.
    command = f"{sys.executable} -m tests.support.stdio_faults plain"
    done = cli_here("ping", "--stdio", command, "--era", "handshake", "--wire", "full", "--db", str(tmp_path / "r.db"))
    assert done.returncode == 0, done.stderr
    store = RunStore(open_database(tmp_path / "r.db"))
    [run] = store.list_runs()
    [stored] = list(store.iter_steps(run.id))
    legs = stored.step.legs
    assert [leg.method for leg in legs][-1] == "ping"
    for position, leg in enumerate(legs):
        if leg.method not in ("initialize", "ping"):
            continue
        expected = f"00-{trace_id(run.uid)}-{leg_span_id(run.uid, stored.sequence, position)}-01"
        sent = json.loads(leg.exchange["request"]["body"])
        assert sent["params"]["_meta"]["traceparent"] == expected
        if leg.method == "ping":
            echoed = json.loads(leg.exchange["answer"]["body"])["result"]["echo"]
            assert echoed["_meta"]["traceparent"] == expected  # as the server received it
    store.db.close()


def test_the_older_http_sse_transport_carries_it_as_a_header_and_in_meta() -> None:
    import asyncio

    from inspector.mcp import McpClient, ServerEndpoint
    from inspector.mcp.trace_context import TraceContext, traced
    from tests.support.asgi_server import serve_asgi
    from tests.support.stdio_server import server as sdk_server

    app = sdk_server.sse_app()
    seen: list[tuple[dict[str, str], dict[str, Any]]] = []

    async def recording(scope, receive, send):  # noqa: ANN001 - ASGI
        """Keeps every POSTed message with its headers, then hands it on unchanged."""
        if scope["type"] != "http" or scope["method"] != "POST":
            return await app(scope, receive, send)
        parts, body = [], b""
        while True:
            part = await receive()
            parts.append(part)
            body += part.get("body", b"")
            if not part.get("more_body"):
                break
        seen.append(({name.decode().lower(): value.decode() for name, value in scope["headers"]}, json.loads(body)))
        given = iter(parts)

        async def replay():
            return next(given, None) or await receive()

        return await app(scope, replay, send)

    context = TraceContext("4bf92f3577b34da6a3ce929d0e0e4736", lambda position: f"{position + 1:016x}")

    async def call(url: str) -> None:
        client = McpClient()
        try:
            with traced(context):
                result = await client.call_tool(ServerEndpoint(url, transport="sse", era="handshake"), "echo",
                                                {"text": "hi"}, budget_s=10)
            assert result.content == "hi"
        finally:
            await client.close()

    with serve_asgi(recording, "/sse") as url:
        asyncio.run(call(url))
    requests = [(headers, message) for headers, message in seen if "id" in message and "method" in message]
    assert [message["method"] for _, message in requests] == ["initialize", "tools/call"]
    for headers, message in requests:
        assert headers["traceparent"] == message["params"]["_meta"]["traceparent"]
        assert headers["traceparent"].startswith("00-4bf92f3577b34da6a3ce929d0e0e4736-")
    # Each request names its own leg: connect (the event stream), initialize, notifications/initialized,
    # tools/call are positions 0 to 3.
    assert [headers["traceparent"][36:52] for headers, _ in requests] == [f"{2:016x}", f"{4:016x}"]


def test_the_sdk_servers_spans_received_live_join_the_run_once(tmp_path: Path) -> None:
    """The same spans sent to the OTLP receiver (as the server's exporter would, one request per
    line, the last twice) join the run of ours as the import joins them: no run of their own."""
    from inspector.capture.live_traces import LiveTraces
    from inspector.capture.otlp_body import read_request

    spans_file, db = tmp_path / "server-spans.jsonl", tmp_path / "runs.db"
    with traced_demo(spans_file) as url:
        done = cli_here("call", url, "echo", "--args", '{"text": "hi"}', "--db", str(db))
        assert done.returncode == 0, done.stderr
    store, run, legs = only_run(db)
    before = store.db.conn.execute("SELECT COUNT(*) FROM steps WHERE run_id = ?", (run.id,)).fetchone()[0]
    received = []
    live = LiveTraces(store, received.append, quiet_s=0)
    lines = [line.encode() for line in spans_file.read_text().splitlines() if line.strip()]
    for body in [*lines, lines[-1]]:
        assert live.add(read_request(body, "application/json")).rejected == 0
    live.settle(everything=True)
    joined = store.db.conn.execute(
        "SELECT json_extract(payload, '$.raw.otlp.parentSpanId'), json_extract(payload, '$.toolName') FROM steps "
        "WHERE run_id = ? AND sequence > ? ORDER BY sequence", (run.id, before)).fetchall()
    call_leg = next(leg["position"] for leg in legs if leg["method"] == "tools/call")
    assert (leg_span_id(run.uid, 1, call_leg), "echo") in joined
    spans = [row[0] for row in store.db.conn.execute(
        "SELECT json_extract(payload, '$.raw.otlp.spanId') FROM steps WHERE run_id = ? AND sequence > ?",
        (run.id, before))]
    assert len(spans) == len(set(spans))  # each span once, though a request came twice
    ours = trace_id(run.uid)
    assert store.find_run_by_uid(f"otlp-{ours}") is None
    assert any(event.uid == run.uid and not event.created for event in received)
