"""The window's "Demo server" entry called from the command line while no window runs it: one sentence
saying how to start it, nothing called or stored, and the entry's health untouched (the server was not
started; it did not fail). Once it runs, the same words call it."""

from __future__ import annotations

import json
import subprocess

from inspector.demo import DemoOptions, DemoServer
from inspector.i18n.entry_names import DEMO_ENTRY_NAME
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from tests.support.asgi_server import ReservedPort
from tests.support.cli_process import cli_here


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return cli_here(*args)  # in this process: what it says is the point, not its process


def _stored() -> tuple[int, int]:
    """(runs stored, failures counted against the demo entry)."""
    store = RunStore.open(resolve_db_path())
    try:
        runs = store.db.conn.execute("SELECT count(*) FROM runs").fetchone()[0]
        [entry] = [record for record in ServerRegistry(store.db).all() if record.name == DEMO_ENTRY_NAME]
        return runs, entry.failed_count
    finally:
        store.close()


def test_calling_the_demo_entry_while_nothing_runs_it_says_how_to_start_it() -> None:
    reserved = ReservedPort()  # refused until the demo server starts on it
    port = reserved.port
    url = f"http://127.0.0.1:{port}/mcp"
    store = RunStore.open(resolve_db_path())
    ServerRegistry(store.db).save_server(url, name=DEMO_ENTRY_NAME)
    store.close()

    done = run_cli("call", DEMO_ENTRY_NAME, "echo")
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr  # one sentence, no report of a failed call
    assert "window is open (run-inspector)" in done.stderr
    assert f"run-inspector serve-demo --port {port}" in done.stderr
    assert "Nothing was called or stored" in done.stderr
    german = run_cli("--lang", "de", "tools", url)  # the address, and another operation: the same
    assert german.returncode == 1
    assert f"run-inspector serve-demo --port {port}" in german.stderr and "Fenster" in german.stderr, german.stderr
    as_json = run_cli("ping", DEMO_ENTRY_NAME, "--json")
    assert json.loads(as_json.stdout)["error"]["kind"] == "failed"
    assert _stored() == (0, 0)  # no failed run, nothing counted against the demo server's health

    demo = DemoServer(DemoOptions(port=reserved.release()))
    demo.start()
    try:
        done = run_cli("call", DEMO_ENTRY_NAME, "echo", "--args", '{"text": "hi"}')
    finally:
        demo.stop()
    assert done.returncode == 0, done.stderr
    assert _stored() == (1, 0)


def test_the_demo_entry_is_listed_and_named_in_the_users_language_and_stored_as_it_was() -> None:
    """`servers` in German listed the window's demo entry as "Demo server" where its sentences say "Demo-Server";
    the name listed is the name a user types, so it names the entry too. The stored name, `--json` and
    another server the user named "Demo server" (at an address the window never gives it) stay as they are."""
    reserved = ReservedPort()
    port = reserved.port
    url = f"http://127.0.0.1:{port}/mcp"
    store = RunStore.open(resolve_db_path())
    ServerRegistry(store.db).save_server(url, name=DEMO_ENTRY_NAME)
    ServerRegistry(store.db).save_server("http://example.com/mcp", name=DEMO_ENTRY_NAME)
    store.close()

    listed = run_cli("--lang", "de", "servers").stdout.splitlines()
    assert [line.split("  ")[0] for line in listed[1::2]] == ["Demo-Server", "Demo server"], listed
    assert [line.split("  ")[0] for line in run_cli("servers").stdout.splitlines()[1::2]] == ["Demo server"] * 2
    assert [server["name"] for server in json.loads(run_cli("--lang", "de", "servers", "--json").stdout)["servers"]] \
        == [DEMO_ENTRY_NAME] * 2
    called = run_cli("--lang", "de", "call", "Demo-Server", "echo")  # the name listed: the entry it lists
    assert called.returncode == 1 and called.stderr.startswith(f"run-inspector: Demo-Server läuft nicht: unter {url}")
    listed_runs = run_cli("--lang", "de", "runs", "list", "--server", "Demo-Server")
    assert listed_runs.returncode == 0 and url in listed_runs.stdout, listed_runs  # "no run on <its address>"

    demo = DemoServer(DemoOptions(port=reserved.release()))
    demo.start()
    try:
        called = run_cli("--lang", "de", "call", "Demo-Server", "echo", "--args", '{"text": "hi"}')
        as_json = run_cli("--lang", "de", "call", "Demo-Server", "echo", "--args", '{"text": "hi"}', "--json")
    finally:
        demo.stop()
    assert called.stdout.startswith("tools/call echo auf Demo-Server: ok"), called.stdout
    assert json.loads(as_json.stdout)["server"] == DEMO_ENTRY_NAME  # as stored, in every language



def _demo_entry_stored() -> None:
    store = RunStore.open(resolve_db_path())
    ServerRegistry(store.db).save_server("http://127.0.0.1:45678/mcp", name=DEMO_ENTRY_NAME)  # the window's shape
    store.close()


def test_removing_the_demo_entry_names_it_as_servers_lists_it() -> None:
    """`servers remove Demo-Server` in German said "Demo server entfernt", the stored name, where `servers` lists
    the entry as "Demo-Server"; `--json` keeps the name stored."""
    for language, typed, said in (("de", "Demo-Server", "Demo-Server entfernt; seine Läufe bleiben gespeichert.\n"),
                                  ("en", DEMO_ENTRY_NAME, "Removed Demo server; its runs stay stored.\n")):
        _demo_entry_stored()
        removed = run_cli("--lang", language, "servers", "remove", typed)
        assert removed.returncode == 0 and removed.stdout == said, removed
    _demo_entry_stored()
    as_json = run_cli("--lang", "de", "servers", "remove", "Demo-Server", "--json")
    assert json.loads(as_json.stdout)["name"] == DEMO_ENTRY_NAME
