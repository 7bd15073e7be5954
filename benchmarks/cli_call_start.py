"""Start-up of the operation commands: what ``call``, ``tools`` and ``ping`` cost as whole processes.

The demo server (``python -m inspector serve-demo``) is started once, in its own process, on a
loopback port. Then each command runs as a new process, as a user or a script starts it:

* **import time per command**: ``-X importtime`` of the command against the demo server, summed
  over every module it loaded (``--no-store``), and how many modules that was; a few runs, median;
* **a whole-process call**: ``call URL echo --args '{"text":"x"}'`` with ``--no-store`` and stored
  (a temporary database), wall time from spawn to exit and the child's CPU time (user + system),
  ``RUNS`` runs after one warm-up; median and p90. The same for ``tools URL`` (stored), and for
  ``scenario happy-path``, against the running demo server (``--server URL``) and with the demo
  server it starts for itself (in a thread of its own process: the official SDK loads, most of
  its time), in a temporary database.

Target (issue 22): a whole ``call`` at most half the official Inspector CLI's time on the same
machine. With ``--inspector-cli PATH`` (its ``mcp-inspector`` launcher from the npm package
``@modelcontextprotocol/inspector``, with a ``node`` on ``PATH``) the same call is made with it,
alternating with ours, and the ratio is printed.

Python runs with its bytecode cache on (``PYTHONDONTWRITEBYTECODE`` is dropped for the children), as
an installed application does: compiling every module on each start is not what users pay.

Run: ``.venv/bin/python benchmarks/cli_call_start.py [--runs N] [--inspector-cli PATH]``
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO_ROOT, summary, table, write_result  # noqa: E402

NAME = "cli_call_start"
RUNS = 12
IMPORT_RUNS = 3
ARGS = '{"text": "x"}'


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _commands(url: str) -> dict[str, list[str]]:
    return {"call": ["call", url, "echo", "--args", ARGS], "tools": ["tools", url], "ping": ["ping", url]}


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, env=env, cwd=str(REPO_ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _imports(words: list[str], env: dict[str, str]) -> tuple[float, int, bool]:
    """Seconds spent importing (the sum of the top-level modules' cumulative times), how many
    modules, and whether the store (the run database's code) was among them."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "inspector", *words], env=env,
                          cwd=str(REPO_ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          check=True)
    lines = [line for line in done.stderr.splitlines() if line.startswith("import time:") and "|" in line]
    rows = [line.split("|") for line in lines[1:]]  # the first is the header
    top = sum(int(row[1]) for row in rows if not row[2].startswith("  "))  # depth 0: cumulative covers the rest
    names = [row[2].strip() for row in rows]
    return top / 1e6, len(names), "inspector.store.run_store" in names


def _demo_server(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([sys.executable, "-m", "inspector", "serve-demo", "--port", "0"], env=env,
                               cwd=str(REPO_ROOT), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    first = process.stdout.readline()
    if "listening at " not in first:
        process.kill()
        raise RuntimeError(f"the demo server did not start: {first!r}")
    return process, first.rsplit(" ", 1)[1].strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--inspector-cli", metavar="PATH", help="the official Inspector's mcp-inspector launcher")
    args = parser.parse_args()
    env = {**_environment(), "PYTHONUNBUFFERED": "1"}
    server, url = _demo_server(env)
    try:
        imports: dict[str, dict[str, object]] = {}
        for label, words in _commands(url).items():
            samples = [_imports([*words, "--no-store"], env) for _ in range(IMPORT_RUNS)]
            imports[label] = {"import_s": summary([s[0] for s in samples]), "modules": samples[0][1],
                              "store": samples[0][2]}
        contenders = {label: [sys.executable, "-m", "inspector", *_commands(url)["call"], *extra]
                      for label, extra in (("call --no-store", ["--no-store"]), ("call (stored)", []))}
        scratch = tempfile.TemporaryDirectory()
        db = ["--db", str(Path(scratch.name) / "runs.db")]
        contenders["tools (stored)"] = [sys.executable, "-m", "inspector", "tools", url, *db]
        contenders["scenario --server"] = [sys.executable, "-m", "inspector", "scenario", "happy-path", "--server",
                                           url, *db]
        contenders["scenario (its demo server)"] = [sys.executable, "-m", "inspector", "scenario", "happy-path", *db]
        if args.inspector_cli:
            contenders["official Inspector CLI"] = [args.inspector_cli, "--cli", url, "--transport", "http",
                                                    "--method", "tools/call", "--tool-name", "echo",
                                                    "--tool-arg", "text=x"]
        for argv in contenders.values():
            _timed(argv, env)  # warm-up: the file cache, the database made once
        samples: dict[str, list[tuple[float, float]]] = {label: [] for label in contenders}
        for _ in range(args.runs):  # alternating, so that a busy moment of the machine hits each alike
            for label, argv in contenders.items():
                samples[label].append(_timed(argv, env))
        calls: dict[str, dict[str, object]] = {
            label: {"wall_s": summary([s[0] for s in runs]), "cpu_s": summary([s[1] for s in runs])}
            for label, runs in samples.items()}
        scratch.cleanup()
    finally:
        server.kill()
        server.communicate(timeout=15)
    print(table(["command (--no-store)", "import s (median)", "modules", "store loaded"],
                [(label, f"{r['import_s']['median']:.3f}", r["modules"], "yes" if r["store"] else "no")
                 for label, r in imports.items()]))  # type: ignore[index]
    print()
    print(table(["whole process", "wall median s", "wall p90 s", "CPU median s", "CPU p90 s"],
                [(label, f"{r['wall_s']['median']:.3f}", f"{r['wall_s']['p90']:.3f}",  # type: ignore[index]
                  f"{r['cpu_s']['median']:.3f}", f"{r['cpu_s']['p90']:.3f}")  # type: ignore[index]
                 for label, r in calls.items()]))
    result: dict[str, object] = {"runs": args.runs, "import_runs": IMPORT_RUNS, "imports": imports, "calls": calls}
    if args.inspector_cli:
        theirs = calls["official Inspector CLI"]["wall_s"]["median"]  # type: ignore[index]
        ratios = {label: calls[label]["wall_s"]["median"] / theirs  # type: ignore[index]
                  for label in ("call --no-store", "call (stored)")}
        result["ratio_to_official_cli"] = ratios
        print()
        print(", ".join(f"{label}: {ratio:.2f}x the official Inspector CLI's wall time (goal <= 0.5)"
                        for label, ratio in ratios.items()))
    print(write_result(NAME, result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
