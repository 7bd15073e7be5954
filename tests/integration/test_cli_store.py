"""The command line and the run database: every operation is a run; runs and servers are listed."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.asgi_server import free_port, serve_asgi
from tests.support.sdk_server import build_sdk_server

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve_asgi(build_sdk_server().streamable_http_app()) as served:
        yield served


def test_every_operation_is_stored_with_its_steps_and_legs(url: str, tmp_path: Path) -> None:
    db = str(tmp_path / "mine.db")
    report = json.loads(cli("call", url, "echo", "--args", '{"text": "kept"}', "--json", "--db", db).stdout)
    run_id = report["run_id"]
    shown = json.loads(cli("runs", "show", str(run_id), "--json", "--db", db).stdout)
    assert shown["run"]["status"] == "ok" and shown["run"]["source"] == "live"
    assert shown["run"]["server"] == url
    (entry,) = shown["timeline"]
    assert entry["kind"] == "tool" and entry["outcome"] == "ok"
    assert entry["payload"]["toolName"] == "echo" and entry["payload"]["toolResult"] == "kept"
    assert [leg["method"] for leg in entry["payload"]["legs"]] == [
        "initialize", "notifications/initialized", "tools/call"]
    with RunStore.open(db) as store:
        assert store.db.execute("SELECT COUNT(*) FROM legs").fetchone()[0] == 3


def test_no_store_writes_nothing(url: str, tmp_path: Path) -> None:
    db = tmp_path / "untouched.db"
    report = json.loads(cli("ping", url, "--json", "--no-store", "--db", str(db)).stdout)
    assert "run_id" not in report
    assert not db.exists()


def test_the_environment_names_the_database(url: str, tmp_path: Path) -> None:
    db = tmp_path / "from-env.db"
    cli("ping", url, "--json", env={"RUN_INSPECTOR_DB": str(db)})
    listed = json.loads(cli("runs", "list", "--json", env={"RUN_INSPECTOR_DB": str(db)}).stdout)
    assert [run["title"] for run in listed["runs"]] == [f"ping {url}"]


def test_runs_list_filters_and_servers_count_failures(url: str, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    down = f"http://127.0.0.1:{free_port()}/mcp"
    cli("call", url, "echo", "--args", '{"text": "a"}', "--db", db)
    cli("call", url, "explode", "--db", db)
    cli("tools", down, "--db", db)
    everything = json.loads(cli("runs", "list", "--json", "--db", db).stdout)["runs"]
    assert [run["status"] for run in everything] == ["failed", "failed", "ok"]
    failed = json.loads(cli("runs", "list", "--outcome", "failed", "--json", "--db", db).stdout)["runs"]
    assert len(failed) == 2
    only_down = json.loads(cli("runs", "list", "--server", down, "--json", "--db", db).stdout)["runs"]
    assert [run["title"] for run in only_down] == [f"tools/list {down}"]
    assert len(json.loads(cli("runs", "list", "--limit", "1", "--json", "--db", db).stdout)["runs"]) == 1
    servers = {s["url"]: s for s in json.loads(cli("servers", "--json", "--db", db).stdout)["servers"]}
    # The tool's own error is still contact with a healthy server; the unreachable one failed.
    assert (servers[url]["ok"], servers[url]["failed"]) == (2, 0)
    assert servers[url]["last_contact_at"] is not None
    assert (servers[down]["ok"], servers[down]["failed"], servers[down]["last_contact_at"]) == (0, 1, None)
    readable = cli("runs", "list", "--db", db).stdout
    assert "explode" in readable and "Status" in readable
    assert "cancelled" in cli("servers", "--db", db).stdout


def test_runs_show_readable_has_the_timeline_columns(url: str, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    run_id = json.loads(cli("call", url, "explode", "--json", "--db", db).stdout)["run_id"]
    shown = cli("runs", "show", str(run_id), "--db", db)
    assert shown.returncode == 0
    for column in ("Time", "Source", "Kind", "Round", "Duration (ms)", "Outcome", "Details"):
        assert column in shown.stdout
    assert "failed" in shown.stdout and "explode" in shown.stdout


def test_bad_database_and_unknown_run(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("not a database " * 100)
    done = cli("runs", "list", "--db", str(notes))
    assert done.returncode == 2
    assert "not a Run Inspector database" in done.stderr
    assert notes.read_text() == "not a database " * 100
    missing = cli("runs", "show", "42", "--db", str(tmp_path / "empty.db"))
    assert missing.returncode == 1 and "no run 42" in missing.stderr
    newer = tmp_path / "newer.db"
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    refused = cli("runs", "list", "--db", str(newer))
    assert refused.returncode == 2 and "newer Run Inspector" in refused.stderr


def test_a_configured_server_lends_name_budget_and_headers(tmp_path: Path) -> None:
    from tests.support.fault_server import FaultServer

    db = str(tmp_path / "runs.db")
    with FaultServer("stateless") as server:
        saved = cli("servers", "set", server.url, "--name", "Staging", "--budget", "7",
                    "--header", "Authorization: Bearer hush-hush", "--header", "X-Tenant: acme", "--db", db)
        assert saved.returncode == 0, saved.stderr
        assert "hush-hush" not in saved.stdout + saved.stderr
        report = json.loads(cli("ping", server.url, "--json", "--db", db).stdout)
        assert report["server"] == "Staging" and report["budget_s"] == 7
        (initialize,) = server.posts("initialize")
        assert initialize.headers.get("x-tenant") == "acme"
        # No keyring here and nobody to ask: the secret is not sent, and the user is told.
        assert "authorization" not in initialize.headers
        # A header given on the command line wins, and the stored ones still come along.
        cli("ping", server.url, "--header", "Authorization: Bearer typed-now", "--header", "X-Tenant: other",
            "--db", db)
        second = server.posts("initialize")[1]
        assert second.headers.get("authorization") == "Bearer typed-now"
        assert second.headers.get("x-tenant") == "other"
        listed = json.loads(cli("servers", "--json", "--db", db).stdout)["servers"]
        assert listed[0]["headers"] == [{"name": "Authorization", "secret": True},
                                        {"name": "X-Tenant", "secret": False}]
    for file in tmp_path.iterdir():
        assert b"hush-hush" not in file.read_bytes()
