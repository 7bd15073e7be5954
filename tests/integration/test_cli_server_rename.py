"""`servers set URL_OR_NAME --name NEW`: a configured server is found by its name as by its address,
for an address and for a command server, and `servers` (and --json) list it renamed, its settings kept."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from inspector.demo import DemoServer
from tests.support.cli_process import cli_here
from tests.support.fault_server import FaultServer

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return cli_here(*args)  # in this process: what it says is the point, not its process


def listed(db: Path) -> list[dict]:
    done = cli("servers", "--json", "--db", str(db))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["servers"]


def test_an_address_server_is_renamed_by_its_name(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with DemoServer() as demo:
        assert cli("servers", "set", demo.url, "--name", "Demo", "--budget", "7", "--db", str(db)).returncode == 0
        renamed = cli("servers", "set", "Demo", "--name", "Demo two", "--db", str(db))
        assert renamed.returncode == 0, renamed.stderr
        assert renamed.stdout.strip() == f"Saved {demo.url}."
        (server,) = listed(db)
        assert (server["url"], server["name"], server["budget_s"]) == (demo.url, "Demo two", 7.0)
        table = cli("servers", "--db", str(db)).stdout
        assert "Demo two" in table
        # The new name reaches the server.
        called = cli("call", "Demo two", "echo", "--args", '{"text": "hi"}', "--json", "--db", str(db))
        assert called.returncode == 0, called.stderr


def test_a_command_server_is_renamed_by_its_name_and_keeps_its_command(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    command = f"{shlex.quote(sys.executable)} -m x"
    saved = cli("servers", "set", "Local", "--command", command, "--db", str(db))
    assert saved.returncode == 0, saved.stderr
    (before,) = listed(db)
    renamed = cli("servers", "--json", "set", "Local", "--name", "Local two", "--budget", "9", "--db", str(db))
    assert renamed.returncode == 0, renamed.stderr
    (after,) = listed(db)
    assert json.loads(renamed.stdout)["saved"] == after
    assert (after["url"], after["name"], after["budget_s"]) == (before["url"], "Local two", 9.0)
    assert after.get("command") == before.get("command")


def test_a_new_name_that_another_server_has_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with FaultServer("stateless") as server:
        assert cli("servers", "set", server.url, "--name", "Staging", "--db", str(db)).returncode == 0
        command = f"{shlex.quote(sys.executable)} -m x"
        assert cli("servers", "set", "Local", "--command", command, "--db", str(db)).returncode == 0
        refused = cli("servers", "set", "Local", "--name", "Staging", "--db", str(db))
        assert refused.returncode == 2 and "Staging already names the server" in refused.stderr
        assert sorted(server["name"] for server in listed(db)) == ["Local", "Staging"]
