"""The window's demo entry named on the command line by any of its names, in any language: stored "Demo server",
shown "Demo-Server" in German. In English `call Demo-Server` was refused, so a script written on a German machine
failed under another locale. A server of the user's named "Demo-Server" wins over the demo entry, in `call` as in
`runs list --server` (which found both and said the name was ambiguous)."""

from __future__ import annotations

import json

from inspector.i18n.entry_names import DEMO_ENTRY_NAME
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from tests.support.asgi_server import ReservedPort
from tests.support.cli_process import cli_here

NAMES = (DEMO_ENTRY_NAME, "Demo-Server")


def _configured(*servers: tuple[str, str]) -> None:
    store = RunStore.open(resolve_db_path())
    for url, name in servers:
        ServerRegistry(store.db).save_server(url, name=name)
    store.close()


def test_the_demo_entry_is_called_and_its_runs_listed_by_each_of_its_names_in_each_language() -> None:
    reserved = ReservedPort()  # nothing listens: `call` says how to start the demo server, naming its address
    demo = f"http://127.0.0.1:{reserved.port}/mcp"
    _configured((demo, DEMO_ENTRY_NAME))
    for language in ("en", "de"):
        for typed in NAMES:
            called = cli_here("--lang", language, "call", typed, "echo")
            assert called.returncode == 1 and f"serve-demo --port {reserved.port}" in called.stderr, (typed, called)
            listed = cli_here("--lang", language, "runs", "list", "--server", typed)
            assert listed.returncode == 0 and demo in listed.stdout, (typed, listed)  # "no run on <its address>"


def test_a_server_of_the_users_named_as_the_demo_entry_is_shown_wins_in_call_and_runs_list() -> None:
    reserved, own = ReservedPort(), ReservedPort()
    demo, mine = f"http://127.0.0.1:{reserved.port}/mcp", f"http://127.0.0.1:{own.port}/mcp"
    _configured((demo, DEMO_ENTRY_NAME), (mine, "Demo-Server"))
    called = cli_here("call", "Demo-Server", "echo", "--json")  # the user's: called (refused), a failed run stored
    assert called.returncode == 1 and "serve-demo" not in called.stderr, called
    for language in ("en", "de"):
        listed = cli_here("--lang", language, "runs", "list", "--server", "Demo-Server", "--json")
        assert listed.returncode == 0, listed
        assert {run["server"] for run in json.loads(listed.stdout)["runs"]} == {mine}
        called = cli_here("--lang", language, "call", "Demo-Server", "echo")
        assert "serve-demo" not in called.stderr, called  # the user's again, not the demo entry
        stored = cli_here("--lang", language, "runs", "list", "--server", DEMO_ENTRY_NAME)
        assert stored.returncode == 0 and demo in stored.stdout, stored  # the stored name: the demo entry
