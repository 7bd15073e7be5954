"""The conformance suite's client adapter: a scenario becomes ``run-inspector`` command lines.

The official MCP conformance suite (``@modelcontextprotocol/conformance``) starts a test server
per client scenario, sets ``MCP_CONFORMANCE_SCENARIO`` and appends the server's URL as the last
argument. This script only maps the scenario to the command lines a user would type and runs
them; all the protocol work is the command line's own.
"""

from __future__ import annotations

import os
import subprocess
import sys

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
    "http-invalid-tool-headers": [["tools", "{url}"], ["call", "{url}", "valid_tool", "--args", '{"region": "us-west1"}']],
}
#: What every command line gets: no run stored in the user's database, a generous budget.
COMMON = ["--no-store", "--budget", "20"]


def command_lines(scenario: str, url: str) -> list[list[str]]:
    """The ``run-inspector`` arguments for a scenario (a catalogue walk for one not known here)."""
    lines = SCENARIOS.get(scenario, [["tools", "{url}"]])
    return [[part.replace("{url}", url) for part in line] + COMMON for line in lines]


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: client.py SERVER_URL (with MCP_CONFORMANCE_SCENARIO set)", file=sys.stderr)
        return 2
    scenario, url = os.environ.get("MCP_CONFORMANCE_SCENARIO", ""), argv[-1]
    status = 0
    for line in command_lines(scenario, url):
        print("run-inspector " + " ".join(line), file=sys.stderr, flush=True)
        done = subprocess.run([sys.executable, "-m", "inspector", *line], check=False)
        status = status or done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
