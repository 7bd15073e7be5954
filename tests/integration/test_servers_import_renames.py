"""``servers import`` does to a configured server what ``servers set`` does: an entry of the same server (address or
command) under another name renames it, its runs and health with it, and its preview says so ("renames the server
configured so: personal"); an entry of the command another name configures with other credentials is skipped,
naming that server, as ``servers set`` refuses it. The import added a second server beside a command configured
before its key left its token out (its runs and health staying with the first), and replaced the other one whole,
its name and its token gone.

Real parts: a real stdio child that answers a digest of the token it was started with, the real command line, real
SQLite files (the same servers configured in two, one changed by ``servers set``, the other by ``servers import``)."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

from tests.support.cli_process import cli_here
from tests.support.token_stdio_server import digest

from .test_command_server_credentials import COMMAND, SHOWN, TOKEN, answer

ADDRESS = "http://127.0.0.1:9/mcp"
OTHER_TOKEN = "tok-W2x3Y4z5-other-secret"
#: Another command ('-u' among its words), configured as 'kept' with one token, listed in the file with another.
KEPT = f"{shlex.quote(sys.executable)} -u -m tests.support.token_stdio_server --token tok-kept-1"
OTHER = KEPT.replace("tok-kept-1", OTHER_TOKEN)


def servers(db: Path) -> list[tuple[str, str, int]]:
    listed = cli_here("--db", str(db), "servers", "--json")
    assert listed.returncode == 0, listed.stderr
    return sorted((server["name"], server["url"], server["ok"]) for server in json.loads(listed.stdout)["servers"])


def configure(db: Path) -> None:
    """'personal': the command keyed with its token (as before schema 15), one run made; 'addr': an address."""
    from inspector.agent.server_commands import setting_of
    from inspector.mcp.server_command import parse_command_line
    from inspector.store import RunStore, ServerRegistry

    with RunStore.open(db) as store:
        registry = ServerRegistry(store.db)
        registry.save_server(f"stdio:{shlex.join(shlex.split(COMMAND))}", name="personal", transport="stdio",
                             command=setting_of(parse_command_line(COMMAND)))
        registry.save_server(ADDRESS, name="addr")
    assert answer(cli_here("--db", str(db), "call", "personal", "token_digest", "--json")) == digest(TOKEN)
    done = cli_here("--db", str(db), "servers", "set", "kept", "--command", KEPT)
    assert done.returncode == 0, done.stderr


def test_import_renames_the_same_server_and_skips_another_names_command_as_servers_set_does(tmp_path: Path) -> None:
    imported, set_so = tmp_path / "imported.db", tmp_path / "set.db"
    configure(imported)
    shutil.copyfile(imported, set_so)
    config = tmp_path / "mcp.json"
    program, *args = shlex.split(COMMAND)
    other_program, *other_args = shlex.split(OTHER)
    config.write_text(json.dumps({"mcpServers": {
        "work": {"command": program, "args": args},
        "remote": {"url": ADDRESS},
        "taken": {"command": other_program, "args": other_args}}}), encoding="utf-8")
    planned = cli_here("--db", str(imported), "servers", "import", str(config), "--json")
    assert planned.returncode == 2, planned.stderr  # no terminal, no --yes: the plan only
    plan = json.loads(planned.stdout)
    assert [(server["name"], server["effect"], server["renames"]) for server in plan["servers"]] == [
        ("work", "renames", "personal"), ("remote", "renames", "addr")]
    assert plan["skipped"] == [{"name": "taken", "reason": (
        "kept is configured with this command, its credentials aside, and a server is configured once: give kept "
        "these credentials, or remove kept first")}]
    done = cli_here("--db", str(imported), "servers", "import", str(config), "--yes")
    assert done.returncode == 0, done.stderr
    assert "      renames the server configured so: personal\n" in done.stdout
    assert "      renames the server configured so: addr\n" in done.stdout
    assert "  taken: kept is configured with this command" in done.stdout and "Added 2 servers." in done.stdout
    assert TOKEN not in done.stdout + done.stderr and OTHER_TOKEN not in done.stdout + done.stderr
    # One server each, its run and health with it: as servers set leaves them.
    assert servers(imported) == [("kept", f"stdio:{SHOWN}".replace(" -m ", " -u -m "), 0), ("remote", ADDRESS, 0),
                                 ("work", f"stdio:{SHOWN}", 1)]
    for words in (["work", "--command", COMMAND], [ADDRESS, "--name", "remote"]):
        assert cli_here("--db", str(set_so), "servers", "set", *words).returncode == 0
    refused = cli_here("--db", str(set_so), "servers", "set", "taken", "--command", OTHER)
    assert refused.returncode != 0 and "kept is configured with this command" in refused.stderr
    assert servers(set_so) == servers(imported)
    runs = json.loads(cli_here("--db", str(imported), "runs", "list", "--json").stdout)["runs"]
    assert [run["server"] for run in runs] == [f"stdio:{SHOWN}"]
    # The command renamed starts with its token; the one skipped keeps its own.
    assert answer(cli_here("--db", str(imported), "call", "work", "token_digest", "--json")) == digest(TOKEN)
    assert answer(cli_here("--db", str(imported), "call", "kept", "token_digest", "--json")) == digest("tok-kept-1")
