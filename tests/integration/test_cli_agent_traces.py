"""Real agents' traces through the real command line: ``run-inspector import FILE`` into a temporary
database, read back with ``runs show --json`` (the fixtures were recorded by make_traces.py)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_process import cli_here

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "otel"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return cli_here(*args)  # in this process: what it says is the point, not its process


def imported_agent_run(tmp_path: Path, fixture: str) -> list[dict[str, Any]]:
    db = str(tmp_path / "runs.db")
    done = cli("import", str(FIXTURES / fixture), "--db", db)
    assert done.returncode == 0, done.stderr
    runs = json.loads(cli("runs", "list", "--json", "--db", db).stdout)
    listed = runs["runs"] if isinstance(runs, dict) else runs
    (run,) = [run for run in listed if run["title"] == "invoke_agent support-agent"]
    shown = cli("runs", "show", str(run["id"]), "--json", "--db", db)
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)["timeline"]


@pytest.mark.parametrize("fixture", ["mcp_sdk.jsonl", "traceloop.jsonl"])
def test_an_imported_agent_trace_reads_back_with_both_sides_and_its_time_out(tmp_path: Path, fixture: str) -> None:
    timeline = imported_agent_run(tmp_path, fixture)
    tools = {}
    for entry in timeline:
        if entry["kind"] == "tool":
            tools.setdefault(entry["payload"]["toolName"], []).append(entry)
    (lookup,) = tools["lookup"]
    assert lookup["outcome"] == "ok" and "server" in lookup["payload"]["raw"]["otlp"]
    assert lookup["payload"]["raw"]["otlp"]["server"]["service"] == "weather-mcp-server"
    given_up = tools["slow"][0]
    assert given_up["outcome"] == "failed" and given_up["payload"]["raw"]["otlp"]["timedOut"] is True
    # Its exception names the time-out, said once: "slow: TimeoutError", "slow: …McpError: Timed out while waiting …"
    assert given_up["details"].startswith(("slow: TimeoutError", "slow: mcp.shared.exceptions.McpError: Timed out "))
    assert re.search(r"the client gave up after \d+ ms \(.*\); the server .* after \d+ ms",
                     given_up["payload"]["toolResult"])
    assert given_up["payload"]["raw"]["otlp"]["events"][0]["name"] == "exception"
    assert tools["fail"][0]["outcome"] == "failed"
    resource = lookup["payload"]["raw"]["otlp"]["resource"]["attributes"]
    assert resource["service.name"] == "support-agent" and resource["fixture.flavour"] == fixture.split(".")[0]
