"""``make conformance``: every client scenario of the official suite outside the skills extension
(``sep-2640-*``), sign-in (``auth/``) included, through the adapter (conformance/client.py), once
per protocol era the scenario belongs to (``--spec-version`` 2025-11-25 for the handshake era,
2026-07-28 for the stateless one; a scenario tagged with neither, such as an extension or the
2025-03-26 back-compatibility ones, runs once at the suite's default). Prints the suite's failed
checks per run and a table; a scenario counts as passed only when the suite's verdict is a pass
(no check failed or warned, the client neither timed out nor, where that matters, exited with an
error) and at least one check actually ran (all skipped is not a pass).

``run.py auth/ initialize`` (``make conformance CONFORMANCE_ONLY=auth/``) runs only the scenarios
whose names start so. The adapter replaces the browser (``BROWSER``) with
conformance/follow_redirect.py and gives each run a keyring of its own, so a sign-in never
reaches the user's keyring.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Absolute: the suite runs with this folder as its working directory (make passes a relative path).
TOOLS = Path(os.environ.get("CONFORMANCE_DIR", ROOT / ".conformance")).resolve()
BIN = TOOLS / "node_modules" / ".bin"
#: The revision that stands for each era when a scenario belongs to several.
ERAS = {"2025-11-25": "handshake", "2026-07-28": "stateless"}
#: Client scenarios left out (none now: the skills extension's run too, see conformance/client.py).
LEFT_OUT: tuple[str, ...] = ()
#: Extension scenarios (on no date's timeline) run in both eras anyway: ``--spec-version`` with
#: ``--force``, which the adapter turns into ``--era`` (conformance/client.py).
BOTH_ERAS = ("sep-2640-",)
#: The suite's verdict on a run, as it prints it.
OVERALL_FAILED = "OVERALL: FAILED"
#: What the suite says when the client (not a check) failed a run: the table names it.
CLIENT_TROUBLE = re.compile(r"CLIENT TIMED OUT|CLIENT EXITED WITH ERROR \(code -?\d+\)")


def client_scenarios(env: dict[str, str], only: tuple[str, ...] = ()) -> list[tuple[str, list[str]]]:
    """(name, the revisions it is tagged with) of every client scenario not left out (and, when
    ``only`` names prefixes, starting with one of them)."""
    listing = subprocess.run([str(BIN / "conformance"), "list"], capture_output=True, text=True, env=env,
                             check=True).stdout
    scenarios, in_clients = [], False
    for line in listing.splitlines():
        if line.startswith("Client scenarios"):
            in_clients = True
        elif line and not line.startswith(" "):
            in_clients = False
        elif in_clients and line.strip().startswith("- "):
            name, _, tags = line.strip()[2:].partition(" ")
            scenarios.append((name, re.findall(r"\d{4}-\d{2}-\d{2}", tags)))
    return [(name, tags) for name, tags in scenarios
            if not name.startswith(LEFT_OUT) and (not only or name.startswith(only))]


def run_one(env: dict[str, str], command: str, scenario: str, version: str | None) -> tuple[Counter[str], str, str]:
    """Run one scenario; the count of its checks by status, the suite's output and the client's stderr."""
    with tempfile.TemporaryDirectory() as results:
        argv = [str(BIN / "conformance"), "client", "--command", command, "--scenario", scenario, "-o", results]
        if version is not None:
            argv += ["--spec-version", version] + (["--force"] if scenario.startswith(BOTH_ERAS) else [])
        done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=TOOLS)
        statuses = count_checks(Path(results))
        client_said = client_stderr(Path(results))
    return statuses, done.stdout + done.stderr, client_said


def count_checks(results: Path) -> Counter[str]:
    """The checks the suite saved under ``results`` (``NAME-TIME/checks.json``, one folder deeper
    for a scenario named ``auth/NAME``), counted by status."""
    statuses: Counter[str] = Counter()
    for checks in results.rglob("checks.json"):
        for check in json.loads(checks.read_text()):
            statuses[str(check.get("status"))] += 1
    return statuses


def client_stderr(results: Path) -> str:
    """What the client wrote to its stderr in a run (the suite saves it beside ``checks.json``): the
    command lines the adapter ran and what each said when it failed."""
    return "".join(path.read_text(errors="replace") for path in sorted(results.rglob("stderr.txt")))


def changed_since(started_ns: int, folders: tuple[Path, ...] = (ROOT / "inspector", HERE)) -> list[Path]:
    """The Python files under ``folders`` written after ``started_ns`` (``time.time_ns()``): the client runs
    from this checkout, so a file changed during the run (a merge, a checkout, an edit) may fail the scenarios
    that ran meanwhile (a merge conflict's markers fail every command line at its import, exit code 1)."""
    return sorted(path for folder in folders for path in folder.rglob("*.py") if path.stat().st_mtime_ns > started_ns)


def verdict(statuses: Counter[str], output: str) -> tuple[bool, str]:
    """Whether a run passed, and what the suite said of the client when that failed it (a timeout,
    an exit with an error where the scenario does not allow one), else ``""``."""
    ran = statuses["SUCCESS"] + statuses["FAILURE"] + statuses["WARNING"]
    passed = ran > 0 and not statuses["FAILURE"] and not statuses["WARNING"] and OVERALL_FAILED not in output
    trouble = CLIENT_TROUBLE.search(output)
    return passed, trouble.group(0).lower() if trouble else ""


def main(argv: list[str]) -> int:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"  # the suite's own Node 22 first
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(HERE / 'client.py'))}"
    env["PYTHONPATH"] = f"{ROOT}{os.pathsep}{env.get('PYTHONPATH', '')}"
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, env=env).stdout.strip()
    suite = json.loads((TOOLS / "node_modules/@modelcontextprotocol/conformance/package.json").read_text())["version"]
    only = tuple(argv[1:])
    scenarios = client_scenarios(env, only)
    print(f"Conformance suite {suite}, Node {node}; {len(scenarios)} client scenarios"
          + (f" outside {' and '.join(LEFT_OUT)}" if LEFT_OUT else "")
          + (f" starting with {' or '.join(only)}" if only else ""))
    rows, failed = [], []
    started_ns = time.time_ns()
    for scenario, tags in scenarios:
        versions = [version for version in ERAS if version in tags] or (
            list(ERAS) if scenario.startswith(BOTH_ERAS) else [None])
        for version in versions:
            statuses, output, client_said = run_one(env, command, scenario, version)
            passed, trouble = verdict(statuses, output)
            era = ERAS.get(version or "", "(any)")
            rows.append((scenario, era, statuses, passed, trouble))
            if not passed:
                failed.append(f"{scenario} ({era})")
                tail = output[output.find("Failed Checks"):] if "Failed Checks" in output else output
                print(f"{scenario} ({era}):\n{tail[-3000:]}")
                if client_said.strip():
                    print(f"The client's stderr:\n{client_said[-3000:]}")
            print(f"{scenario} ({era}): {'passed' if passed else 'FAILED'}", file=sys.stderr, flush=True)
    print("\n| scenario | era | passed | failed | warned | skipped | verdict |\n|---|---|---|---|---|---|---|")
    for scenario, era, statuses, passed, trouble in rows:
        said = "passed" if passed else "FAILED" + (f" ({trouble})" if trouble else "")
        print(f"| {scenario} | {era} | {statuses['SUCCESS']} | {statuses['FAILURE']} | {statuses['WARNING']} | "
              f"{statuses['SKIPPED']} | {said} |")
    print(f"\n{len(rows) - len(failed)} of {len(rows)} scenario runs passed"
          + (f"; failed: {', '.join(failed)}." if failed else "."))
    changed = changed_since(started_ns)
    if changed:
        named = ", ".join(str(path.relative_to(ROOT)) for path in changed[:3])
        print(f"The client's code changed during the run ({named}{', …' if len(changed) > 3 else ''}): a scenario "
              "that ran meanwhile may have failed for that. Run again on a checkout nobody changes.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
