"""The house: what `make` does, and that benchmarks leave the repository and the user's data alone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def make_dry_run(target: str) -> list[str]:
    if shutil.which("make") is None:
        pytest.fail("make is needed: the README's two commands are make targets")
    done = subprocess.run(["make", "-n", "-B", target], capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_make_run_installs_the_runtime_dependencies_only() -> None:
    commands = make_dry_run("run")
    installs = [line for line in commands if "pip install" in line and "-e" in line]
    assert installs and all("[test]" not in line for line in installs)
    assert any(".runtime-stamp" in line for line in commands)  # its own stamp, not the test one


def test_make_test_lints_first_with_ruff() -> None:
    commands = make_dry_run("test")
    lint = next(i for i, line in enumerate(commands) if "ruff check" in line)
    suite = next(i for i, line in enumerate(commands) if "pytest" in line)
    assert lint < suite
    assert any("ruff check" in line for line in make_dry_run("lint"))


def test_make_bench_records_only_when_asked() -> None:
    assert not any("--record" in line for line in make_dry_run("bench"))
    assert any("run_all.py --record" in line for line in make_dry_run("bench-record"))


#: What a benchmark's processes keep their files by: the user's own before it starts.
USERS = {"RUN_INSPECTOR_DB": "/home/someone/.local/share/run-inspector/runs.db",
         "RUN_INSPECTOR_LOG": "/home/someone/.local/state/run-inspector/log/run-inspector.log",
         "RUN_INSPECTOR_SETTINGS": "/home/someone/.config/run-inspector/Run Inspector.ini",
         "XDG_CONFIG_HOME": "/home/someone/.config", "XDG_STATE_HOME": "/home/someone/.local/state"}


def _benchmark_settings(record: bool) -> tuple[Path, dict[str, str]]:
    env = {**os.environ, **USERS}
    env.pop("BENCH_RECORD", None)
    if record:
        env["BENCH_RECORD"] = "1"
    code = ("import json, os, sys; sys.path.insert(0, 'benchmarks'); import _common; print(_common.RESULTS_DIR); "
            f"print(json.dumps({{name: os.environ[name] for name in {[*USERS, 'PYTHON_KEYRING_BACKEND']}}}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    results, variables = done.stdout.splitlines()
    return Path(results), json.loads(variables)


def test_benchmarks_write_untracked_results_and_a_temporary_database() -> None:
    results, variables = _benchmark_settings(record=False)
    assert results == ROOT / "benchmarks" / "latest"
    ignored = subprocess.run(["git", "check-ignore", "-q", str(results / "run_all.json")], cwd=ROOT)
    assert ignored.returncode == 0, "benchmark results of an ordinary run must not be tracked"
    db = Path(variables.pop("RUN_INSPECTOR_DB"))
    assert not db.exists() and not db.parent.exists()  # removed again when the benchmark ended
    # Its settings and log too (an internal error went to the user's log), and it has no keyring.
    assert variables.pop("PYTHON_KEYRING_BACKEND") == "keyring.backends.fail.Keyring"
    assert all(Path(path).is_relative_to(db.parent) for path in variables.values()), variables
    recorded, _ = _benchmark_settings(record=True)
    assert recorded == ROOT / "benchmarks" / "results"
