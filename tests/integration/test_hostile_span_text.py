"""Hostile JSON text inside a trace's span attributes (hostile-input tests): a Logfire ``request``, a
GenAI tool result or a model call's messages may spell lone surrogates (``"\\ud800"``) or NaN,
Infinity and numbers too big for a float. Each must import, show and print as strict JSON, through
the real command line (``import``, ``runs show --json``, ``export --format otlp``)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from inspector.cli import main

TRACE = "5b8efff798038103d269b633813fc60c"


def _attr(key: str, value: str) -> dict[str, Any]:
    return {"key": key, "value": {"stringValue": value}}


def _trace(tmp_path: Path, scope: str, name: str, attributes: list[dict[str, Any]]) -> Path:
    span = {"traceId": TRACE, "spanId": "0000000000000002", "name": name, "kind": 3,
            "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000001000000000",
            "attributes": attributes}
    doc = {"resourceSpans": [{"resource": {"attributes": [_attr("service.name", "svc")]},
                              "scopeSpans": [{"scope": {"name": scope}, "spans": [span]}]}]}
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _strict(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in printed JSON")
    return json.loads(text, parse_constant=refuse)


def _imported_step(tmp_path: Path, path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    db = str(tmp_path / "runs.db")
    assert main(["import", str(path), "--db", db]) == 0, capsys.readouterr()
    capsys.readouterr()
    assert main(["runs", "show", "1", "--json", "--db", db]) == 0
    shown = _strict(capsys.readouterr().out)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT MIN(json_valid(payload)) FROM steps").fetchone() == (1,)
    out = tmp_path / "again.json"
    assert main(["export", "--all", "--format", "otlp", "-o", str(out), "--db", db]) == 0
    _strict(out.read_text(encoding="utf-8"))
    return shown["timeline"][0]["payload"]


LONE_SURROGATES = '{"method":"tools/call","params":{"name":"\\ud800<b>t</b>","arguments":{"\\udc00":"a\\udfffb"}}}'


def test_a_logfire_request_spelling_lone_surrogates_imports_with_replacement_characters(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _trace(tmp_path, "logfire", "MCP request: tools/call t",
                  [_attr("request", LONE_SURROGATES),
                   _attr("response", '{"content":[{"type":"text","text":"\\ud800ok"}]}')])
    payload = _imported_step(tmp_path, path, capsys)
    assert payload["toolName"] == "\ufffd<b>t</b>"
    assert payload["toolArguments"] == {"\ufffd": "a\ufffdb"}
    assert payload["toolResult"] == "\ufffdok"
    # the attribute itself is kept as the trace wrote it
    assert payload["raw"]["otlp"]["attributes"]["request"] == LONE_SURROGATES


def test_a_lone_content_block_spelling_a_lone_surrogate_imports(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = _trace(tmp_path, "their-lib", "execute_tool t",
                  [_attr("gen_ai.tool.name", "t"),
                   _attr("gen_ai.tool.call.result", '{"type":"text","text":"\\ud83d\\ude00 and \\ud800 alone"}')])
    assert _imported_step(tmp_path, path, capsys)["toolResult"] == "\U0001f600 and \ufffd alone"


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_arguments_holding_a_number_json_cannot_write_stay_text(tmp_path: Path, number: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    request = '{"method":"tools/call","params":{"name":"t","arguments":{"n":%s}}}' % number
    path = _trace(tmp_path, "logfire", "MCP request: tools/call t", [_attr("request", request)])
    payload = _imported_step(tmp_path, path, capsys)
    # not read as a tools/call request: the span stays a request step with its attribute as written
    assert payload["kind"] == "request"
    assert "toolArguments" not in payload
    assert payload["raw"]["otlp"]["attributes"]["request"] == request


def test_genai_arguments_holding_nan_stay_out_of_the_payload(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = _trace(tmp_path, "their-lib", "execute_tool t",
                  [_attr("gen_ai.tool.name", "t"), _attr("gen_ai.tool.call.arguments", '{"x":NaN,"y":1e400}')])
    payload = _imported_step(tmp_path, path, capsys)
    assert payload["toolName"] == "t"
    assert payload.get("toolArguments") in (None, {})


@pytest.mark.parametrize("number", ["18446744073709551616", "-9223372036854775808"])
def test_a_tool_call_with_a_whole_number_beyond_64_bits_comes_back_from_our_own_export(
        tmp_path: Path, number: str, capsys: pytest.CaptureFixture[str]) -> None:
    """An agent's tool call whose arguments or result hold an id beyond 64 bits: read as JSON, the number went
    into the step, our trace format's export wrote it, and its import stopped ("invalid JSON: a whole number too
    large to read (more than 64 bits)"). Kept as text for that, the arguments were then said to be unrecorded
    (the window: "The trace this step came from does not record its arguments."). The import reads such a file
    exactly now: the arguments are the call's, exactly, and come back from the export."""
    arguments, result = '{"id": %s, "q": "x"}' % number, '{"next": %s}' % number
    path = _trace(tmp_path, "their-lib", "execute_tool t",
                  [_attr("gen_ai.tool.name", "t"), _attr("gen_ai.tool.call.arguments", arguments),
                   _attr("gen_ai.tool.call.result", result)])
    payload = _imported_step(tmp_path, path, capsys)
    assert payload["toolArguments"] == {"id": int(number), "q": "x"}
    assert payload["raw"]["otlp"]["attributes"]["gen_ai.tool.call.arguments"] == arguments
    out = tmp_path / "again.trace.json"
    assert main(["export", "--all", "-o", str(out), "--db", str(tmp_path / "runs.db")]) == 0
    assert main(["import", str(out), "--db", str(tmp_path / "second.db")]) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["runs", "show", "1", "--json", "--db", str(tmp_path / "second.db")]) == 0
    again = _strict(capsys.readouterr().out)["timeline"][0]["payload"]
    assert again == payload


def _tool_span(span_id: str, parent: str, start: int) -> dict[str, Any]:
    return {"traceId": TRACE, "spanId": span_id, "parentSpanId": parent, "name": "execute_tool t", "kind": 3,
            "startTimeUnixNano": str(1700000000000000000 + start), "endTimeUnixNano": str(1700000001000000000 + start),
            "attributes": [_attr("gen_ai.tool.name", "t")], "status": {"code": 2, "message": "boom"}}


def test_failed_calls_whose_parents_go_round_are_counted_in_the_runs_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A span that is its own parent, and two spans each the other's parent (a hostile file): the span
    tree shows each cycle with a root, and the run's reason counts one call per cycle, not none."""
    spans = [_tool_span("000000000000000a", "000000000000000b", 0),
             _tool_span("000000000000000b", "000000000000000a", 1),
             _tool_span("000000000000000c", "000000000000000c", 2)]
    doc = {"resourceSpans": [{"resource": {"attributes": [_attr("service.name", "svc")]},
                              "scopeSpans": [{"scope": {"name": "their-lib"}, "spans": spans}]}]}
    path = tmp_path / "cycles.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    db = str(tmp_path / "runs.db")
    assert main(["--lang", "en", "import", str(path), "--db", db]) == 0
    capsys.readouterr()
    assert main(["--lang", "en", "runs", "show", "1", "--db", db]) == 0
    shown = capsys.readouterr().out
    assert "status failed (all 2 tool calls failed)" in shown, shown
    assert main(["--lang", "en", "runs", "list", "--db", db]) == 0
    assert "all 2 tool calls failed" in capsys.readouterr().out
