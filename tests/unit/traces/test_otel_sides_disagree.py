"""Where a call's two sides (client and server span, one step) disagree, the sentence says in words
what differs: a client that stopped waiting before its server's side ended says so (it read "the client
ended with no error recorded after 201 ms; the server ended with no error recorded after 211 ms", agreement
in words, the difference only in the numbers). A tool error the client received as an answer is no
disagreement: the server marked it, the client's span records nothing of an answer that is not a JSON-RPC
error (the mcp SDK's), and both sides know the tool failed (see docs/trace-format.md, "Client beside server")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_trace_support import attr, otlp_doc, span

from inspector import i18n
from inspector.i18n.details import disagreement_said, server_answer_marked
from inspector.store import RunStore
from inspector.transfer.importing import import_trace

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"
T0 = 1_700_000_000_000_000_000


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()
    i18n.set_language("en")


def _tool_steps(store: RunStore, path: Path, name: str) -> list[dict[str, Any]]:
    report = import_trace(store, path)
    return [dict(stored.payload, outcome=stored.outcome) for run_id in report.run_ids
            for stored in store.iter_steps(run_id)
            if stored.payload.get("kind") == "tool" and stored.payload.get("toolName") == name
            and stored.payload["raw"]["otlp"].get("server")]


def _ms(otlp: dict[str, Any], side: dict[str, Any]) -> int:
    return round((int(side["endTimeUnixNano"]) - int(otlp["startTimeUnixNano"])) / 1_000_000)


@pytest.mark.parametrize("fixture", ["mcp_sdk.jsonl", "fastmcp.jsonl"])
def test_a_client_that_stopped_waiting_first_is_said_so_in_words(store: RunStore, fixture: str) -> None:
    cancelled = _tool_steps(store, FIXTURES / fixture, "slow")[-1]
    otlp = cancelled["raw"]["otlp"]
    client_ms, server_ms = _ms(otlp, otlp), _ms(otlp, otlp["server"])
    left = round((int(otlp["server"]["endTimeUnixNano"]) - int(otlp["endTimeUnixNano"])) / 1_000_000)
    assert cancelled["outcome"] == "" and left >= 1
    english = (f"the client stopped waiting after {client_ms} ms, {left} ms before the server's side ended; "
               f"the server ended with no error recorded after {server_ms} ms")
    assert otlp["disagreement"]["text"] == english and cancelled["toolResult"].endswith("\n" + english)
    i18n.set_language("en")
    assert disagreement_said(cancelled) == english
    assert i18n.set_language("de") == "de", "the German catalogue is not compiled (tools/translations.py compile)"
    assert disagreement_said(cancelled) == (
        f"der Client hörte nach {client_ms} ms auf zu warten, {left} ms vor dem Ende der Serverseite; "
        f"der Server endete nach {server_ms} ms ohne aufgezeichneten Fehler")


def test_the_mcp_sdk_cancel_reads_as_the_support_engineer_saw_it(store: RunStore) -> None:
    (_given_up, cancelled) = _tool_steps(store, FIXTURES / "mcp_sdk.jsonl", "slow")
    i18n.set_language("en")
    assert disagreement_said(cancelled) == ("the client stopped waiting after 201 ms, 10 ms before the server's side "
                                            "ended; the server ended with no error recorded after 211 ms")


@pytest.mark.parametrize("fixture", ["mcp_sdk.jsonl", "fastmcp.jsonl", "pydantic_ai.jsonl",
                                     "openai_agents_openinference.jsonl", "openai_agents_traceloop.jsonl"])
def test_a_tool_error_the_client_received_is_no_disagreement(store: RunStore, fixture: str) -> None:
    (fail,) = _tool_steps(store, FIXTURES / fixture, "fail")
    otlp = fail["raw"]["otlp"]
    # The server marked the isError answer; the client's span (status unset, no error, no result) ended
    # after it, when that answer came: both sides know the tool failed.
    assert otlp["server"]["attributes"]["error.type"] == "tool_error"
    assert otlp["status"]["code"] == 0 and "error.type" not in otlp["attributes"]
    assert int(otlp["endTimeUnixNano"]) >= int(otlp["server"]["endTimeUnixNano"])
    assert fail["outcome"] == "failed" and fail["toolIsError"] is True
    assert "disagreement" not in otlp and disagreement_said(fail) == ""
    assert fail["toolResult"].endswith("the tool reported an error (error.type tool_error)")


def _call(tmp_path: Path, *, client_end_ms: int, server_end_ms: int, client_status: dict[str, Any] | None = None,
          error_type: str = "tool_error", server_start_ms: int = 1) -> Path:
    """A call's two sides: the client's span over 0..client_end_ms, the server's server_start_ms..server_end_ms,
    the server failed with ``error_type``."""
    client = span(span_id="aaaaaaaaaaaaaaa1", name="MCP send tools/call fail", kind=3, start=str(T0),
                  end=str(T0 + client_end_ms * 1_000_000), status=client_status or {},
                  attributes=[attr("mcp.method.name", "tools/call"), attr("jsonrpc.request.id", "4")])
    server = span(span_id="aaaaaaaaaaaaaaa2", parent="aaaaaaaaaaaaaaa1", name="tools/call fail", kind=2,
                  start=str(T0 + server_start_ms * 1_000_000), end=str(T0 + server_end_ms * 1_000_000),
                  status={"code": 2},
                  attributes=[attr("mcp.method.name", "tools/call"), attr("gen_ai.tool.name", "fail"),
                              attr("error.type", error_type)])
    path = tmp_path / "call.json"
    path.write_text(json.dumps(otlp_doc(client, server)), encoding="utf-8")
    return path


def test_a_tool_error_the_client_stopped_waiting_for_is_said_so(store: RunStore, tmp_path: Path) -> None:
    """The client ended 10 ms before its server marked the tool error: it cannot have seen it."""
    (fail,) = _tool_steps(store, _call(tmp_path, client_end_ms=200, server_end_ms=210), "fail")
    assert fail["outcome"] == "failed"
    sentence = fail["raw"]["otlp"]["disagreement"]["text"]
    assert sentence == ("the client stopped waiting after 200 ms, 10 ms before the server's side ended; "
                        "the server failed after 210 ms (tool_error)")
    i18n.set_language("en")
    assert disagreement_said(fail) == sentence.removesuffix(" (tool_error)")  # the step's own lines say it
    # The client stopped waiting: whatever answer the step keeps is the server's, one it never received.
    assert server_answer_marked("the server's words", fail).startswith(
        "The server's answer, which the client had stopped waiting for:")


@pytest.mark.parametrize(("client_status", "error_type", "client_words"), [
    ({"code": 1}, "tool_error", "the client finished ok after 300 ms"),  # the client's span claimed ok
    ({}, "ValueError", "the client ended with no error recorded after 300 ms"),  # no isError answer: a JSON-RPC error
])
def test_sides_that_differ_otherwise_still_disagree(store: RunStore, tmp_path: Path, client_status: dict[str, Any],
                                                    error_type: str, client_words: str) -> None:
    (fail,) = _tool_steps(store, _call(tmp_path, client_end_ms=300, server_end_ms=290, client_status=client_status,
                                       error_type=error_type), "fail")
    assert fail["raw"]["otlp"]["disagreement"]["text"] == (
        f"{client_words}; the server failed after 290 ms ({error_type})")


def test_a_server_whose_clock_is_behind_is_timed_from_its_own_start(store: RunStore, tmp_path: Path) -> None:
    """The server's clock 2 s behind its client's: its span (100 ms long) starts and ends before the client's
    starts on the file's times. Timed from the client's start it "failed after -1900 ms"; a request is
    received after it is sent, so the server's side is timed from its own start."""
    (fail,) = _tool_steps(store, _call(tmp_path, client_end_ms=300, server_end_ms=-1900, server_start_ms=-2000,
                                       client_status={"code": 1}), "fail")
    assert fail["raw"]["otlp"]["disagreement"]["text"] == (
        "the client finished ok after 300 ms; the server failed after 100 ms (tool_error)")
    i18n.set_language("de")
    assert disagreement_said(fail) == "der Client endete nach 300 ms erfolgreich; der Server scheiterte nach 100 ms"
