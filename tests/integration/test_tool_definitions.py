"""`run-inspector tools`: each tool exactly as the server sent it, and the excluded tools apart."""

from __future__ import annotations

import argparse
import io
import json
from contextlib import redirect_stdout
from types import SimpleNamespace

from inspector.cli.operations import build_report, print_report
from inspector.mcp import OperationRecorder, ServerEndpoint
from inspector.mcp.param_headers import split_catalogue
from inspector.mcp.results import ToolCatalogue
from tests.support.cli_process import cli_here
from tests.support.fault_server import Exchange, FaultServer

#: A tool with every field the 2025-11-25 and 2026-07-28 revisions give one, and one of its own.
RICH_TOOL = {
    "name": "get_weather",
    "title": "Weather",
    "description": "The weather at a place.",
    "icons": [{"src": "https://example.com/sun.png", "mimeType": "image/png", "sizes": ["48x48"]}],
    "annotations": {"readOnlyHint": True, "openWorldHint": False, "title": "Weather (read only)"},
    "inputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                    "$defs": {"place": {"type": "string", "$anchor": "place"}},
                    "properties": {"place": {"$ref": "#/$defs/place"}}, "required": ["place"],
                    "additionalProperties": False},
    "outputSchema": {"type": "object", "properties": {"celsius": {"type": "number", "minimum": -90}},
                     "required": ["celsius"]},
    "execution": {"taskSupport": "optional"},
    "_meta": {"example.com/owner": "team-weather"},
    "x-vendor-extension": {"kept": [1, 2, 3]},
}


def catalogue_work(exchange: Exchange) -> None:
    if exchange.request.rpc_method == "tools/list":
        exchange.send_result({"tools": [RICH_TOOL, {"name": "bare", "inputSchema": {"type": "object"}}]})
    else:
        exchange.send_result({})


def test_tools_json_keeps_every_field_the_server_sent_under_its_own_name() -> None:
    with FaultServer("stateless", work=catalogue_work) as server:
        done = cli_here("tools", server.url, "--json", "--no-store")  # what it says, not its process
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["tools"] == [RICH_TOOL, {"name": "bare", "inputSchema": {"type": "object"}}]
    assert report["excluded_tools"] == []


def _report(catalogue: ToolCatalogue) -> dict:
    step = SimpleNamespace(server_requests=(), server_notifications=(), progress=(), progress_dropped=0,
                           transport="http", era="stateless", server_command=None, stderr=(), stderr_dropped=0,
                           line_problems=(), to_payload=lambda: {"transport": "http", "legs": []})
    record = SimpleNamespace(error=None, result=catalogue, status="ok", server_told_to_stop=None, step=step)
    server = ServerEndpoint("http://127.0.0.1:9/mcp")
    report = build_report("tools/list", server, argparse.Namespace(), OperationRecorder(), record, None)
    report["budget_s"] = 5
    return report


def _catalogue() -> ToolCatalogue:
    tools = [{"name": "valid_tool", "inputSchema": {"type": "object", "properties": {
                 "region": {"type": "string", "x-mcp-header": "Region"}}}},
             {"name": "invalid_number_header", "inputSchema": {"type": "object", "properties": {
                 "score": {"type": "number", "x-mcp-header": "Score"}}}}]
    valid, excluded = split_catalogue(tools)
    return ToolCatalogue(valid, 1, excluded)


def test_excluded_tools_are_listed_apart_with_their_reason_in_json_and_readable_output() -> None:
    catalogue = _catalogue()
    report = _report(catalogue)
    assert [tool["name"] for tool in report["tools"]] == ["valid_tool"]
    assert [entry["tool"]["name"] for entry in report["excluded_tools"]] == ["invalid_number_header"]
    assert "of type number" in report["excluded_tools"][0]["reason"]
    assert report["excluded_tools"][0]["tool"]["inputSchema"]["properties"]["score"]["x-mcp-header"] == "Score"
    out = io.StringIO()
    with redirect_stdout(out):
        print_report(report, False, excluded=catalogue.excluded)
    lines = out.getvalue().splitlines()
    heading = lines.index("1 tool in 1 page:")
    assert lines[heading + 1].strip() == "valid_tool"
    later = lines.index("1 more tool was listed by the server but cannot be called:")
    assert later > heading
    assert lines[later + 1].startswith("  invalid_number_header (excluded): The x-mcp-header annotation \"Score\"")
    out = io.StringIO()
    with redirect_stdout(out):
        print_report(report, True)
    assert json.loads(out.getvalue())["excluded_tools"] == report["excluded_tools"]
