"""The command line and the run database: every operation is a run; runs and servers are listed."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.asgi_server import closed_port, serve_asgi
from tests.support.cli_process import cli_here
from tests.support.sdk_server import build_sdk_server

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return cli_here(*args, env=env)  # in this process: what it says is the point, not its process


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve_asgi(build_sdk_server().streamable_http_app()) as served:
        yield served


def test_every_operation_is_stored_with_its_steps_and_legs(url: str, tmp_path: Path) -> None:
    db = str(tmp_path / "mine.db")
    report = json.loads(cli("call", url, "--era", "handshake", "echo", "--args", '{"text": "kept"}', "--json",
                            "--db", db).stdout)
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
    down = f"http://127.0.0.1:{closed_port()}/mcp"
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
    # The tool's own error is counted on its own, and is still contact with a healthy server;
    # the unreachable one failed. Together they are the two failed runs.
    assert (servers[url]["ok"], servers[url]["tool_errors"], servers[url]["failed"]) == (1, 1, 0)
    assert servers[url]["last_contact_at"] is not None
    assert (servers[down]["ok"], servers[down]["tool_errors"], servers[down]["failed"],
            servers[down]["last_contact_at"]) == (0, 0, 1, None)
    assert sum(s["failed"] + s["tool_errors"] for s in servers.values()) == len(failed)
    readable = cli("runs", "list", "--db", db).stdout
    assert "explode" in readable and "Status" in readable
    table = cli("servers", "--db", db).stdout.splitlines()
    assert "(tool errors)" in table[0] and "cancelled" in table[0]
    (row,) = [line for line in table if line.startswith(url)]
    # A tool error is a kind of failed: counted there, and named beside it (as the window's health line).
    assert row.split()[-4:] == ["1", "1", "(1)", "0"]  # ok, failed, (of them tool errors), cancelled


def test_runs_show_readable_has_the_timeline_columns(url: str, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    run_id = json.loads(cli("call", url, "explode", "--json", "--db", db).stdout)["run_id"]
    shown = cli("runs", "show", str(run_id), "--db", db)
    assert shown.returncode == 0
    for column in ("Time", "Source", "Kind", "Round", "Duration", "Outcome", "Details"):
        assert column in shown.stdout
    assert "failed" in shown.stdout and "explode" in shown.stdout


def test_bad_database_and_unknown_run(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("not a database " * 100)
    done = cli("runs", "list", "--db", str(notes))
    assert done.returncode == 2
    assert "not a Run Inspector database" in done.stderr
    assert notes.read_text() == "not a database " * 100
    empty = tmp_path / "empty.db"
    RunStore.open(empty).close()
    missing = cli("runs", "show", "42", "--db", str(empty))
    # A run that is not there is bad input, like a bad argument.
    assert missing.returncode == 2 and "no run 42" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
    as_json = cli("runs", "show", "42", "--json", "--db", str(empty))
    assert as_json.returncode == 2 and json.loads(as_json.stdout)["error"]["kind"] == "bad_input"
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


def test_reading_never_creates_a_database(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    listed = cli("runs", "list", "--db", str(db))
    assert listed.returncode == 0 and "No runs stored yet" in listed.stdout and "does not exist" in listed.stdout
    listed_json = json.loads(cli("runs", "list", "--json", "--db", str(db)).stdout)
    assert listed_json == {"runs": [], "plumbing_traces_hidden": 0}
    assert json.loads(cli("servers", "--json", "--db", str(db)).stdout) == {"servers": []}
    assert "No servers known yet" in cli("servers", "--db", str(db)).stdout
    shown = cli("runs", "show", "1", "--db", str(db))
    assert shown.returncode == 2 and "does not exist" in shown.stderr
    exported = cli("export", "--all", "-o", str(tmp_path / "out.json"), "--db", str(db))
    assert exported.returncode == 2 and "does not exist" in exported.stderr
    assert not db.exists() and not list(tmp_path.iterdir())


def test_a_named_folder_that_does_not_exist_is_refused_by_every_command(tmp_path: Path) -> None:
    """A typo in --db's folder (or RUN_INSPECTOR_DB's) is said, by reading and writing commands alike,
    instead of making the folders and a fresh database nobody looks at; only the user data folder is made."""
    db = tmp_path / "typo" / "deeper" / "runs.db"
    for command in (["runs", "list"], ["servers"], ["servers", "set", "http://127.0.0.1:9/mcp"],
                    ["ping", "http://127.0.0.1:9/mcp"], ["scenario", "happy-path"], ["receive", "--port", "0"],
                    ["proxy", "--to", "http://127.0.0.1:9/mcp", "--listen", "127.0.0.1:0"]):
        done = cli(*command, "--json", "--db", str(db))
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        error = json.loads(done.stdout)["error"]
        assert error["kind"] == "usage", command
        assert f"its folder {db.parent} does not exist" in error["message"], (command, error)
    german = cli("--lang", "de", "runs", "list", env={"RUN_INSPECTOR_DB": str(db)})
    assert german.returncode == 2
    assert f"ihr Ordner {db.parent} existiert nicht" in german.stderr, german.stderr
    assert not (tmp_path / "typo").exists()
    # Without a name, the user data folder is made on the first write, however deep.
    data = tmp_path / "fresh" / "xdg"
    made = cli("servers", "set", "http://127.0.0.1:9/mcp", env={"RUN_INSPECTOR_DB": "", "XDG_DATA_HOME": str(data)})
    assert made.returncode == 0, made.stderr
    assert (data / "run-inspector" / "runs.db").is_file()


def test_a_database_that_is_a_link_to_nowhere_is_named_so_by_every_command(tmp_path: Path) -> None:
    """--db a link (through another) to a place whose folder is gone: writing commands said only SQLite's
    "unable to open database file", reading ones "does not exist yet". The link and where it points are said."""
    target = tmp_path / "moved away" / "runs.db"
    (tmp_path / "middle.db").symlink_to(target)
    db = tmp_path / "runs.db"
    db.symlink_to(tmp_path / "middle.db")
    said = (f"The run database {db} is a link to {target}, which does not exist, and its folder {target.parent} "
            "does not exist either. Correct the link, or name another file with --db or RUN_INSPECTOR_DB.")
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": []}))
    for command in (["import", str(trace)], ["runs", "list"], ["servers"], ["servers", "set", "http://127.0.0.1:9/mcp"]):
        done = cli(*command, "--json", "--db", str(db))
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert json.loads(done.stdout)["error"] == {"kind": "usage", "message": said}, command
    german = cli("--lang", "de", "import", str(trace), env={"RUN_INSPECTOR_DB": str(db)})
    assert german.returncode == 2
    assert (f"Die Laufdatenbank {db} ist eine symbolische Verknüpfung auf {target}, das es nicht gibt, und auch "
            f"dessen Ordner {target.parent} existiert nicht.") in german.stderr, german.stderr
    assert not target.parent.exists()
    # A link to a file yet to be made in a folder that is there is a database like any other: made there.
    target.parent.mkdir()
    assert cli("import", str(trace), "--db", str(db)).returncode == 0
    assert target.is_file()


def test_runs_alone_names_its_sub_commands(tmp_path: Path) -> None:
    done = cli("runs")
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "runs list" in line and "runs show" in line and "runs_command" not in line
    assert "runs note" in line  # the third sub-command was left out


def test_runs_show_gives_the_legs_and_their_grants_and_no_round_for_a_single_operation(
        url: str, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    run_id = json.loads(cli("call", url, "--era", "handshake", "echo", "--args", '{"text": "x"}', "--budget", "9",
                            "--json",
                            "--db", db).stdout)["run_id"]
    shown = cli("runs", "show", str(run_id), "--db", db).stdout
    for method in ("initialize", "notifications/initialized", "tools/call"):
        (line,) = [row for row in shown.splitlines() if row.strip().startswith(method + " ")]
        assert "granted   9 s" in line
    (step,) = [row for row in shown.splitlines() if " tool " in row]
    # The step's number, time, source, kind, round, ...: columns are two spaces or more apart (a time
    # has single spaces). The number is what `replay RUN:STEP` takes; a single operation has no round.
    columns = re.split(r"\s{2,}", step.strip())
    assert columns[0] == "1" and columns[4] == "-"
    assert "(s)" not in shown and "1 step" in shown
    entry = json.loads(cli("runs", "show", str(run_id), "--json", "--db", db).stdout)["timeline"][0]
    assert entry["round"] is None and entry["payload"]["round"] == 0


def test_a_run_with_rounds_shows_them(tmp_path: Path) -> None:
    from inspector.runs import RunStep, StepKind

    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = store.start_run("agent", "scenario")
        for round_ in (0, 1):
            store.append_step(run_id, RunStep(kind=StepKind.LLM, round=round_, duration_ms=1.0))
    timeline = json.loads(cli("runs", "show", str(run_id), "--json", "--db", str(db)).stdout)["timeline"]
    assert [entry["round"] for entry in timeline] == [0, 1]


def test_a_filter_that_matches_nothing_is_not_called_an_empty_database(url: str, tmp_path: Path) -> None:
    db = str(tmp_path / "filtered.db")
    assert cli("call", url, "echo", "--args", '{"text": "kept"}', "--db", db).returncode == 0
    everything = cli("runs", "list", "--db", db)
    assert everything.returncode == 0 and "tools/call echo" in everything.stdout
    for filters, expected in ((("--outcome", "failed"), "No stored run has the status failed."),
                              (("--server", "http://127.0.0.1:9/other"),
                               "No stored run was made on the server http://127.0.0.1:9/other."),
                              (("--outcome", "cancelled", "--server", url),
                               f"No stored run has the status cancelled on the server {url}.")):
        listed = cli("runs", "list", *filters, "--db", db)
        assert listed.returncode == 0
        assert expected in listed.stdout and "No runs stored yet" not in listed.stdout


def test_a_db_before_the_sub_command_is_the_database_the_sub_command_uses(url: str, tmp_path: Path) -> None:
    db = tmp_path / "named-first.db"
    elsewhere = tmp_path / "default.db"  # what RUN_INSPECTOR_DB names: must stay untouched
    env = {"RUN_INSPECTOR_DB": str(elsewhere)}
    called = cli("--db", str(db), "call", url, "echo", "--args", '{"text": "here"}', "--json", env=env)
    assert called.returncode == 0, called.stderr
    run_id = json.loads(called.stdout)["run_id"]
    assert db.exists() and not elsewhere.exists()
    listed = json.loads(cli("--db", str(db), "runs", "list", "--json", env=env).stdout)
    assert [run["id"] for run in listed["runs"]] == [run_id]
    assert not elsewhere.exists()
    both = cli("--db", str(db), "runs", "list", "--db", str(elsewhere), env=env)
    assert both.returncode == 2 and "Two run databases were named" in both.stderr
    demo = cli("--db", str(db), "serve-demo", env=env)
    assert demo.returncode == 2 and "--db has no meaning" in demo.stderr


def test_runs_list_server_takes_a_configured_name_too(url: str, tmp_path: Path, capsys) -> None:
    from inspector.cli import main

    db = str(tmp_path / "named.db")
    down = f"http://127.0.0.1:{closed_port()}/mcp"
    assert main(["ping", url, "--db", db]) == 0
    main(["ping", down, "--db", db])
    assert main(["servers", "set", url, "--name", "Staging", "--db", db]) == 0
    capsys.readouterr()
    assert main(["runs", "list", "--server", "staging", "--json", "--db", db]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert [run["title"] for run in runs] == [f"ping {url}"]
    # A name no server has is one clear sentence and exit code 2.
    assert main(["runs", "list", "--server", "Production", "--db", db]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().count("\n") == 0 and "No configured server is named Production" in captured.err


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_servers_table_stays_aligned_beside_a_long_address(tmp_path: Path, capsys, lang: str) -> None:
    """A name or address longer than 40 characters (a command server's "stdio:/…/bin/mcp-server-time")
    pushed the rest of its row two places right of the headings."""
    from inspector.cli import main

    db = str(tmp_path / "runs.db")
    long = "http://127.0.0.1:9/a/rather/long/path/to/an/mcp/endpoint/mcp"
    assert main(["servers", "set", "http://127.0.0.1:9/mcp", "--db", db]) == 0
    assert main(["servers", "set", long, "--era", "handshake", "--db", db]) == 0
    capsys.readouterr()
    assert main(["--lang", lang, "servers", "--db", db]) == 0
    heading, *rows = capsys.readouterr().out.splitlines()
    column = heading.index("Transport")
    assert sorted(row[column:].split()[:2] for row in rows) == [["http", "auto"], ["http", "handshake"]]
    assert any(row.startswith(long + "  ") for row in rows)


def test_runs_list_says_how_many_runs_its_limit_left_out(tmp_path: Path) -> None:
    """A customer's trace of 60 runs: `runs list` showed 50 of them and said nothing of the other 10, while
    the window listed all 60. A line under the table says how many match and how to list more; a list the
    limit did not cut says nothing more."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        for number in range(60):
            store.start_run(f"run {number}", "imported", status="failed" if number % 3 == 0 else "ok")
    listed = cli("runs", "list", "--db", str(db)).stdout.splitlines()
    assert len(listed) == 1 + 50 + 1
    assert listed[-1] == "The newest 50 of 60 runs are listed; --limit N lists more."
    failed = cli("runs", "list", "--outcome", "failed", "--limit", "5", "--db", str(db)).stdout.splitlines()
    assert failed[-1] == "The newest 5 of 20 runs are listed; --limit N lists more."
    german = cli("--lang", "de", "runs", "list", "--limit", "5", "--db", str(db)).stdout.splitlines()
    assert german[-1] == "Aufgeführt sind die neuesten 5 von 60 Läufen; --limit N führt mehr auf."
    for whole in (("--limit", "60"), ("--outcome", "failed", "--limit", "20")):
        rows = cli("runs", "list", *whole, "--db", str(db)).stdout.splitlines()
        assert rows[-1].split()[-2:] == ["run", "0"], rows[-1]  # the table ends the output: nothing was left out
    assert len(json.loads(cli("runs", "list", "--json", "--db", str(db)).stdout)["runs"]) == 50
