"""The conformance suite's client adapter: a scenario becomes ``run-inspector`` command lines.

The official MCP conformance suite (``@modelcontextprotocol/conformance``) starts a test server
per client scenario, sets ``MCP_CONFORMANCE_SCENARIO`` and appends the server's URL as the last
argument. This script only maps the scenario to the command lines a user would type and runs
them; all the protocol work is the command line's own.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable

#: Each scenario's command lines; ``{url}`` is the test server's address.
SCENARIOS: dict[str, list[list[str]]] = {
    "initialize": [["tools", "{url}"]],
    "tools_call": [["call", "{url}", "add_numbers", "--args", '{"a": 5, "b": 3}']],
    "elicitation-sep1034-client-defaults": [["call", "{url}", "test_client_elicitation_defaults",
                                            "--elicit", "defaults"]],
    "sse-retry": [["call", "{url}", "test_reconnection"]],
    # The stateless era (2026-07-28): multi round-trip requests, the standard and custom headers.
    "sep-2322-client-request-state": [
        ["call", "{url}", "test_mrtr_echo_state", "--elicit", "defaults"],
        ["call", "{url}", "test_mrtr_unrelated"],
        ["call", "{url}", "test_mrtr_no_state", "--elicit", "defaults"],
        ["call", "{url}", "test_mrtr_no_result_type"],
    ],
    "http-standard-headers": [["tools", "{url}"], ["call", "{url}", "test_headers"],
                              ["call", "{url}", "my-hyphenated-tool"]],
    "http-custom-headers": [
        ["call", "{url}", "test_custom_headers", "--args", json.dumps({
            "region": "us-west1", "priority": 42, "verbose": True, "debug": False, "empty_val": "",
            "method_val": "tools/call", "float_val": 2.5, "non_ascii_val": "Zürich – 東京",
            "whitespace_val": "  padded  ", "leading_space_val": " lead", "trailing_space_val": "trail ",
            "internal_space_val": "a b c", "control_char_val": "bell\u0007", "crlf_val": "one\r\ntwo",
            "tab_val": "\ttabbed", "query": "not mirrored"})],
        ["call", "{url}", "test_custom_headers_null", "--args",
         json.dumps({"region": "eu", "priority": 1, "verbose": None, "query": "q"})],
    ],
    "http-invalid-tool-headers": [["tools", "{url}"],
                                  ["call", "{url}", "valid_tool", "--args", '{"region": "us-west1"}']],
    # Echo one tool's input schema back through another, as a user would copy it out of
    # `run-inspector tools --json`: what the catalogue kept is what is sent.
    "json-schema-2020-12-preservation": [["call", "{url}", "json_schema_echo", "--args",
                                          '{"schema": {inputSchema:json_schema_2020_12_tool}}']],
}
#: ``{inputSchema:TOOL}`` in a command line: that tool's ``inputSchema`` from ``tools --json``.
SCHEMA_OF = re.compile(r"\{inputSchema:([^{}]+)\}")
#: What every command line gets: no run stored in the user's database, a generous budget.
COMMON = ["--no-store", "--budget", "20"]


def command_lines(scenario: str, url: str) -> list[list[str]]:
    """The ``run-inspector`` arguments for a scenario (a catalogue walk for one not known here)."""
    lines = SCENARIOS.get(scenario, [["tools", "{url}"]])
    return [[part.replace("{url}", url) for part in line] + COMMON for line in lines]


def fill_schemas(line: list[str], catalogue: Callable[[], list[dict]]) -> list[str]:
    """``line`` with each ``{inputSchema:TOOL}`` replaced by the JSON of that tool's input schema
    (``catalogue`` gives the tools as ``tools --json`` prints them; asked only when needed)."""
    def schema(match: re.Match[str]) -> str:
        tool = next((tool for tool in catalogue() if tool.get("name") == match.group(1)), {})
        return json.dumps(tool.get("inputSchema"))

    return [SCHEMA_OF.sub(schema, part) for part in line]


def listed_tools(url: str) -> list[dict]:
    """The server's tools, as ``run-inspector tools --json`` prints them."""
    done = subprocess.run([sys.executable, "-m", "inspector", "tools", url, "--json", *COMMON],
                          check=False, capture_output=True, text=True)
    try:
        return json.loads(done.stdout).get("tools") or []
    except ValueError:
        return []


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: client.py SERVER_URL (with MCP_CONFORMANCE_SCENARIO set)", file=sys.stderr)
        return 2
    scenario, url = os.environ.get("MCP_CONFORMANCE_SCENARIO", ""), argv[-1]
    status = 0
    tools: list[list[dict]] = []

    def catalogue() -> list[dict]:
        if not tools:
            tools.append(listed_tools(url))
        return tools[0]

    for line in command_lines(scenario, url):
        line = fill_schemas(line, catalogue)
        print("run-inspector " + " ".join(line), file=sys.stderr, flush=True)
        done = subprocess.run([sys.executable, "-m", "inspector", *line], check=False)
        status = status or done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
