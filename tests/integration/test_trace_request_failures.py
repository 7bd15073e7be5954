"""`runs show` of steps read from a trace, in English and German. A request (``initialize``,
``tools/list``: a kind without an outcome column of its own) that failed says so beside its name; one
that ended well says nothing more. A call whose client and server sides disagree says so under its
row, as the window's band does. Files written as the mcp SDK writes its spans, and its own trace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

ROOT = Path(__file__).resolve().parents[2]
TRACE = "ab" * 16


def _text(key: str, value: str) -> dict:
    return {"key": key, "value": {"stringValue": value}}


def _side(span_id: str, name: str, method: str, request_id: str, start_ms: int, end_ms: int, *, parent: str = "",
          kind: int = 3, error: str | None = None) -> dict:
    attributes = [_text("mcp.method.name", method), _text("jsonrpc.request.id", request_id)]
    span = {"traceId": TRACE, "spanId": span_id, "name": name, "kind": kind,
            "startTimeUnixNano": str(1_700_000_000_000_000_000 + start_ms * 1_000_000),
            "endTimeUnixNano": str(1_700_000_000_000_000_000 + end_ms * 1_000_000), "attributes": attributes}
    if parent:
        span["parentSpanId"] = parent
    if error:
        attributes.append(_text("error.type", "-32601"))
        span["status"] = {"code": 2, "message": error}
    return span


def failing_request_trace(path: Path) -> Path:
    """An agent's initialize (ended well) and tools/list (the server does not know the method),
    each with the server's side under it."""
    client = [_side("11" * 8, "MCP send initialize", "initialize", "1", 0, 10),
              _side("22" * 8, "MCP send tools/list", "tools/list", "2", 20, 40, error="Method not found")]
    server = [_side("33" * 8, "initialize", "initialize", "1", 2, 3, parent="11" * 8, kind=2),
              _side("44" * 8, "tools/list", "tools/list", "2", 25, 26, parent="22" * 8, kind=2,
                    error="Method not found")]
    path.write_text(json.dumps({"resourceSpans": [
        {"resource": {"attributes": [_text("service.name", "agent")]},
         "scopeSpans": [{"scope": {"name": "mcp-python-sdk"}, "spans": client}]},
        {"resource": {"attributes": [_text("service.name", "weather")]},
         "scopeSpans": [{"scope": {"name": "mcp-python-sdk"}, "spans": server}]}]}))
    return path


@pytest.mark.parametrize(("language", "failed"), [("en", "MCP send tools/list: failed: Method not found"),
                                                   ("de", "MCP send tools/list: fehlgeschlagen: Method not found")])
def test_runs_show_says_a_failed_request_beside_its_name(tmp_path: Path, language: str, failed: str) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("import", str(failing_request_trace(tmp_path / "trace.jsonl")), "--db", db).returncode == 0
    shown = cli_here("runs", "show", "last", "--lang", language, "--db", db)
    assert shown.returncode == 0, shown.stderr
    rows = [line for line in shown.stdout.splitlines() if line[:1].isdigit()]
    assert rows[0].endswith("MCP send initialize")  # ended well: its name alone
    assert rows[1].endswith(failed)
    # What machines read stays English.
    entries = json.loads(cli_here("runs", "show", "last", "--json", "--lang", language, "--db", db).stdout)["timeline"]
    assert entries[1]["details"] == "MCP send tools/list: failed: Method not found"


@pytest.mark.parametrize(("language", "said"), [
    ("en", "The two sides disagree: the client gave up after 504 ms; the server ended with no "
           "error recorded after 508 ms"),
    ("de", "Die beiden Seiten widersprechen sich: der Client gab nach 504 ms auf; der Server endete "
           "nach 508 ms ohne aufgezeichneten Fehler")])
def test_runs_show_says_where_a_calls_two_sides_disagree_as_the_window_does(tmp_path: Path, language: str,
                                                                            said: str) -> None:
    """The mcp SDK's own trace (tests/fixtures/otel/): the call the client gave up on has the sentence
    under its row; the call whose sides agree has none."""
    db = str(tmp_path / "runs.db")
    assert cli_here("import", str(ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl"), "--db", db).returncode == 0
    shown = cli_here("runs", "show", "1", "--lang", language, "--db", db)
    lines = shown.stdout.splitlines()
    given_up = next(index for index, line in enumerate(lines) if line.startswith("5 "))
    assert lines[given_up + 1] == "    " + said
    # The exception is said once, in the row; the sentence under it says only when each side ended.
    assert lines[given_up].endswith(": TimeoutError") and "TimeoutError" not in lines[given_up + 1]
    agreed = next(index for index, line in enumerate(lines) if line.startswith("3 "))
    assert lines[agreed + 1].startswith("4 ")


def unfinished_trace(path: Path) -> Path:
    """A root span that ended and, under it, a request and a tool call whose spans never ended."""
    tool = [_text("gen_ai.operation.name", "execute_tool"), _text("gen_ai.tool.name", "search")]
    spans = [{"traceId": TRACE, "spanId": "a1" * 8, "name": "agent", "kind": 1, "attributes": [],
              "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000002000000000"},
             {"traceId": TRACE, "spanId": "b2" * 8, "parentSpanId": "a1" * 8, "name": "child op", "kind": 1,
              "attributes": [], "startTimeUnixNano": "1700000000100000000"},
             {"traceId": TRACE, "spanId": "c3" * 8, "parentSpanId": "a1" * 8, "name": "execute_tool search",
              "kind": 1, "attributes": tool, "startTimeUnixNano": "1700000000200000000"}]
    path.write_text(json.dumps({"resourceSpans": [{
        "resource": {"attributes": [_text("service.name", "agent")]},
        "scopeSpans": [{"scope": {"name": "their-lib"}, "spans": spans}]}]}))
    return path


@pytest.mark.parametrize(("language", "unfinished", "note"), [
    ("en", "unfinished", "unfinished: the span has no end time"),
    ("de", "unbeendet", "unbeendet: der Span hat keine Endzeit")])
def test_runs_show_says_a_span_that_never_ended_is_unfinished(tmp_path: Path, language: str, unfinished: str,
                                                              note: str) -> None:
    """Its duration column says "unfinished" as the window's does (its stored 0 ms is no length), and
    the importer's note is said in the reader's language; --json keeps the English."""
    db = str(tmp_path / "runs.db")
    assert cli_here("import", str(unfinished_trace(tmp_path / "trace.json")), "--db", db).returncode == 0
    shown = cli_here("runs", "show", "last", "--lang", language, "--db", db)
    rows = {line.split()[0]: line for line in shown.stdout.splitlines() if line[:1].isdigit()}
    for sequence in ("2", "3"):
        assert f"  {unfinished}  " in rows[sequence] and " 0 s " not in rows[sequence] and note in rows[sequence]
    assert f"  {unfinished}  " not in rows["1"]
    entries = json.loads(cli_here("runs", "show", "last", "--json", "--lang", language, "--db", db).stdout)["timeline"]
    assert entries[1]["duration_ms"] == 0 and "unfinished: the span has no end time" in entries[1]["details"]
