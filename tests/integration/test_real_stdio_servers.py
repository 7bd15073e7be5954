"""A real, published stdio server driven through McpClient: ``mcp-server-time`` (PyPI, a test
dependency), started as its users start it, from a command. Node-based servers are checked by hand
(see benchmarks/README.md), not here: the suite needs no Node."""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime

from inspector.mcp import McpClient, OperationRecorder, ServerEndpoint
from inspector.mcp.server_command import ServerCommand
from tests.support.processes import alive, legs


def time_server() -> ServerEndpoint:
    command = ServerCommand(sys.executable, ("-m", "mcp_server_time", "--local-timezone", "Europe/Berlin"))
    return ServerEndpoint.for_command(command, name="time")






def test_the_time_server_lists_its_tools_and_tells_the_time() -> None:
    async def scenario() -> None:
        client = McpClient()
        server = time_server()
        listing, calling = OperationRecorder(), OperationRecorder()
        try:
            catalogue = await client.list_tools(server, budget_s=60, observer=listing)
            pid = client.processes.pid(server.key)
            now = await client.call_tool(server, "get_current_time", {"timezone": "Asia/Tokyo"}, budget_s=10,
                                         observer=calling)
            assert pid is not None and client.processes.pid(server.key) == pid and alive(pid)
        finally:
            await client.close()
        assert not alive(pid)
        assert {tool["name"] for tool in catalogue.tools} == {"get_current_time", "convert_time"}
        # mcp-server-time is built on the SDK's 2.x line, which serves the stateless era: the default
        # era (auto) finds it with its probe, and the process keeps what the probe found.
        assert legs(listing) == [("start", "ok"), ("server/discover", "ok"), ("tools/list", "ok")]
        assert listing.finished is not None and listing.finished.era == "stateless"
        assert legs(calling) == [("tools/call", "ok")]  # the running process is reused
        assert not now.is_error
        told = json.loads(now.content)
        assert told["timezone"] == "Asia/Tokyo"
        assert datetime.fromisoformat(told["datetime"]).utcoffset().total_seconds() == 9 * 3600

    asyncio.run(scenario())


def test_the_time_server_converts_and_names_a_bad_zone_as_a_tool_error() -> None:
    async def scenario() -> tuple[dict, object]:
        client = McpClient()
        server = time_server()
        try:
            converted = await client.call_tool(server, "convert_time", {
                "source_timezone": "Europe/Berlin", "time": "16:30", "target_timezone": "America/New_York"},
                budget_s=60)
            unknown = await client.call_tool(server, "get_current_time", {"timezone": "Mars/Olympus_Mons"},
                                             budget_s=10)
        finally:
            await client.close()
        return json.loads(converted.content), unknown

    converted, unknown = asyncio.run(scenario())
    assert converted["source"]["datetime"].startswith(converted["target"]["datetime"][:10])
    assert converted["target"]["timezone"] == "America/New_York"
    assert converted["time_difference"] in ("-6.0h", "-5.0h")  # Berlin and New York, either side of DST shifts
    assert unknown.is_error and "Mars/Olympus_Mons" in unknown.content
