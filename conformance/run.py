"""``make conformance``: every client scenario of the official suite outside ``auth/``, through
the adapter (conformance/client.py); prints one line per scenario and a summary."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TOOLS = ROOT / ".conformance"
BIN = TOOLS / "node_modules" / ".bin"


def client_scenarios(env: dict[str, str]) -> list[str]:
    listing = subprocess.run([str(BIN / "conformance"), "list"], capture_output=True, text=True, env=env,
                             check=True).stdout
    scenarios, in_clients = [], False
    for line in listing.splitlines():
        if line.startswith("Client scenarios"):
            in_clients = True
        elif line and not line.startswith(" "):
            in_clients = False
        elif in_clients and line.strip().startswith("- "):
            scenarios.append(line.strip()[2:].split(" ")[0])
    return [name for name in scenarios if not name.startswith("auth/")]


def main() -> int:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"  # the suite's own Node 22 first
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(HERE / 'client.py'))}"
    env["PYTHONPATH"] = f"{ROOT}{os.pathsep}{env.get('PYTHONPATH', '')}"
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, env=env).stdout.strip()
    scenarios = client_scenarios(env)
    print(f"Node {node}; {len(scenarios)} client scenarios outside auth/: {', '.join(scenarios)}")
    failed = []
    for scenario in scenarios:
        done = subprocess.run([str(BIN / "conformance"), "client", "--command", command, "--scenario", scenario],
                              capture_output=True, text=True, env=env, cwd=TOOLS)
        # The suite's summary: "Passed: 6/6, 0 failed, 0 warnings", then the failed checks.
        output = done.stdout + done.stderr
        summary = re.search(r"Passed: (\d+)/(\d+), (\d+) failed, (\d+) warnings", output)
        passed, total, failures, warnings = (int(n) for n in summary.groups()) if summary else (0, 0, 0, 0)
        verdict = "passed" if done.returncode == 0 and summary and not failures and not warnings else "FAILED"
        print(f"{scenario}: {verdict} ({passed} of {total} checks passed, {failures} failed, {warnings} warned)")
        if verdict != "passed":
            failed.append(scenario)
            tail = output[output.find("Failed Checks"):] if "Failed Checks" in output else output
            print(tail[-3000:])
    print(f"{len(scenarios) - len(failed)} of {len(scenarios)} scenarios passed.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
