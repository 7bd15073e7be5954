"""Property tests: arbitrary text (lone surrogates, controls, bidirectional overrides, invalid
bytes) through the client's result path and through the importer. Every case ends in a clean
result that can be stored, printed and exported, or in a clean refusal that changed nothing."""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import argparse
import asyncio
import contextlib
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from inspector.agent import execute_tool
from inspector.cli.operations import build_report, print_report
from inspector.cli.runs import entry_dict, run_dict
from inspector.mcp import McpClient, McpTransportError, OperationRecorder, ServerEndpoint
from inspector.mcp.jsonrpc import NotAnAnswer, decode_body
from inspector.mcp.results import ToolCallResult
from inspector.store import RunStore
from inspector.traces.format import TraceImportError
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace
from tests.support.fault_server import Exchange, FaultServer
from tests.unit.traces.test_trace_support import fingerprint, settle

PROPERTY = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# Any code point, lone surrogates included, with the troublesome ones made likely.
# (A list joined, not st.text: st.text leaves lone surrogates out.)
HOSTILE_TEXT = st.lists(st.one_of(st.characters(codec=None), st.sampled_from(
    ["\udc00", "\ud800", "\udfff", "\n", "\r", "\u202e", "\u2066", "\x1b", "\x00", "\u2028", "\ufeff"])),
    max_size=40).map("".join)
# A run uid: often a good one (so that imports get as far as the database), often hostile.
UIDS = st.one_of(st.uuids().map(str), HOSTILE_TEXT)
# An answer body: usually built around hostile text, sometimes raw bytes.
RAW = st.one_of(st.none(), st.none(), st.none(), st.binary(max_size=60))


def printable(text: str) -> None:
    """Text that reached the user must encode (it is valid Unicode) and be one JSON string."""
    text.encode("utf-8")
    json.dumps(text, ensure_ascii=False).encode("utf-8")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    opened = RunStore.open(tmp_path_factory.mktemp("props") / "runs.db")
    yield opened
    opened.close()


def _answer_body(text: str, key: str, raw: bytes | None) -> bytes:
    if raw is not None:
        return raw
    return json.dumps({"jsonrpc": "2.0", "id": 3, "result": {
        "content": [{"type": "text", "text": text}, {"type": key, "x": text}],
        "structuredContent": {key: [text]}, "isError": len(text) % 3 == 0}}).encode()


@PROPERTY
@given(text=HOSTILE_TEXT, key=HOSTILE_TEXT, raw=RAW)
def test_any_answer_body_decodes_to_a_clean_result_or_a_clean_refusal(store: RunStore, text: str, key: str,
                                                                      raw: bytes | None) -> None:
    try:
        answer = decode_body(_answer_body(text, key, raw))
    except NotAnAnswer as why:
        printable(str(why))
        return
    if answer.is_error:
        printable(answer.error_message or "")
        return
    result = ToolCallResult.from_result("tool", answer.result)
    printable(result.content)
    json.dumps(result.structured_content, ensure_ascii=False).encode("utf-8")


@pytest.fixture(scope="module")
def server():
    bodies: list[bytes] = [b""]

    def work(exchange: Exchange) -> None:
        body = bodies[0].replace(b'"id": 3', f'"id": {json.dumps(exchange.request.rpc_id)}'.encode())
        exchange.send(200, body)

    with FaultServer("session", work=work) as running:
        yield running, bodies


@PROPERTY
@given(text=HOSTILE_TEXT, key=HOSTILE_TEXT, raw=RAW)
def test_any_answer_over_http_is_stored_printed_and_exported(store: RunStore, server, tmp_path_factory,
                                                            text: str, key: str, raw: bytes | None) -> None:
    running, bodies = server
    bodies[0] = _answer_body(text, key, raw)
    endpoint = ServerEndpoint(running.url)
    recorder = OperationRecorder()

    async def call():
        client = McpClient()
        try:
            return await execute_tool(client, endpoint, "tool", {"q": "x"}, budget_s=5, observer=recorder)
        finally:
            await client.drain(0.5)

    record = asyncio.run(call())
    event(f"outcome {record.status}")
    assert record.status in ("ok", "failed")
    assert record.error is None or isinstance(record.error, McpTransportError)
    run_id = store.start_run("tools/call tool", "live", running.url)
    store.append_step(run_id, record.step, record.started_at)
    store.finish_run(run_id, record.status)
    args = argparse.Namespace(tool="tool")
    report = build_report("tools/call", endpoint, args, recorder, record, run_id)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_report(report, as_json=False)
        print_report(report, as_json=True)
    printable(out.getvalue())
    stored = store.get_run(run_id)
    for step in store.iter_steps(run_id):
        printable(json.dumps(entry_dict(stored, step), ensure_ascii=False))
    export(store, [run_id], None, tmp_path_factory.getbasetemp() / "one.json")


def _document(uid: str, title: str, key: str, content: str) -> dict:
    payload = {"kind": "llm", "round": 0, "durationMs": 1.0, "content": content, "raw": {key: content}}
    return {"format": "run-inspector-trace", "version": 1,
            "runs": [{"uid": uid, "title": title, "status": "ok", "started_at": None,
                      "steps": [{"sequence": 1, "payload": payload}]}]}


@PROPERTY
@given(uid=UIDS, title=HOSTILE_TEXT, key=HOSTILE_TEXT, content=HOSTILE_TEXT,
       mangle=st.one_of(st.none(), st.tuples(st.integers(0, 400), st.binary(min_size=1, max_size=4))))
def test_any_text_in_a_trace_imports_cleanly_or_is_refused_cleanly(store: RunStore, tmp_path_factory, uid: str,
                                                                   title: str, key: str, content: str,
                                                                   mangle) -> None:
    folder = tmp_path_factory.getbasetemp()
    data = json.dumps(_document(uid, title, key, content)).encode()  # surrogates become \\udc00 escapes
    if mangle is not None:
        at, junk = mangle
        data = data[:at] + junk + data[at + len(junk):]
    path = folder / "hostile.json"
    path.write_bytes(data)
    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    settle(store)
    before = fingerprint(db)
    try:
        report = import_trace(store, path)
    except TraceImportError as refusal:
        event(f"refused: {refusal.problem[:50]}")
        printable(str(refusal))
        assert fingerprint(db) == before
        return
    event("imported" if report.run_ids else "already present")
    for run_id in report.run_ids:
        run = store.get_run(run_id)
        printable(json.dumps(run_dict(run), ensure_ascii=False))
        for step in store.iter_steps(run_id):
            printable(json.dumps(entry_dict(run, step), ensure_ascii=False))
    if report.run_ids:
        export(store, list(report.run_ids), None, folder / "again.json")
        export(store, list(report.run_ids), None, folder / "again.otlp.json", format="otlp")


def _otlp_document(uid: str, title: str, key: str, content: str) -> dict:
    def attr(name: str, value: object) -> dict:
        kind = "intValue" if isinstance(value, int) else "stringValue"
        return {"key": name, "value": {kind: str(value) if kind == "intValue" else value}}

    payload = json.dumps({"kind": "llm", "round": 0, "durationMs": 1.0, "content": content, "raw": {key: content}})
    ours = [{"traceId": "1" * 32, "spanId": "a" * 16, "name": title, "startTimeUnixNano": "1700000000000000000",
             "attributes": [attr("run_inspector.span", "run"), attr("run_inspector.run.uid", uid),
                            attr("run_inspector.run.title", title), attr("run_inspector.outcome", "ok")]},
            {"traceId": "1" * 32, "spanId": "b" * 16, "parentSpanId": "a" * 16, "name": "llm",
             "startTimeUnixNano": "1700000000000000000",
             "attributes": [attr("run_inspector.span", "step"), attr("run_inspector.step.sequence", 1),
                            attr("run_inspector.step.payload", payload)]}]
    foreign = {"traceId": "2" * 32, "spanId": "c" * 16, "name": title, "startTimeUnixNano": "1700000000000000000",
               "endTimeUnixNano": "1700000000000000500",
               "status": {"code": 2, "message": content},
               "attributes": [attr("gen_ai.tool.name", key), attr("gen_ai.tool.call.result", content), attr(key, uid)]}
    return {"resourceSpans": [{"resource": {"attributes": [attr("service.name", title)]},
                               "scopeSpans": [{"scope": {"name": key}, "spans": [*ours, foreign]}]}]}


@PROPERTY
@given(uid=UIDS, title=HOSTILE_TEXT, key=HOSTILE_TEXT, content=HOSTILE_TEXT)
def test_any_text_in_an_otlp_file_imports_cleanly_or_is_refused_cleanly(store: RunStore, tmp_path_factory,
                                                                       uid: str, title: str, key: str,
                                                                       content: str) -> None:
    folder = tmp_path_factory.getbasetemp()
    path = folder / "hostile.otlp.json"
    path.write_bytes(json.dumps(_otlp_document(uid, title, key, content)).encode())
    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    settle(store)
    before = fingerprint(db)
    try:
        report = import_trace(store, path)
    except TraceImportError as refusal:
        event(f"refused: {refusal.problem[:50]}")
        printable(str(refusal))
        assert fingerprint(db) == before
        return
    event("imported" if report.run_ids else "already present")
    for run_id in report.run_ids:
        run = store.get_run(run_id)
        printable(json.dumps(run_dict(run), ensure_ascii=False))
        for step in store.iter_steps(run_id):
            printable(json.dumps(entry_dict(run, step), ensure_ascii=False))
