"""A command server started with a credential among its words (``--stdio "cmd --token T"``): the process gets T,
but what names the server says ``--token …``: `call`'s report, `runs list` (text, ``--json``), `runs show`, the
health `servers` lists, a run's row in the database, an export and what an import keeps. Only a configured
server's command keeps T, to start it. It was kept whole as the server's name and key: in each run's row, the
window's Server column, `runs list` and `runs show` (the export alone masked it).

Real parts: a real stdio child that refuses to start without ``--token`` and answers a digest of the token it got,
the real command line (in a process of its own, with the error log on, where the log is looked at), a real SQLite
file, real export and import files."""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.support.cli_process import ROOT, cli_here
from tests.support.token_stdio_server import digest

TOKEN = "tok-Q7r8S9t0-argument-secret"
COMMAND = f"{shlex.quote(sys.executable)} -m tests.support.token_stdio_server --token {TOKEN}"
SHOWN = f"{shlex.quote(sys.executable)} -m tests.support.token_stdio_server --token …"


def answer(done: subprocess.CompletedProcess[str]) -> str:
    """The tool's text in a `call --json` report."""
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["content"]


def rows_holding(db: Path, text: str) -> list[tuple[str, str]]:
    """(table, column) of every stored value holding ``text``."""
    found = []
    with sqlite3.connect(db) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            for column in columns:
                if conn.execute(f"SELECT 1 FROM {table} WHERE instr(CAST({column} AS TEXT), ?) > 0 LIMIT 1",
                                (text,)).fetchone():
                    found.append((table, column))
    return found


def test_a_command_line_token_reaches_the_process_and_nothing_that_names_the_server(tmp_path: Path) -> None:
    db, log = tmp_path / "runs.db", tmp_path / "run-inspector.log"
    env = {**os.environ, "RUN_INSPECTOR_LOG": str(log), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "inspector", "--db", str(db), "call", "--stdio", COMMAND,
                           "token_digest", "--json"], capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
    assert answer(done) == digest(TOKEN)  # the process was started with the token itself
    said = [done.stdout, done.stderr]
    assert json.loads(done.stdout)["server"] == json.loads(done.stdout)["command"] == SHOWN
    for words in (["runs", "list"], ["runs", "list", "--json"], ["runs", "show", "1"], ["runs", "show", "1", "--json"],
                  ["servers"], ["servers", "--json"]):
        shown = cli_here("--db", str(db), *words)
        assert shown.returncode == 0, shown.stderr
        said += [shown.stdout, shown.stderr]
    assert "--token …" in said[2] and f"stdio:{SHOWN}" in said[4]
    assert [server["url"] for server in json.loads(said[-2])["servers"]] == [f"stdio:{SHOWN}"]
    assert [text for text in said if TOKEN in text] == []
    assert rows_holding(db, TOKEN) == [] and TOKEN.encode() not in db.read_bytes()
    assert not log.exists() or TOKEN not in log.read_text(encoding="utf-8")
    # The command line as typed (`call --stdio` took it so) finds its runs: named as they are.
    found = cli_here("--db", str(db), "runs", "list", "--server", COMMAND, "--json")
    assert found.returncode == 0 and [run["id"] for run in json.loads(found.stdout)["runs"]] == [1], found.stderr
    assert TOKEN not in found.stdout + found.stderr


def test_a_configured_command_servers_configuration_alone_keeps_the_token(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    saved = cli_here("--db", str(db), "servers", "set", "tokened", "--command", COMMAND)
    assert saved.returncode == 0 and TOKEN not in saved.stdout + saved.stderr, saved.stderr
    assert answer(cli_here("--db", str(db), "call", "tokened", "token_digest", "--json")) == digest(TOKEN)
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert [(server["name"], server["url"]) for server in listed] == [("tokened", f"stdio:{SHOWN}")]
    runs = json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]
    assert [run["server"] for run in runs] == [f"stdio:{SHOWN}"]
    assert rows_holding(db, TOKEN) == [("servers", "command")]  # to start it; no run's row, no key, no health
    # The same command given with --stdio is the configured server: one server, one health.
    assert answer(cli_here("--db", str(db), "call", "--stdio", COMMAND, "token_digest", "--json")) == digest(TOKEN)
    assert {run["server"] for run in json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]} \
        == {f"stdio:{SHOWN}"}
    assert rows_holding(db, TOKEN) == [("servers", "command")]


def test_exported_and_imported_again_it_is_the_same_server_and_a_strangers_token_is_left_out(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    answer(cli_here("--db", str(db), "call", "--stdio", COMMAND, "token_digest", "--json"))
    for kind in ("json", "otlp"):
        written = tmp_path / f"runs.{kind}"
        assert cli_here("--db", str(db), "export", "--all", "--format", "otlp" if kind == "otlp" else "trace", "-o",
                        str(written)).returncode == 0
        assert TOKEN not in written.read_text(encoding="utf-8")
        elsewhere = str(tmp_path / f"from-{kind}.db")
        assert cli_here("--db", elsewhere, "import", str(written)).returncode == 0
        back = json.loads(cli_here("--db", elsewhere, "runs", "list", "--json").stdout)["runs"]
        assert [run["server"] for run in back] == [f"stdio:{SHOWN}"]
    # A stranger's file naming a command with its token (or an older export's [REDACTED]) is kept as ours is.
    runs = [{"uid": f"s{number}", "title": "t", "source": "imported", "server": server, "status": "ok",
             "started_at": "2023-11-14T22:13:28.000000Z", "finished_at": "2023-11-14T22:13:29.000000Z", "steps": []}
            for number, server in enumerate([f"stdio:{COMMAND}", f"stdio:{SHOWN[:-1]}[REDACTED]"])]
    (tmp_path / "stranger.json").write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": runs}),
                                            encoding="utf-8")
    assert cli_here("--db", str(db), "import", str(tmp_path / "stranger.json")).returncode == 0
    listed = json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]
    assert {run["server"] for run in listed} == {f"stdio:{SHOWN}"} and len(listed) == 3
    assert rows_holding(db, TOKEN) == []


def test_a_server_configured_under_its_whole_command_line_stays_one_server_until_saved_again(tmp_path: Path) -> None:
    """Configured before (its key ``stdio:… --token T``), its runs went under ``stdio:… --token …``: two servers,
    the name lost for the new runs, its health split. Saved again, it is named without T; what `servers set` says
    of the command it replaces leaves T out."""
    from inspector.agent.server_commands import setting_of
    from inspector.mcp.server_command import parse_command_line
    from inspector.store import RunStore, ServerRegistry

    db, earlier = tmp_path / "runs.db", f"stdio:{shlex.join(shlex.split(COMMAND))}"
    with RunStore.open(db) as store:
        ServerRegistry(store.db).save_server(earlier, name="tokened", transport="stdio",
                                             command=setting_of(parse_command_line(COMMAND)))
    assert answer(cli_here("--db", str(db), "call", "tokened", "token_digest", "--json")) == digest(TOKEN)
    runs = json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]
    assert [run["server"] for run in runs] == [earlier]
    # Its key stays until saved again (`servers --json` lists it as it is named now, --with-secrets as it is kept).
    listed = json.loads(cli_here("--db", str(db), "servers", "--json", "--with-secrets").stdout)["servers"]
    assert [(server["name"], server["url"], server["ok"]) for server in listed] == [("tokened", earlier, 1)]
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert [(server["name"], server["url"]) for server in listed] == [("tokened", f"stdio:{SHOWN}")]
    again = cli_here("--db", str(db), "servers", "set", "tokened", "--command", COMMAND)
    assert again.returncode == 0 and "--token …" in again.stdout and TOKEN not in again.stdout + again.stderr
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert [(server["name"], server["url"], server["ok"]) for server in listed] == [("tokened", f"stdio:{SHOWN}", 1)]
    # Its runs and health go with it: they stayed under the key holding T (two servers in `runs list` and the
    # window, the earlier one shown with T, its health lost), T in each of their rows.
    answer(cli_here("--db", str(db), "call", "tokened", "token_digest", "--json"))
    runs = json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]
    assert [run["server"] for run in runs] == [f"stdio:{SHOWN}"] * 2
    assert [server["ok"] for server in json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]] \
        == [2]
    assert rows_holding(db, TOKEN) == [("servers", "command")]


def test_a_header_or_variable_given_after_an_options_equals_sign_names_no_run(tmp_path: Path) -> None:
    """``--header=X-Api-Key:K`` and ``--env=API_KEY=K`` (a header line or a variable as an option's value after its
    "="), a key known by its shape (``--pat ghp_…``) and a header's value after its scheme (``Bearer T``): the
    export removed K, but the server's name kept it, in each run's row, `runs list` and `servers`."""
    db, key, other = tmp_path / "runs.db", "key-H4j5K6-header-secret", "key-V7w8X9-variable-secret"
    shaped = "ghp_R2s3T4u5V6w7X8y9Z0a1B2c3D4e5F6g7H8i9"
    bearer = "bearer-J1k2L3-after-its-scheme"
    typed = f"{COMMAND} --header=X-Api-Key:{key} --env=API_KEY={other} --pat {shaped} --headers Authorization " \
            f"'Bearer {bearer}'"
    assert answer(cli_here("--db", str(db), "call", "--stdio", typed, "token_digest", "--json")) == digest(TOKEN)
    said = [cli_here("--db", str(db), *words).stdout for words in (["runs", "list", "--json"], ["servers", "--json"])]
    server = f"stdio:{SHOWN} '--header=X-Api-Key: '… --env=API_KEY=… --pat … --headers Authorization 'Bearer '…"
    assert [run["server"] for run in json.loads(said[0])["runs"]] == [server]
    assert [text for text in said if key in text or other in text or shaped in text or bearer in text] == []
    assert rows_holding(db, key) == rows_holding(db, other) == rows_holding(db, shaped) == rows_holding(db, bearer) \
        == []


def test_the_servers_list_and_an_imports_plan_show_a_configured_command_without_its_token(tmp_path: Path) -> None:
    """`servers` showed a configured command's line whole below its name (``--token T``), and `servers import`
    its plan so, while its name said ``--token …`` and a variable's value was never shown."""
    db, config = tmp_path / "runs.db", tmp_path / "client.json"
    saved = cli_here("--db", str(db), "servers", "set", "tokened", "--command", COMMAND)
    assert saved.returncode == 0, saved.stderr
    listed = cli_here("--db", str(db), "servers")
    assert listed.returncode == 0 and "--token …" in listed.stdout and TOKEN not in listed.stdout + listed.stderr
    program, *args = shlex.split(COMMAND.replace(TOKEN, TOKEN + "-other"))
    config.write_text(json.dumps({"mcpServers": {"other": {"command": program, "args": args}}}), encoding="utf-8")
    imported = cli_here("--db", str(tmp_path / "elsewhere.db"), "servers", "import", str(config), "--yes")
    assert imported.returncode == 0 and "other" in imported.stdout, imported.stderr
    assert TOKEN not in imported.stdout + imported.stderr
    assert answer(cli_here("--db", str(tmp_path / "elsewhere.db"), "call", "other", "token_digest", "--json")) \
        == digest(TOKEN + "-other")  # started with its token


def test_the_same_command_with_another_token_under_another_name_does_not_replace_the_first(tmp_path: Path) -> None:
    """Both are one server (``stdio:… --token …``): `servers set work --command "… --token T2"` said "Saved work."
    and replaced ``personal`` whole, its name and token gone (an address with another password is refused so)."""
    db = tmp_path / "runs.db"
    assert cli_here("--db", str(db), "servers", "set", "personal", "--command", COMMAND).returncode == 0
    other = cli_here("--db", str(db), "servers", "set", "work", "--command", COMMAND.replace(TOKEN, "tok-other-9"))
    assert other.returncode == 2, other.stdout + other.stderr
    said = " ".join(other.stderr.split())
    assert "personal" in said and "servers remove personal" in said and "--token …" in said, said
    assert TOKEN not in said and "tok-other-9" not in said
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert [(server["name"], server["url"]) for server in listed] == [("personal", f"stdio:{SHOWN}")]
    assert answer(cli_here("--db", str(db), "call", "personal", "token_digest", "--json")) == digest(TOKEN)
    # Its own name again with the other token replaces its command, as before; the same command under a new name
    # renames it, as before.
    assert cli_here("--db", str(db), "servers", "set", "personal", "--command",
                    COMMAND.replace(TOKEN, "tok-other-9")).returncode == 0
    assert answer(cli_here("--db", str(db), "call", "personal", "token_digest", "--json")) == digest("tok-other-9")
    renamed = cli_here("--db", str(db), "servers", "set", "work", "--command", COMMAND.replace(TOKEN, "tok-other-9"))
    assert renamed.returncode == 0, renamed.stderr
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert [server["name"] for server in listed] == ["work"]


def test_servers_import_of_a_server_configured_under_its_whole_command_line_names_it_without_t(tmp_path: Path) -> None:
    """`servers import` of a client's file naming that server: its plan said "replaces the configured server of that
    name: stdio:… --token T", and the runs and health stayed under that key."""
    from inspector.agent.server_commands import setting_of
    from inspector.mcp.server_command import parse_command_line
    from inspector.store import RunStore, ServerRegistry

    db, config, earlier = tmp_path / "runs.db", tmp_path / "client.json", f"stdio:{shlex.join(shlex.split(COMMAND))}"
    with RunStore.open(db) as store:
        ServerRegistry(store.db).save_server(earlier, name="tokened", transport="stdio",
                                             command=setting_of(parse_command_line(COMMAND)))
    assert answer(cli_here("--db", str(db), "call", "tokened", "token_digest", "--json")) == digest(TOKEN)
    program, *args = shlex.split(COMMAND)
    config.write_text(json.dumps({"mcpServers": {"tokened": {"command": program, "args": args}}}), encoding="utf-8")
    imported = cli_here("--db", str(db), "servers", "import", str(config), "--yes")
    assert imported.returncode == 0 and "--token …" in imported.stdout, imported.stdout + imported.stderr
    assert TOKEN not in imported.stdout + imported.stderr
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert [(server["name"], server["url"], server["ok"]) for server in listed] == [("tokened", f"stdio:{SHOWN}", 1)]
    assert rows_holding(db, TOKEN) == [("servers", "command")]


def test_saving_a_server_configured_under_its_whole_command_line_adds_its_health_to_the_new_keys(
        tmp_path: Path) -> None:
    """A server configured under the key holding T, called by its name, and its command called with `call --stdio`
    (health under ``stdio:… --token …``): saved again, its own health was dropped (``ok`` 1, not 2), where the
    schema 15 step adds such counts up."""
    from inspector.agent.server_commands import setting_of
    from inspector.mcp.server_command import parse_command_line
    from inspector.store import RunStore, ServerRegistry

    db, earlier = tmp_path / "runs.db", f"stdio:{shlex.join(shlex.split(COMMAND))}"
    with RunStore.open(db) as store:
        ServerRegistry(store.db).save_server(earlier, name="tokened", transport="stdio",
                                             command=setting_of(parse_command_line(COMMAND)))
    assert answer(cli_here("--db", str(db), "call", "tokened", "token_digest", "--json")) == digest(TOKEN)
    assert answer(cli_here("--db", str(db), "call", "--stdio", COMMAND, "token_digest", "--json")) == digest(TOKEN)
    assert cli_here("--db", str(db), "servers", "set", "tokened", "--command", COMMAND).returncode == 0
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert [(server["name"], server["url"], server["ok"]) for server in listed] == [("tokened", f"stdio:{SHOWN}", 2)]
    runs = json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]
    assert [run["server"] for run in runs] == [f"stdio:{SHOWN}"] * 2
    assert rows_holding(db, TOKEN) == [("servers", "command")]


def test_the_same_command_with_another_token_is_refused_beside_a_server_configured_under_its_whole_command_line(
        tmp_path: Path) -> None:
    """A server configured before its key left T out (``stdio:… --token T``): `servers set work --command "…
    --token T2"` saved a second server of the same key it gets when saved again (two servers for one; then saving
    ``personal`` again was refused for ``work``), where it is refused beside one configured since."""
    from inspector.agent.server_commands import setting_of
    from inspector.mcp.server_command import parse_command_line
    from inspector.store import RunStore, ServerRegistry

    db, earlier = tmp_path / "runs.db", f"stdio:{shlex.join(shlex.split(COMMAND))}"
    with RunStore.open(db) as store:
        ServerRegistry(store.db).save_server(earlier, name="personal", transport="stdio",
                                             command=setting_of(parse_command_line(COMMAND)))
    other = cli_here("--db", str(db), "servers", "set", "work", "--command", COMMAND.replace(TOKEN, "tok-other-9"))
    assert other.returncode == 2, other.stdout + other.stderr
    said = " ".join(other.stderr.split())
    assert "personal" in said and "servers remove personal" in said and TOKEN not in said, said
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert [server["name"] for server in listed] == ["personal"]
    # Its own name with the other token replaces its command and key, as before.
    assert cli_here("--db", str(db), "servers", "set", "personal", "--command",
                    COMMAND.replace(TOKEN, "tok-other-9")).returncode == 0
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert [(server["name"], server["url"]) for server in listed] == [("personal", f"stdio:{SHOWN}")]


def test_a_credential_inside_a_word_of_several_names_no_run(tmp_path: Path) -> None:
    """A connection string (``'host=db password=P'``) or a shell's command line (``sh -c '… --token T'``) is one
    word: the export removed its credential in its place, but the server's name kept the word whole, in each run's
    row, `runs list`, `runs show`, the window's Server column and `servers`."""
    db, password = tmp_path / "runs.db", "pw-C1d2E3-connection-secret"
    typed = f"{COMMAND} 'host=db user=bob password={password}'"
    shelled = f"sh -c {shlex.quote(COMMAND.replace(TOKEN, 'tok-S4h5-shell-secret'))}"
    assert answer(cli_here("--db", str(db), "call", "--stdio", typed, "token_digest", "--json")) == digest(TOKEN)
    assert answer(cli_here("--db", str(db), "call", "--stdio", shelled, "token_digest", "--json")) \
        == digest("tok-S4h5-shell-secret")
    said = [cli_here("--db", str(db), *words).stdout for words in (
        ["runs", "list"], ["runs", "list", "--json"], ["runs", "show", "1"], ["runs", "show", "2"], ["servers"])]
    servers = [run["server"] for run in json.loads(said[1])["runs"]]
    assert servers == [f"stdio:sh -c {shlex.quote(SHOWN[:-1])}…", f"stdio:{SHOWN} 'host=db user=bob password='…"]
    assert [text for text in said if password in text or "tok-S4h5" in text] == []
    assert rows_holding(db, password) == rows_holding(db, "tok-S4h5") == []
    # Configured, `servers --json` lists its words as its name shows them.
    assert cli_here("--db", str(db), "servers", "set", "pg", "--command", typed).returncode == 0
    listed = cli_here("--db", str(db), "servers", "--json")
    assert listed.returncode == 0 and password not in listed.stdout + listed.stderr, listed.stdout
    [command] = [server["command"] for server in json.loads(listed.stdout)["servers"] if server["name"] == "pg"]
    assert command["args"][-1] == "host=db user=bob password=…"


def test_a_server_configured_under_its_whole_command_line_saved_under_a_new_name_is_renamed(tmp_path: Path) -> None:
    """The same command under a new name renames its server (as it did while both had one key); configured before
    its key left T out (``stdio:… --token T``), it made a second server of the same command beside it instead, the
    runs and health staying with the first."""
    from inspector.agent.server_commands import setting_of
    from inspector.mcp.server_command import parse_command_line
    from inspector.store import RunStore, ServerRegistry

    db, earlier = tmp_path / "runs.db", f"stdio:{shlex.join(shlex.split(COMMAND))}"
    with RunStore.open(db) as store:
        ServerRegistry(store.db).save_server(earlier, name="personal", transport="stdio",
                                             command=setting_of(parse_command_line(COMMAND)))
    assert answer(cli_here("--db", str(db), "call", "personal", "token_digest", "--json")) == digest(TOKEN)
    renamed = cli_here("--db", str(db), "servers", "set", "work", "--command", COMMAND)
    assert renamed.returncode == 0 and TOKEN not in renamed.stdout + renamed.stderr, renamed.stderr
    assert renamed.stdout.strip() == "Saved work."  # a rename: no earlier command of that name replaced
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert [(server["name"], server["url"], server["ok"]) for server in listed] == [("work", f"stdio:{SHOWN}", 1)]
    runs = json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]
    assert [run["server"] for run in runs] == [f"stdio:{SHOWN}"]
    assert answer(cli_here("--db", str(db), "call", "work", "token_digest", "--json")) == digest(TOKEN)
    assert rows_holding(db, TOKEN) == [("servers", "command")]


def test_a_server_configured_with_a_token_inside_a_shells_command_is_named_without_it_once_upgraded(
        tmp_path: Path) -> None:
    """`servers set work --command "sh -c '… --token T'"` keyed the server with T before a credential inside a word
    of several was left out of its key, and a database upgraded since (schema 17) kept that key: `runs show`, the
    window's tooltip and each run's row showed T. Schema 18 names it as a save does now; it still starts with T
    (the real server behind `sh -c` answers its digest), its earlier run stays its own, and `servers --json
    --with-secrets` still gives the whole command to `servers import`."""
    from inspector.store import RunStore

    db, token = tmp_path / "runs.db", "tok-U6v7-shell-configured"
    inner = COMMAND.replace(TOKEN, token)
    earlier = f"stdio:sh -c {shlex.quote(inner)}"
    with RunStore.open(db):
        pass
    with sqlite3.connect(db) as conn:  # as the older code configured it, and a run it made
        conn.execute("INSERT INTO servers (url, name, transport, command) VALUES (?, 'work', 'stdio', ?)",
                     (earlier, json.dumps({"program": "sh", "args": ["-c", inner], "cwd": None, "env": []})))
        conn.execute("INSERT INTO runs (uid, title, source, server, status, started_at) VALUES ('u', 'tools/call"
                     " token_digest', 'live', ?, 'ok', '2026-12-06T10:00:00.000000Z')", (earlier,))
        conn.execute("INSERT INTO server_health (url, ok_count) VALUES (?, 1)", (earlier,))
        conn.execute("PRAGMA user_version = 17")
    conn.close()
    shown = f"stdio:sh -c {shlex.quote(SHOWN[:-1])}…"
    said = [cli_here("--db", str(db), *words) for words in (
        ["servers"], ["servers", "--json"], ["runs", "list"], ["runs", "list", "--json"], ["runs", "show", "1"],
        ["runs", "show", "1", "--json"])]
    assert [done.returncode for done in said] == [0] * 6
    assert [done.args for done in said if token in done.stdout + done.stderr] == []
    assert [(server["name"], server["url"], server["ok"])
            for server in json.loads(said[1].stdout)["servers"]] == [("work", shown, 1)]
    assert [run["server"] for run in json.loads(said[3].stdout)["runs"]] == [shown]
    assert re.search(r"\blive +work ", said[2].stdout), said[2].stdout  # its Server column names it as before
    assert answer(cli_here("--db", str(db), "call", "work", "token_digest", "--json")) == digest(token)
    assert [run["server"] for run in json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]] \
        == [shown] * 2
    assert rows_holding(db, token) == [("servers", "command")]
    whole = cli_here("--db", str(db), "servers", "--json", "--with-secrets")
    [command] = [server["command"] for server in json.loads(whole.stdout)["servers"]]
    assert command["args"] == ["-c", inner]
    (tmp_path / "whole.json").write_text(whole.stdout, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere.db"
    imported = cli_here("--db", str(elsewhere), "servers", "import", str(tmp_path / "whole.json"), "--yes")
    assert imported.returncode == 0 and token not in imported.stdout + imported.stderr, imported.stderr
    assert answer(cli_here("--db", str(elsewhere), "call", "work", "token_digest", "--json")) == digest(token)


def test_two_programs_behind_a_shell_each_with_its_key_are_two_servers(tmp_path: Path) -> None:
    """`servers set gh --command "sh -c 'API_KEY=K exec github-mcp'"` and `servers set sl --command "sh -c 'API_KEY=L
    exec slack-mcp'"`: the key hid the rest of the script with K (``stdio:sh -c API_KEY=…``), so the second was
    refused as the same server, and their runs would have been one server's. Here the programs are the real stdio
    server started with other words (which it lets be); each answers the digest of its own token."""
    db = tmp_path / "runs.db"
    scripts = {name: f"API_KEY=key-{name}-V8w9 exec {COMMAND.replace(TOKEN, f'tok-{name}-X1y2')} {name}-mcp"
               for name in ("github", "slack")}
    for name, script in scripts.items():
        saved = cli_here("--db", str(db), "servers", "set", name, "--command", f"sh -c {shlex.quote(script)}")
        assert saved.returncode == 0 and saved.stdout.strip() == f"Saved {name}.", saved.stderr
        assert answer(cli_here("--db", str(db), "call", name, "token_digest", "--json")) == digest(f"tok-{name}-X1y2")
    keys = {name: f"stdio:sh -c 'API_KEY=… exec {SHOWN} {name}-mcp'" for name in scripts}
    listed = json.loads(cli_here("--db", str(db), "servers", "--json").stdout)["servers"]
    assert {server["name"]: (server["url"], server["ok"]) for server in listed} == {
        name: (key, 1) for name, key in keys.items()}
    runs = json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]
    assert sorted(run["server"] for run in runs) == sorted(keys.values())
    for name in scripts:
        assert rows_holding(db, f"key-{name}-V8w9") == rows_holding(db, f"tok-{name}-X1y2") == [("servers", "command")]
    # Exported and imported elsewhere, they are the two servers still (the export hid 'API_KEY=… exec …' whole).
    written, elsewhere = tmp_path / "runs.json", str(tmp_path / "elsewhere.db")
    assert cli_here("--db", str(db), "export", "--all", "-o", str(written)).returncode == 0
    assert "V8w9" not in written.read_text(encoding="utf-8") and "X1y2" not in written.read_text(encoding="utf-8")
    assert cli_here("--db", elsewhere, "import", str(written)).returncode == 0
    back = json.loads(cli_here("--db", elsewhere, "runs", "list", "--json").stdout)["runs"]
    assert sorted(run["server"] for run in back) == sorted(keys.values())


def test_a_shells_command_ending_with_its_token_is_the_same_server_once_exported_and_imported(tmp_path: Path) -> None:
    """``sh -c '… --token T'`` is named ``sh -c '… --token '…``: the export took ``'…`` for the token's value
    (``sh -c '… --token [REDACTED]``, its quote left open), and the import kept that as another server."""
    db, token = tmp_path / "runs.db", "tok-Z3a4-shell-ending"
    shelled = f"sh -c {shlex.quote(COMMAND.replace(TOKEN, token))}"
    assert answer(cli_here("--db", str(db), "call", "--stdio", shelled, "token_digest", "--json")) == digest(token)
    [here] = [run["server"] for run in json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]]
    assert here == f"stdio:sh -c {shlex.quote(SHOWN[:-1])}…"
    written, elsewhere = tmp_path / "runs.json", str(tmp_path / "elsewhere.db")
    assert cli_here("--db", str(db), "export", "--all", "-o", str(written)).returncode == 0
    assert token not in written.read_text(encoding="utf-8")
    assert cli_here("--db", elsewhere, "import", str(written)).returncode == 0
    back = json.loads(cli_here("--db", elsewhere, "runs", "list", "--json").stdout)["runs"]
    assert [run["server"] for run in back] == [here]
