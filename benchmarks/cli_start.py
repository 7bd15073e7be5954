"""Start-up of the command line: how long a command takes when it has (almost) nothing to do.

Each command runs as a new process (``python -m inspector ...``) against an empty database in a
temporary folder, as a user or a script starts it; the wall time from spawn to exit is measured
(``perf_counter``), 15 runs per command after one warm-up run, and the modules the command
imported are counted (``-X importtime``, one more run). Commands: ``--help``, ``runs list``,
``servers`` and ``call --help`` (the operation commands' grammar, without an operation); then, on
a database holding one run (a ``scenario happy-path``, made once), ``runs show 1``, ``export 1``
and ``import FILE`` (that run's file again: found there already, nothing stored).

Target: ``runs list`` at most 0.45 s median: a command imports only what it uses (the MCP client
and the HTTP library are not loaded to list runs).

Run: ``.venv/bin/python benchmarks/cli_start.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO_ROOT, summary, table, verdict, write_result  # noqa: E402

NAME = "cli_start"
RUNS = 15
TARGET_S = 0.45
COMMANDS = {"--help": ["--help"], "runs list": ["runs", "list"], "servers": ["servers"],
            "call --help": ["call", "--help"]}
#: On a database holding one run; FILE and OUT are the trace file it was exported to, and another.
STORED_COMMANDS = {"runs show 1": ["runs", "show", "1"], "export 1": ["export", "1", "-o", "OUT"],
                   "import FILE": ["import", "FILE"]}


def _argv(words: list[str], db: str) -> list[str]:
    with_db = words if words[-1] == "--help" else [*words, "--db", db]
    return [sys.executable, "-m", "inspector", *with_db]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _stored(folder: Path, env: dict[str, str]) -> tuple[str, dict[str, str]]:
    """A database with one run, and the words FILE and OUT stand for."""
    db, trace = str(folder / "stored.db"), str(folder / "run.json")
    for words in (["scenario", "happy-path"], ["export", "1", "-o", trace]):
        subprocess.run([sys.executable, "-m", "inspector", *words, "--db", db], env=env, cwd=str(REPO_ROOT),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return db, {"FILE": trace, "OUT": str(folder / "out.json")}


def _timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, env=env, cwd=str(REPO_ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - started


def _imports(argv: list[str], env: dict[str, str]) -> tuple[int, bool]:
    """How many modules the command imports, and whether httpx is among them."""
    done = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], env=env, cwd=str(REPO_ROOT),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    names = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    return len(names), "httpx" in names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    env = _environment()
    results: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "runs.db")
        stored_db, files = _stored(Path(folder), env)
        commands = [(label, _argv(words, db)) for label, words in COMMANDS.items()]
        commands += [(label, _argv([files.get(word, word) for word in words], stored_db))
                     for label, words in STORED_COMMANDS.items()]
        for label, argv in commands:
            _timed(argv, env)  # warm-up: the file cache, the database made once
            times = [_timed(argv, env) for _ in range(args.runs)]
            modules, httpx_loaded = _imports(argv, env)
            results[label] = {"seconds": summary(times), "modules": modules, "httpx": httpx_loaded}
    rows = []
    for label, result in results.items():
        seconds = result["seconds"]
        assert isinstance(seconds, dict)
        rows.append((label, f"{seconds['median']:.3f}", f"{seconds['p90']:.3f}", result["modules"],
                     "yes" if result["httpx"] else "no"))
    print(table(["command", "median s", "p90 s", "modules", "httpx"], rows))
    listed = results["runs list"]["seconds"]
    assert isinstance(listed, dict)
    runs_list = listed["median"]
    ok = runs_list <= TARGET_S and not results["runs list"]["httpx"]
    print(f"runs list: {runs_list:.3f} s median (target <= {TARGET_S} s, no httpx): {verdict(ok)}")
    print(write_result(NAME, {"runs": args.runs, "target_s": TARGET_S, "commands": results, "ok": ok}))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
