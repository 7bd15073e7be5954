"""The OTLP/HTTP receiver on 127.0.0.1: real requests, a real SQLite file, the importer to compare with."""

from __future__ import annotations

import base64
import gzip
import json
import re
import socket
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from google.protobuf.json_format import ParseDict
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from inspector.capture import ReceiverError, ReceiverOptions, TraceReceiver, otlp_body
from inspector.store import RunStore
from inspector.transfer import import_trace
from tests.support.cli_process import cli_here

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"
QUIET_S = 0.4
JSON = {"Content-Type": "application/json"}
PROTOBUF = {"Content-Type": "application/x-protobuf"}


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=QUIET_S)) as running:
        yield running


def _lines() -> list[str]:
    return [line for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _protobuf(line: str) -> bytes:
    """A line of the fixture (OTLP JSON, hex ids) as the protobuf body an SDK sends (ids as bytes)."""
    def ids_as_base64(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: (base64.b64encode(bytes.fromhex(item)).decode() if key in ("traceId", "spanId", "parentSpanId")
                          and item else ids_as_base64(item)) for key, item in value.items()}
        if isinstance(value, list):
            return [ids_as_base64(item) for item in value]
        return value
    return ParseDict(ids_as_base64(json.loads(line)), ExportTraceServiceRequest()).SerializeToString()


def _settled(db: Path, runs: int, timeout: float = 15.0) -> list[tuple[Any, ...]]:
    """The runs of ``db`` once ``runs`` of them exist and none is running any more."""
    deadline = time.monotonic() + timeout
    while True:
        with RunStore.open(db) as store:
            found = store.list_runs(limit=None)
        if len(found) >= runs and all(run.status != "running" for run in found):
            return found
        assert time.monotonic() < deadline, f"runs not settled: {found}"
        time.sleep(0.05)


def _steps(db: Path, uid: str) -> list[tuple[Any, ...]]:
    with RunStore.open(db) as store:
        run = store.find_run_by_uid(uid)
        assert run is not None, uid
        return [(step.sequence, step.started_at, step.outcome, step.payload) for step in store.iter_steps(run.id)]


def _header(db: Path, uid: str) -> tuple[Any, ...]:
    with RunStore.open(db) as store:
        run = store.find_run_by_uid(uid)
        assert run is not None
        return run.title, run.server, run.status, run.started_at, run.finished_at, run.source


def _imported(tmp_path: Path, lines: list[str]) -> Path:
    source = tmp_path / "spans.jsonl"
    source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    db = tmp_path / "imported.db"
    with RunStore.open(db) as store:
        import_trace(store, source)
    return db


def _uids(db: Path) -> list[str]:
    with RunStore.open(db) as store:
        return sorted(run.uid for run in store.list_runs(limit=None))


# -- the same runs as an import ---------------------------------------------------------------------

def test_json_requests_make_the_runs_an_import_of_the_same_spans_makes(receiver: TraceReceiver,
                                                                         tmp_path: Path) -> None:
    lines = _lines()
    for line in lines:
        answer = httpx.post(receiver.url, content=line, headers=JSON)
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/json"
        assert answer.json() == {}  # every span taken: no partial_success
    _settled(receiver.db_path, 4)
    imported = _imported(tmp_path, lines)
    assert _uids(receiver.db_path) == _uids(imported)
    for uid in _uids(imported):
        assert _steps(receiver.db_path, uid) == _steps(imported, uid)
        assert _header(receiver.db_path, uid) == _header(imported, uid)


def test_spans_split_over_requests_in_reverse_order_make_the_same_run(receiver: TraceReceiver,
                                                                      tmp_path: Path) -> None:
    """Server spans before their client spans, one span per request, last first."""
    lines = _lines()
    singles = []
    for line in lines:
        document = json.loads(line)
        for resource in document["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                for span in scope["spans"]:
                    singles.append({"resourceSpans": [{"resource": resource.get("resource", {}), "scopeSpans": [
                        {"scope": scope.get("scope", {}), "spans": [span]}]}]})
    assert len(singles) > 10
    for document in reversed(singles):
        assert httpx.post(receiver.url, json=document).status_code == 200
    _settled(receiver.db_path, 4)
    imported = _imported(tmp_path, lines)
    for uid in _uids(imported):
        # Sequences follow arrival; the timeline (by time) and every step are the same.
        live = sorted((step[1], json.dumps(step[3], sort_keys=True), step[2]) for step in _steps(receiver.db_path, uid))
        read = sorted((step[1], json.dumps(step[3], sort_keys=True), step[2]) for step in _steps(imported, uid))
        assert live == read
        assert _header(receiver.db_path, uid) == _header(imported, uid)
    joined = [step for step in _steps(receiver.db_path, "otlp-" + json.loads(lines[0])["resourceSpans"][0][
        "scopeSpans"][0]["spans"][0]["traceId"]) if step[3].get("raw", {}).get("otlp", {}).get("server")]
    assert joined, "client and server sides were joined although the server spans came first"


def test_a_growing_trace_is_running_until_it_has_been_quiet(tmp_path: Path) -> None:
    lines = _lines()
    with TraceReceiver(tmp_path / "r.db", ReceiverOptions(port=0, quiet_s=1.5)) as receiver:
        assert httpx.post(receiver.url, content=lines[0], headers=JSON).status_code == 200
        with RunStore.open(receiver.db_path) as store:  # written before the answer came
            statuses = {run.status for run in store.list_runs(limit=None)}
            assert statuses == {"running"}
        runs = _settled(receiver.db_path, 1)
        assert {run.status for run in runs} <= {"ok", "failed", "cancelled", "interrupted"}


def test_protobuf_and_gzip_give_what_json_gives(receiver: TraceReceiver, tmp_path: Path) -> None:
    lines = _lines()
    for index, line in enumerate(lines):
        body, headers = _protobuf(line), dict(PROTOBUF)
        if index % 2:
            body, headers["Content-Encoding"] = gzip.compress(body), "gzip"
        answer = httpx.post(receiver.url, content=body, headers=headers)
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/x-protobuf"
        response = ExportTraceServiceResponse.FromString(answer.content)
        assert not response.HasField("partial_success")
    _settled(receiver.db_path, 4)
    imported = _imported(tmp_path, lines)
    for uid in _uids(imported):
        assert _steps(receiver.db_path, uid) == _steps(imported, uid)


def test_gzip_json(receiver: TraceReceiver) -> None:
    answer = httpx.post(receiver.url, content=gzip.compress(_lines()[0].encode()),
                        headers={**JSON, "Content-Encoding": "gzip"})
    assert answer.status_code == 200 and answer.json() == {}


def test_the_sdks_exporter_compressing_with_deflate_is_taken(receiver: TraceReceiver) -> None:
    """The OpenTelemetry Python SDK offers deflate besides gzip (``OTEL_EXPORTER_OTLP_COMPRESSION=deflate``),
    as the Collector's OTLP receiver takes it: it was answered 415, and the exporter dropped every batch."""
    from opentelemetry.exporter.otlp.proto.http import Compression
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    kept = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(kept))
    with provider.get_tracer("agent").start_as_current_span("invoke_agent deflated") as root:
        trace_id = format(root.get_span_context().trace_id, "032x")
    exporter = OTLPSpanExporter(endpoint=receiver.url, compression=Compression.Deflate)
    assert exporter.export(kept.get_finished_spans()) == SpanExportResult.SUCCESS
    exporter.shutdown()
    assert _header(receiver.db_path, f"otlp-{trace_id}")[0] == "invoke_agent deflated"
    deflate = {**JSON, "Content-Encoding": "deflate"}
    bomb = zlib.compress(b"{" + b" " * (otlp_body.MAX_UNPACKED_BYTES + 10) + b"}", 9)
    assert httpx.post(receiver.url, content=bomb, headers=deflate).status_code == 413
    broken = httpx.post(receiver.url, content=gzip.compress(b"{}"), headers=deflate)  # gzip said to be deflate
    assert broken.status_code == 400 and "not valid deflate" in broken.json()["message"]
    cut = httpx.post(receiver.url, content=zlib.compress(b"{}" * 100)[:8], headers=deflate)
    assert cut.status_code == 400 and "deflate body ends before its end" in cut.json()["message"]


# -- bad requests -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("body", "words"), [
    (b"{not json", "not valid JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"resourceSpans": 7}', "resourceSpans must be a list"),
    (b'{"resourceSpans": [{"scopeSpans": [{"spans": ["x"]}]}]}', "Each item of spans[] must be an object"),
    (b"[" * 100_000 + b"]" * 100_000, "nests"),
    (b"\xff\xfe\x00garbage", "The body is UTF-16 text, not UTF-8"),  # its byte order mark says so
    (b"{\xffgarbage", "The body is not UTF-8 text (at byte 1)"),
])
def test_a_bad_json_body_is_answered_400_with_a_status(receiver: TraceReceiver, body: bytes, words: str) -> None:
    answer = httpx.post(receiver.url, content=body, headers=JSON)
    assert answer.status_code == 400
    status = answer.json()
    assert status["code"] == 3 and words in status["message"]


def test_a_bad_protobuf_body_is_answered_400_with_a_protobuf_status(receiver: TraceReceiver) -> None:
    from google.rpc.status_pb2 import Status

    answer = httpx.post(receiver.url, content=b"\x0a\xff\xff\xff\xff\x0fgarbage", headers=PROTOBUF)
    assert answer.status_code == 400
    assert answer.headers["content-type"] == "application/x-protobuf"
    status = Status.FromString(answer.content)  # the official message reads our hand-made bytes
    assert status.code == 3 and "not a protobuf ExportTraceServiceRequest" in status.message


def test_spans_an_import_would_refuse_are_rejected_the_others_kept(receiver: TraceReceiver) -> None:
    document = json.loads(_lines()[0])
    spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans.append({**spans[0], "traceId": "not-an-id", "spanId": "00000000000000aa"})
    spans.append({**spans[0], "spanId": "00000000000000ab", "endTimeUnixNano": "1"})  # ends before it starts
    answer = httpx.post(receiver.url, json=document)
    assert answer.status_code == 200
    partial = answer.json()["partialSuccess"]
    assert partial["rejectedSpans"] == "2"
    assert "traceId" in partial["errorMessage"]
    body = gzip.compress(_protobuf(json.dumps(document).replace('"not-an-id"', '"' + "ab" * 16 + '"')))
    answer = httpx.post(receiver.url, content=body, headers={**PROTOBUF, "Content-Encoding": "gzip"})
    response = ExportTraceServiceResponse.FromString(answer.content)
    assert response.partial_success.rejected_spans == 1
    assert "ends before it starts" in response.partial_success.error_message
    assert _settled(receiver.db_path, 1)


def test_a_gzip_bomb_is_refused_with_a_clear_error(receiver: TraceReceiver) -> None:
    bomb = gzip.compress(b"{" + b" " * (otlp_body.MAX_UNPACKED_BYTES + 10) + b"}", compresslevel=9)
    assert len(bomb) < otlp_body.MAX_BODY_BYTES
    answer = httpx.post(receiver.url, content=bomb, headers={**JSON, "Content-Encoding": "gzip"})
    assert answer.status_code == 413
    assert "unpacks to more than 64 MiB" in answer.json()["message"]
    broken = httpx.post(receiver.url, content=b"plain text, not gzip", headers={**JSON, "Content-Encoding": "gzip"})
    assert broken.status_code == 400 and "not valid gzip" in broken.json()["message"]
    cut = httpx.post(receiver.url, content=gzip.compress(b"{}")[:12], headers={**JSON, "Content-Encoding": "gzip"})
    assert cut.status_code == 400 and "cut short" in cut.json()["message"]


def test_a_body_over_the_limit_is_refused_before_it_is_read(receiver: TraceReceiver) -> None:
    host, port = receiver.address
    with socket.create_connection((host, port), timeout=5) as connection:
        connection.sendall(b"POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           b"Content-Length: %d\r\n\r\n{" % (otlp_body.MAX_BODY_BYTES + 1))
        head = b""
        while chunk := connection.recv(4096):  # the receiver closes the connection after its answer
            head += chunk
        head = head.decode()
    assert head.startswith("HTTP/1.1 413")
    assert "larger than 16 MiB" in head


def test_chunked_bodies_are_read(receiver: TraceReceiver) -> None:
    line = _lines()[0].encode()
    answer = httpx.post(receiver.url, content=iter([line[:100], line[100:]]), headers=JSON)  # no length: chunked
    assert answer.status_code == 200 and answer.json() == {}


@pytest.mark.parametrize(("method", "path", "headers", "status"), [
    ("POST", "/v1/traces", {"Content-Type": "text/plain"}, 415),
    ("POST", "/v1/traces", {"Content-Type": "application/json", "Content-Encoding": "br"}, 415),
    ("POST", "/v1/metrics", JSON, 404),
    ("GET", "/v1/traces", {}, 405),
    ("OPTIONS", "/v1/traces", {"Origin": "https://evil.example"}, 405),
    ("POST", "/v1/traces", {**JSON, "Origin": "https://evil.example"}, 403),
])
def test_what_is_not_an_otlp_trace_request_is_refused(receiver: TraceReceiver, method: str, path: str,
                                                      headers: dict[str, str], status: int) -> None:
    answer = httpx.request(method, receiver.url.replace("/v1/traces", path), content=b"{}", headers=headers)
    assert answer.status_code == status
    assert answer.json()["message"]


def test_garbage_on_the_socket_does_not_stop_the_receiver(receiver: TraceReceiver) -> None:
    host, port = receiver.address
    for garbage in (b"\x00\xff" * 1000 + b"\r\n\r\n", b"POST /v1/traces HTTP/1.1\r\nContent-Length: nope\r\n\r\n"):
        with socket.create_connection((host, port), timeout=5) as connection:
            connection.sendall(garbage)
            connection.recv(4096)
    assert httpx.post(receiver.url, content=_lines()[0], headers=JSON).status_code == 200


# -- where it listens ---------------------------------------------------------------------------------

def test_a_taken_port_is_said_in_one_sentence(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ReceiverError) as raised:
            TraceReceiver(tmp_path / "r.db", ReceiverOptions(port=port)).start()
        assert str(raised.value) == (f"The trace receiver cannot listen on 127.0.0.1:{port}: the port is taken "
                                     "(another OTLP receiver or collector runs there?). Stop that program or choose "
                                     "another port.")
        # In this process (what it says is the point): the port stays taken, so neither command serves.
        command = cli_here("receive", "--port", str(port), "--json")
        german = cli_here("--lang", "de", "receive", "--port", str(port))
    assert command.returncode == 2
    assert json.loads(command.stdout)["error"]["message"] == str(raised.value)
    assert "Port" in german.stderr and "belegt" in german.stderr


def test_off_loopback_a_token_is_required(tmp_path: Path) -> None:
    with TraceReceiver(tmp_path / "r.db", ReceiverOptions(host="0.0.0.0", port=0, quiet_s=QUIET_S)) as receiver:
        assert receiver.token and len(receiver.token) >= 40
        url = f"http://127.0.0.1:{receiver.address[1]}/v1/traces"
        line = _lines()[0]
        for given in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {receiver.token}"},
                      {"Authorization": f"Bearer {receiver.token}x"}):
            answer = httpx.post(url, content=line, headers={**JSON, **given})
            assert answer.status_code == 401
            assert "Authorization: Bearer TOKEN" in answer.json()["message"]
        with RunStore.open(receiver.db_path) as store:
            assert store.list_runs() == []
        answer = httpx.post(url, content=line, headers={**JSON, "Authorization": f"Bearer {receiver.token}"})
        assert answer.status_code == 200
    with TraceReceiver(tmp_path / "r.db", ReceiverOptions(port=0)) as loopback:
        assert loopback.token is None


def test_receive_command_prints_a_line_per_run_and_stops_on_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    process = subprocess.Popen([sys.executable, "-m", "inspector", "receive", "--port", "0", "--quiet-after", "0.3",
                                "--json", "--db", str(db)], stdout=subprocess.PIPE, text=True)
    try:
        first = json.loads(process.stdout.readline())
        assert first["url"].startswith("http://127.0.0.1:") and first["token"] is None
        assert first["database"] == str(db)  # the key `proxy` names it under too
        assert httpx.post(first["url"], content=_lines()[0], headers=JSON).status_code == 200
        received = json.loads(process.stdout.readline())
        assert received["event"] == "new" and received["status"] == "running" and received["run_id"] == 1
        settled = json.loads(process.stdout.readline())
        assert settled["event"] == "updated" and settled["status"] != "running"
    finally:
        process.terminate()
        rest, _ = process.communicate(timeout=30)
    assert process.returncode == 0
    assert json.loads(rest.splitlines()[-1]) == {"stopped": True}


def test_receive_command_counts_thousands_of_steps_as_the_language_writes_numbers(tmp_path: Path) -> None:
    """The readable line said "(ok, 1003 Schritte)" where `import` says "1.003 Schritte wurden hinzugefügt"."""
    start = 1_700_000_000_000_000_000
    spans = [{"traceId": "5b8efff798038103d269b633813fc60c", "spanId": f"{number + 1:016x}", "name": "work",
              "kind": 1, "startTimeUnixNano": str(start + number), "endTimeUnixNano": str(start + number + 1)}
             for number in range(1_003)]
    process = subprocess.Popen([sys.executable, "-m", "inspector", "--lang", "de", "receive", "--port", "0",
                                "--quiet-after", "0.3", "--db", str(tmp_path / "cli.db")], stdout=subprocess.PIPE,
                               text=True)
    try:
        url = re.search(r"http://\S+/v1/traces", process.stdout.readline()).group()  # type: ignore[union-attr]
        process.stdout.readline()  # when a trace counts as finished
        body = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]})
        assert httpx.post(url, content=body, headers=JSON).status_code == 200
        lines = [process.stdout.readline().strip() for _ in range(2)]
    finally:
        process.terminate()
        process.communicate(timeout=30)
    assert lines == ["Lauf #1 empfangen: work (läuft, 1.003 Schritte)",
                     "Lauf #1 aktualisiert: work (ok, 1.003 Schritte)"]


# -- a real agent -----------------------------------------------------------------------------------

def test_an_agent_on_the_mcp_sdk_exporting_with_the_otel_sdk(receiver: TraceReceiver) -> None:
    """The official mcp client and server, httpx2 instrumentation from PyPI, the OTel SDK's own OTLP/HTTP
    exporter (protobuf, gzip): the agent's run arrives with its outcomes, the cancelled call cancelled."""
    root = Path(__file__).resolve().parents[2]
    agent = subprocess.run([sys.executable, str(root / "tests" / "support" / "otel_agent.py"), receiver.url],
                           capture_output=True, text=True, timeout=120, cwd=root,
                           env={**__import__("os").environ, "PYTHONPATH": str(root)})
    assert agent.returncode == 0, agent.stderr
    trace_id = agent.stdout.split("TRACE ")[1].strip()
    _settled(receiver.db_path, 1)
    steps = [step[3] for step in _steps(receiver.db_path, f"otlp-{trace_id}")]
    agent_tools = {step["toolName"]: step.get("toolOutcome") for step in steps
                   if step["raw"]["otlp"]["name"].startswith("execute_tool ")}
    assert agent_tools == {"echo": "ok", "fail": "failed", "hang": "cancelled"}
    sdk_calls = {step["toolName"]: step for step in steps
                 if step["raw"]["otlp"]["name"].startswith("MCP send tools/call")}
    assert sdk_calls["echo"]["toolOutcome"] == "ok"
    assert sdk_calls["fail"]["toolOutcome"] == "failed"  # the server side says the tool reported an error
    # The SDK's own spans of the cancelled call record no error; its client side ended first: no outcome claimed.
    assert "toolOutcome" not in sdk_calls["hang"] and "stopped waiting" in sdk_calls["hang"]["toolResult"]
    assert sdk_calls["echo"]["raw"]["otlp"]["server"]["name"] == "tools/call echo"  # both sides, one step
    http_spans = [step for step in steps
                  if step["raw"]["otlp"]["scope"]["name"] == "opentelemetry.instrumentation.httpx"]
    assert {step["raw"]["otlp"]["name"] for step in http_spans} >= {"POST", "DELETE"}
    assert _header(receiver.db_path, f"otlp-{trace_id}")[:2] == ("invoke_agent support-agent", "support-agent")


def test_receive_off_loopback_prints_its_token_once_and_asks_for_it(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "inspector", "receive", "--host", "0.0.0.0", "--port", "0",
                                "--db", str(tmp_path / "cli.db")], stdout=subprocess.PIPE, text=True)
    try:
        listening = process.stdout.readline()
        warning = process.stdout.readline()
        port = listening.split("http://0.0.0.0:")[1].split("/")[0]
        assert "reachable from other machines" in warning
        token = warning.split("Authorization: Bearer ")[1].split()[0]
        url = f"http://127.0.0.1:{port}/v1/traces"
        assert httpx.post(url, content=_lines()[0], headers=JSON).status_code == 401
        answer = httpx.post(url, content=_lines()[0], headers={**JSON, "Authorization": f"Bearer {token}"})
        assert answer.status_code == 200
    finally:
        process.terminate()
        rest, _ = process.communicate(timeout=30)
    assert process.returncode == 0
    assert token not in rest  # shown once, at the start
