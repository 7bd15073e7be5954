"""Every leg keeps its exchange: what a call sent and received over Streamable HTTP, against the
official SDK server, compared with what a capturing proxy between client and server saw; secrets
are never kept (database file, both export formats); a huge answer is cut with a note; ``--wire
off`` keeps nothing and ``--wire headers`` keeps the heads only."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from inspector.cli import main
from inspector.mcp import McpClient, ServerEndpoint
from inspector.mcp.reports import OperationRecorder
from inspector.mcp.sse import EventStreamParser
from inspector.mcp.wire import MAX_WIRE_BYTES
from tests.support.asgi_server import serve_asgi
from tests.support.sdk_server import build_sdk_server
from tests.support.secret_search import assert_nowhere

#: A token of a well-known shape inside a tool argument (the export redactor's shapes).
ARGUMENT_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
HEADER_SECRET = "TenantSecret-5f0c2e9a"
BEARER_SECRET = "BearerSecret-7d41b0c3"


class CapturingProxy:
    """An ASGI app on loopback that forwards each request to ``target`` and keeps what it saw:
    the request's method, headers and body, the answer's status, headers and body. A GET (the
    standalone stream) is refused with 405, as a server without one would."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.seen: list[dict[str, Any]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        headers = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in scope["headers"]]
        if scope["method"] == "GET":
            await send({"type": "http.response.start", "status": 405, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        sent = [(n, v) for n, v in headers if n.lower() not in ("host", "content-length", "accept-encoding")]
        async with httpx.AsyncClient(timeout=30) as client:
            answer = await client.request(scope["method"], self.target, content=body, headers=sent)
        self.seen.append({"method": scope["method"], "headers": headers, "body": body,
                          "status": answer.status_code, "answer": answer.content,
                          "answer_type": answer.headers.get("content-type", "")})
        kept = [(n.encode(), v.encode()) for n, v in answer.headers.items()
                if n.lower() not in ("content-length", "transfer-encoding", "content-encoding", "date", "server")]
        await send({"type": "http.response.start", "status": answer.status_code, "headers": kept})
        await send({"type": "http.response.body", "body": answer.content})


@pytest.fixture(scope="module")
def sdk_url():
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        yield url


def _event_data(body: bytes) -> list[str]:
    parser = EventStreamParser()
    return parser.feed(body.decode()) + parser.close()


@pytest.mark.parametrize("era", ["stateless", "handshake"])
def test_a_call_keeps_the_bytes_the_proxy_saw(sdk_url: str, era: str) -> None:
    proxy = CapturingProxy(sdk_url)
    recorder = OperationRecorder()
    with serve_asgi(proxy) as url:
        result = asyncio.run(McpClient().call_tool(ServerEndpoint(url, era=era), "echo", {"text": "héllo wire"},
                                                   observer=recorder))
    assert result.content == "héllo wire"
    legs = [leg for leg in recorder.legs if leg.exchange is not None]
    assert legs == recorder.legs and [leg.method for leg in legs][-1] == "tools/call"
    posts = [seen for seen in proxy.seen if seen["method"] == "POST"]
    assert len(posts) == len(legs)
    for leg, seen in zip(legs, posts, strict=True):
        exchange = leg.exchange
        assert exchange["level"] == "full" and "cut" not in exchange
        request = exchange["request"]
        assert request["method"] == "POST" and request["url"] == url
        assert request["body"] == seen["body"].decode()  # the exact bytes sent
        sent_headers = {name.lower(): value for name, value in request["headers"]}
        for name, value in seen["headers"]:
            if name.lower() == "mcp-session-id":  # a session id is a credential by its name, as in exports
                assert sent_headers[name.lower()] == "[REDACTED]"
            elif name.lower() not in ("host", "accept-encoding", "connection", "content-length"):
                assert sent_headers[name.lower()] == value, name
        answer = exchange["answer"]
        assert answer["status"] == seen["status"] == leg.http_status
        if seen["status"] == 202:
            continue  # a notification's answer carries no body
        if seen["answer_type"].startswith("text/event-stream"):
            assert [event["data"] for event in answer["events"]] == _event_data(seen["answer"])
            offsets = [event["atMs"] for event in answer["events"]]
            assert offsets == sorted(offsets) and all(0 <= at <= leg.elapsed_ms for at in offsets)
        else:
            assert answer["body"] == seen["answer"].decode()
    call = legs[-1].exchange
    assert json.loads(call["request"]["body"])["params"]["arguments"] == {"text": "héllo wire"}
    if era == "handshake":
        assert any("events" in leg.exchange.get("answer", {}) for leg in legs)  # the SDK answers with a stream


def _call(url: str, db: Path, *extra: str, text: str = "hi") -> dict[str, Any]:
    code = main(["call", url, "echo", "--args", json.dumps({"text": text}), "--json", "--db", str(db), *extra])
    assert code == 0
    return {}


def _stored_legs(db: Path, run_id: int, capsys) -> list[dict[str, Any]]:
    capsys.readouterr()
    assert main(["runs", "show", str(run_id), "--json", "--db", str(db)]) == 0
    shown = json.loads(capsys.readouterr().out)
    return shown["timeline"][0]["payload"]["legs"]


def test_no_secret_is_kept_in_the_database_or_the_exports(sdk_url: str, tmp_path: Path, capsys) -> None:
    db = tmp_path / "runs.db"
    code = main(["call", sdk_url, "echo", "--args", json.dumps({"text": f"use {ARGUMENT_TOKEN} please"}),
                 "--header", f"X-Tenant-Code: {HEADER_SECRET}", "--header", f"Authorization: Bearer {BEARER_SECRET}",
                 "--json", "--db", str(db)])
    out = capsys.readouterr().out
    assert code == 0
    report = json.loads(out)
    legs = _stored_legs(db, report["run_id"], capsys)
    assert all("exchange" in leg for leg in legs)
    call = legs[-1]["exchange"]
    headers = dict((name.lower(), value) for name, value in call["request"]["headers"])
    assert headers["authorization"] == "[REDACTED]" and headers["x-tenant-code"] == "[REDACTED]"
    assert ARGUMENT_TOKEN not in call["request"]["body"] and "[REDACTED]" in call["request"]["body"]
    trace, otlp = tmp_path / "run.trace.json", tmp_path / "run.otlp.json"
    assert main(["export", str(report["run_id"]), "-o", str(trace), "--db", str(db)]) == 0
    assert main(["export", str(report["run_id"]), "-o", str(otlp), "--format", "otlp", "--db", str(db)]) == 0
    capsys.readouterr()
    # The header secrets are nowhere: database file (and its log), exports, the --json report.
    (tmp_path / "report.json").write_text(out)
    assert_nowhere([HEADER_SECRET, BEARER_SECRET], database=db, files=[trace, otlp, tmp_path / "report.json"])
    # The tool argument itself is kept with the step (as before); its exchanges and the exports never hold it.
    connection = sqlite3.connect(db)
    try:
        exchanges = [row[0] for row in connection.execute("SELECT exchange FROM legs")]
    finally:
        connection.close()
    assert exchanges and all(text and ARGUMENT_TOKEN not in text for text in exchanges)
    assert_nowhere([ARGUMENT_TOKEN], files=[trace, otlp])
    # The OTLP leg spans carry the exchange as span events.
    spans = [span for resource in json.loads(otlp.read_text())["resourceSpans"]
             for scope in resource["scopeSpans"] for span in scope["spans"]]
    names = [event["name"] for span in spans for event in span.get("events", ())]
    assert names.count("mcp.wire.request") == len(legs) and "mcp.wire.answer" in names


def test_the_exchange_travels_through_both_formats(sdk_url: str, tmp_path: Path, capsys) -> None:
    db = tmp_path / "runs.db"
    _call(sdk_url, db)
    report = json.loads(capsys.readouterr().out)
    before = _stored_legs(db, report["run_id"], capsys)
    for fmt in ("trace", "otlp"):
        exported, again = tmp_path / f"run.{fmt}.json", tmp_path / f"again-{fmt}.db"
        assert main(["export", str(report["run_id"]), "-o", str(exported), "--format", fmt, "--db", str(db)]) == 0
        assert main(["import", str(exported), "--db", str(again)]) == 0
        capsys.readouterr()
        after = _stored_legs(again, 1, capsys)
        assert [leg["exchange"] for leg in after] == [leg["exchange"] for leg in before], fmt


def test_a_huge_answer_is_cut_with_a_note(sdk_url: str, tmp_path: Path, capsys) -> None:
    db = tmp_path / "runs.db"
    huge = "x" * (3 * MAX_WIRE_BYTES)
    _call(sdk_url, db, text=huge)
    report = json.loads(capsys.readouterr().out)
    assert report["content"] == huge  # the call itself is whole: only what is kept of the wire is bounded
    call = _stored_legs(db, report["run_id"], capsys)[-1]["exchange"]
    kept = len(call["request"]["body"].encode()) + len(call["answer"].get("body", "").encode()) \
        + sum(len(event["data"].encode()) for event in call["answer"].get("events", ()))
    assert kept == MAX_WIRE_BYTES
    assert call["cut"]["bytes"] > 3 * MAX_WIRE_BYTES  # request and answer each carried the text
    assert call["request"]["body"].startswith('{"jsonrpc":"2.0","method":"tools/call"')


def test_wire_off_keeps_none_and_headers_keeps_the_heads(sdk_url: str, tmp_path: Path, capsys) -> None:
    db = tmp_path / "runs.db"
    _call(sdk_url, db, "--wire", "off")
    off = json.loads(capsys.readouterr().out)
    assert all("exchange" not in leg for leg in _stored_legs(db, off["run_id"], capsys))
    connection = sqlite3.connect(db)
    try:
        assert connection.execute("SELECT COUNT(*) FROM legs WHERE exchange IS NOT NULL").fetchone()[0] == 0
    finally:
        connection.close()
    _call(sdk_url, db, "--wire", "headers")
    heads = json.loads(capsys.readouterr().out)
    for leg in _stored_legs(db, heads["run_id"], capsys):
        exchange = leg["exchange"]
        assert exchange["level"] == "headers"
        assert "body" not in exchange["request"] and exchange["request"]["headers"]
        assert "body" not in exchange["answer"] and "events" not in exchange["answer"]
        assert exchange["answer"]["status"] == leg["httpStatus"]


@pytest.mark.parametrize("transport", ["stdio", "sse"])
def test_a_line_keeps_the_message_it_wrote_and_the_answer(transport: str, tmp_path: Path, capsys) -> None:
    """stdio (a line on stdin) and the older HTTP+SSE transport (a POST, the answer on the stream)."""
    import shlex
    import sys

    db = tmp_path / "runs.db"
    if transport == "stdio":
        command = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"
        code = main(["call", "--stdio", command, "echo", "--args", '{"text": "line wire"}', "--json",
                     "--db", str(db)])
    else:
        with serve_asgi(build_sdk_server().sse_app(), path="/sse") as url:
            code = main(["call", url, "echo", "--sse", "--args", '{"text": "line wire"}', "--json", "--db", str(db)])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report
    call = _stored_legs(db, report["run_id"], capsys)[-1]
    exchange = call["exchange"]
    sent = json.loads(exchange["request"]["body"])
    assert sent["method"] == "tools/call" and sent["params"]["arguments"] == {"text": "line wire"}
    assert exchange["request"]["method"] == ("stdin" if transport == "stdio" else "POST")
    answer = json.loads(exchange["answer"]["body"])
    assert answer["id"] == sent["id"] and answer["result"]["content"][0]["text"] == "line wire"


def test_a_refusal_keeps_its_body_and_a_stalled_one_is_not_waited_for(tmp_path: Path, capsys) -> None:
    from tests.support.fault_server import FaultServer

    def refuse(exchange) -> None:
        exchange.send(503, b'{"reason": "down for maintenance"}')

    with FaultServer("session", work=refuse) as server:
        code = main(["call", server.url, "echo", "--era", "handshake", "--json", "--db", str(tmp_path / "a.db")])
    report = json.loads(capsys.readouterr().out)
    assert code != 0 and report["error"]["kind"] == "http_status"
    call = _stored_legs(tmp_path / "a.db", report["run_id"], capsys)[-1]
    assert call["exchange"]["answer"]["status"] == 503
    assert call["exchange"]["answer"]["body"] == '{"reason": "down for maintenance"}'
    # A refusal whose body never ends is reported as the refusal, at once: not after the grant.

    def refuse_slowly(exchange) -> None:
        exchange._start(500, "application/json", None, "length", 1000, None)
        exchange.write_raw('{"reason": "half')
        exchange.stall()

    with FaultServer("session", work=refuse_slowly) as server:
        started = time.monotonic()
        code = main(["call", server.url, "echo", "--era", "handshake", "--json", "--budget", "10",
                     "--db", str(tmp_path / "b.db")])
        took = time.monotonic() - started
    report = json.loads(capsys.readouterr().out)
    assert code != 0 and report["error"]["kind"] == "http_status", report["error"]
    assert took < 5
    call = _stored_legs(tmp_path / "b.db", report["run_id"], capsys)[-1]
    assert call["exchange"]["answer"]["body"] == '{"reason": "half'
