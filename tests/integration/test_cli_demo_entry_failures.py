"""A call of the window's demo entry that fails says so naming the entry as `servers` lists it: "Demo-Server" in
German. The client's sentences (a time-out, an HTTP status, a redirect refused, a session the server forgot) named
it by its stored English name, "Der Server Demo server hat tools/call …", and so did the run stored, said again by
`runs show`; a call that sends a credential kept the stored name too (the sentence's quotes are scrubbed). `--json`
says the stored name in every language. A real misbehaving server on 127.0.0.1, real SQLite."""

from __future__ import annotations

import json

import pytest

from inspector.i18n.entry_names import DEMO_ENTRY_NAME
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from tests.support.asgi_server import ReservedPort
from tests.support.cli_process import cli_here
from tests.support.fault_server import FaultServer

SHOWN = {"en": "Demo server", "de": "Demo-Server"}


def _demo_entry(url: str) -> None:
    with RunStore.open(resolve_db_path()) as store:
        ServerRegistry(store.db).save_server(url, name=DEMO_ENTRY_NAME)


def _failing(how: str):
    def work(exchange) -> None:
        if how == "stall":
            exchange.stall()
        else:
            exchange.send(int(how), b"", content_type=None)
    return work


#: How each failure begins its sentence, in English and German, the server named as said.
SAID = {
    "stall": {"en": "The server {name} did not finish answering tools/call within the ",  # its grant, or the budget
              "de": "Der Server {name} hat tools/call nicht innerhalb der "},
    "500": {"en": "The server {name} answered tools/call with HTTP status 500 (Internal Server Error).",
            "de": "Der Server {name} hat tools/call mit dem HTTP-Status 500 (Internal Server Error) beantwortet."},
    "302": {"en": "The server {name} answered tools/call with HTTP status 302 (Found). Redirects are not followed",
            "de": "Der Server {name} hat tools/call mit dem HTTP-Status 302 (Found) beantwortet. Weiterleitungen "
                  "werden nicht verfolgt"},
    "404": {"en": "The server {name} no longer knows the session of this operation (HTTP 404 on tools/call)",
            "de": "Der Server {name} kennt die Sitzung dieses Vorgangs nicht mehr (HTTP 404 auf tools/call)"},
}


@pytest.mark.parametrize(("how", "language", "credential"), [
    ("stall", "de", False), ("stall", "en", False), ("500", "de", False), ("500", "de", True), ("302", "de", False),
    ("404", "de", False)])
def test_a_failed_call_names_the_demo_entry_as_shown(how: str, language: str, credential: bool) -> None:
    said = SAID[how][language].format(name=SHOWN[language])
    sent = ("--header", "Authorization: Bearer s3cret-t0ken-value") if credential else ()
    with FaultServer("session", work=_failing(how)) as server:
        _demo_entry(server.url)
        called = cli_here("--lang", language, "call", SHOWN[language], "echo", "--budget", "1", *sent)
        as_json = cli_here("--lang", language, "call", SHOWN[language], "echo", "--budget", "1", "--json", *sent)
    assert called.returncode == 1 and said in called.stdout, called.stdout
    assert json.loads(as_json.stdout)["error"]["message"].startswith(SAID[how]["en"].format(name=DEMO_ENTRY_NAME))
    shown = cli_here("--lang", language, "runs", "show", "1")  # the run stored, said again in the reader's language
    assert said.split(" (")[0] in shown.stdout, shown.stdout


def test_the_demo_entry_not_running_is_said_in_english_with_its_stored_name_in_json() -> None:
    """`--json` said "Demo-Server is not running: …" of a German user's entry: English words, a German name."""
    address = f"http://127.0.0.1:{ReservedPort().port}/mcp"
    _demo_entry(address)
    refused = cli_here("--lang", "de", "call", "Demo-Server", "echo", "--json")
    assert json.loads(refused.stdout)["error"]["message"].startswith(f"Demo server is not running: nothing listens "
                                                                     f"at {address}.")
    said = cli_here("--lang", "de", "call", "Demo-Server", "echo")
    assert said.stderr.startswith(f"run-inspector: Demo-Server läuft nicht: unter {address} lauscht nichts."), said
