"""A run database made writable again after it was opened read-only: SQLite had made its ``-wal`` and
``-shm`` files read-only beside it (with the file's permission bits), and every write still failed.
The permissions are real; root, which passes them, runs the commands without that power."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

from tests.integration.test_damaged_database import filled_database
from tests.support.cli_process import BOUND_BY_PERMISSIONS

ROOT = Path(__file__).resolve().parents[2]
TRACE = ROOT / "tests" / "fixtures" / "otel" / "fastmcp.jsonl"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BOUND_BY_PERMISSIONS, sys.executable, "-m", "inspector", *args, "--lang", "en"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)


def test_a_database_made_writable_again_takes_an_import(tmp_path: Path) -> None:
    path = filled_database(tmp_path / "runs.db", runs=1)
    path.chmod(0o444)
    refused = cli("import", str(TRACE), "--db", str(path))
    assert refused.returncode == 1 and "Nothing was imported" in refused.stderr, refused.stderr
    left = [Path(f"{path}{suffix}") for suffix in ("-wal", "-shm")]
    assert all(stat.S_IMODE(file.stat().st_mode) == 0o444 for file in left)  # SQLite's, as it makes them
    path.chmod(0o640)
    done = cli("import", str(TRACE), "--db", str(path))
    assert done.returncode == 0 and done.stderr == "" and "Imported 1 run" in done.stdout, done.stderr
    listed = cli("runs", "list", "--db", str(path))
    assert "call echo 0" in listed.stdout and "invoke_agent" in listed.stdout
