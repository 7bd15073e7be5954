"""How the two sides of a call read from a trace disagree, as a person reads it: a side's error is
left out of that sentence where the step's own lines say it already (a timed-out call said its
exception three times on screen), and kept where they do not. The stored English is unchanged."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector import i18n
from inspector.i18n.details import disagreement_said, own_lines, server_answer_marked, without_disagreement
from inspector.store import RunStore
from inspector.transfer.importing import import_trace

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"
MESSAGE = "mcp.shared.exceptions.McpError: Timed out while waiting for response to ClientRequest. Waited 0.5 seconds."
TRACE = "cd" * 16


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def _payloads(store: RunStore, path: Path) -> list[dict]:
    report = import_trace(store, path)
    return [stored.payload for run_id in report.run_ids for stored in store.iter_steps(run_id)]


def _given_up(store: RunStore) -> dict:
    return next(payload for payload in _payloads(store, FIXTURES / "traceloop.jsonl")
                if payload.get("toolResult", "").startswith(MESSAGE))


def test_the_timed_out_call_says_its_exception_once(store: RunStore) -> None:
    payload = _given_up(store)
    i18n.set_language("en")
    said = disagreement_said(payload)
    assert said == "the client gave up after 504 ms; the server finished ok after 823 ms"
    assert own_lines(payload).count(MESSAGE) == 1
    # What is stored (and exported, and given by --json) keeps the whole sentence, error and all.
    assert payload["toolResult"].count(MESSAGE) == 2
    assert payload["raw"]["otlp"]["disagreement"]["text"] in payload["toolResult"]
    # The line of the disagreement is what a view that says it elsewhere leaves out; nothing else.
    assert without_disagreement(payload["toolResult"], payload) == own_lines(payload)
    assert len(own_lines(payload).splitlines()) == len(payload["toolResult"].splitlines()) - 1


def test_in_german_too(store: RunStore, german: None) -> None:
    assert disagreement_said(_given_up(store)) == ("der Client gab nach 504 ms auf; der Server endete nach 823 ms "
                                                   "erfolgreich")


def _span(span_id: str, name: str, kind: int, end_ms: int, *, parent: str = "", **extra: object) -> dict:
    span = {"traceId": TRACE, "spanId": span_id, "name": name, "kind": kind,
            "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": str(1_700_000_000_000_000_000
                                                                              + end_ms * 1_000_000),
            "attributes": [{"key": "mcp.method.name", "value": {"stringValue": "tools/call"}},
                           {"key": "jsonrpc.request.id", "value": {"stringValue": "7"}}], **extra}
    if parent:
        span["parentSpanId"] = parent
    return span


def test_an_error_only_the_sentence_on_the_sides_names_is_kept_there(store: RunStore, tmp_path: Path) -> None:
    """The client gave up; its server failed for a reason of its own. The step says the client's
    time-out; the server's reason is said only in the sentence on the sides, so it stays there."""
    client = _span("11" * 8, "MCP send tools/call slow", 3, 500, events=[
        {"name": "exception", "timeUnixNano": "1700000000500000000", "attributes": [
            {"key": "exception.type", "value": {"stringValue": "TimeoutError"}}]}], status={"code": 2})
    server = _span("22" * 8, "tools/call slow", 2, 700, parent="11" * 8,
                   status={"code": 2, "message": "database is locked"})
    path = tmp_path / "trace.json"
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [
        {"scope": {"name": "mcp-python-sdk"}, "spans": [client, server]}]}]}), encoding="utf-8")
    (payload,) = _payloads(store, path)
    i18n.set_language("en")
    assert payload["toolResult"].splitlines()[0] == "TimeoutError"
    assert disagreement_said(payload) == "the client gave up after 500 ms; the server failed after 700 ms " \
                                         "(database is locked)"


def test_an_answer_the_client_never_received_is_said_to_be_the_servers(store: RunStore) -> None:
    payloads = _payloads(store, FIXTURES / "traceloop.jsonl")
    given_up = next(payload for payload in payloads if payload.get("toolResult", "").startswith(MESSAGE))
    i18n.set_language("en")
    shown = server_answer_marked(own_lines(given_up), given_up).splitlines()
    assert shown[:1] == own_lines(given_up).splitlines()[:1]  # the time-out (its error.type only names the class)
    assert shown[1] == "The server's answer, which the client had stopped waiting for:"
    assert shown[2].startswith('{"content": [{"type": "text", "text": "slept 0.8 s"}]')
    # A call whose client got its answer (the sides agree, or the client was the one that failed): as stored.
    for payload in payloads:
        if payload is not given_up and payload.get("toolResult"):
            assert server_answer_marked(payload["toolResult"], payload) == payload["toolResult"]
