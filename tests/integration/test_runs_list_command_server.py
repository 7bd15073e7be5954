"""A command server `call --stdio "COMMAND LINE"` started, named again on the command line: `runs list
--server` takes its command line as typed, as it takes its key (`stdio:...`, which `servers` shows); its
key given as the server of `call` says what to write (`--stdio` and the command line, not the key). A
real command server: the official SDK server over stdio (tests/support/stdio_server.py)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

SERVER = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"


def test_runs_are_listed_by_the_command_line_as_typed(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    called = cli_here("call", "--stdio", SERVER, "echo", "--args", '{"text": "hi"}', "--db", db)
    assert called.returncode == 0, called.stderr
    other = cli_here("tools", "--stdio", f"{SERVER} other", "--db", db)  # another command line: another server
    assert other.returncode == 0, other.stderr
    typed = cli_here("runs", "list", "--server", SERVER.replace(" -m ", "   -m "), "--db", db)
    assert typed.returncode == 0, typed.stderr
    listed = typed.stdout.splitlines()[1:]
    assert len(listed) == 1 and "tools/call echo" in listed[0], typed.stdout
    keyed = cli_here("runs", "list", "--server", f"stdio:{SERVER}", "--db", db)
    assert keyed.stdout == typed.stdout
    unknown = cli_here("runs", "list", "--server", f"{SERVER} nowhere", "--db", db)
    assert unknown.returncode == 2 and "No configured server is named" in unknown.stderr, unknown.stderr


@pytest.mark.parametrize(("language", "said"), [
    ("en", "names a command server that is not configured here. To start its command again and speak to it "
           "over stdin/stdout, write: --stdio "),
    ("de", "nennt einen Befehlsserver, der hier nicht eingerichtet ist. Um seinen Befehl wieder zu starten und "
           "über stdin/stdout mit ihm zu sprechen, schreiben Sie: --stdio ")])
def test_its_key_as_a_server_says_to_give_the_command_line(tmp_path: Path, language: str, said: str) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("tools", "--stdio", SERVER, "--db", db).returncode == 0
    listed = cli_here("servers", "--db", db).stdout
    assert f"stdio:{SERVER}" in listed, listed  # where the key is read from
    refused = cli_here("--lang", language, "tools", f"stdio:{SERVER}", "--db", db)
    told = " ".join(refused.stderr.split())
    assert refused.returncode == 2 and said in told, refused.stderr
    assert shlex.split(told.split(said, 1)[1]) == [SERVER]  # the command line, without "stdio:"
    again = cli_here("tools", "--stdio", shlex.split(told.split(said, 1)[1])[0], "--db", db)
    assert again.returncode == 0 and "echo" in again.stdout, again.stderr


def test_a_configured_name_at_a_loopback_address_lists_this_machines_runs_not_imported_ones(tmp_path: Path) -> None:
    """The engineer's server at 127.0.0.1:9 and the developer's imported run at their own 127.0.0.1:9: the
    engineer's name lists the engineer's run (as the window's server filter does), the address lists both."""
    from inspector.store import RunStore, ServerRegistry

    db, here = str(tmp_path / "runs.db"), "http://127.0.0.1:9/mcp"
    export = tmp_path / "from-the-developer.json"
    export.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [
        {"uid": "from-the-developer", "title": "tools/call theirs", "source": "live", "server": here,
         "status": "ok", "started_at": "2026-12-05T14:22:21Z", "finished_at": "2026-12-05T14:22:22Z", "steps": []}]}))
    with RunStore.open(db) as store:
        ServerRegistry(store.db).save_server(here, name="Engineer's test server")
        store.finish_run(store.start_run("tools/call mine", "live", here), "ok")
    imported = cli_here("import", str(export), "--db", db)
    assert imported.returncode == 0, imported.stderr
    by_name = cli_here("runs", "list", "--server", "Engineer's test server", "--json", "--db", db)
    assert [run["title"] for run in json.loads(by_name.stdout)["runs"]] == ["tools/call mine"], by_name.stderr
    by_address = cli_here("runs", "list", "--server", here, "--json", "--db", db)
    assert sorted(run["title"] for run in json.loads(by_address.stdout)["runs"]) == ["tools/call mine",
                                                                                    "tools/call theirs"]
