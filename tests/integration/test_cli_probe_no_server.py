"""A `server/discover` probe at an address where no MCP server answers (a web server's root, a wrong path:
404 to every request), on the command line. The probe, the handshake and the older transport's event stream
are all refused and the call fails: the probe's leg said "not offered: the server speaks the handshake era",
an era nothing there speaks. It says what it saw, "no era found: answered HTTP 404", in English and German,
in `call` and `runs show`; its `finding` in `--json` is `null` (found nothing but its answer). A server of
the older HTTP+SSE transport refuses the probe too, and its leg still says the era (its stream opened)."""

from __future__ import annotations

import json
from pathlib import Path

from starlette.applications import Starlette

from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here, main_output, probe_line
from tests.support.stdio_server import server as sdk_server

SAID = {"en": "no era found: answered HTTP 404", "de": "keine Ära gefunden: Antwort HTTP 404"}
ERA = {"en": "not offered: the server speaks the handshake era",
       "de": "nicht angeboten: der Server spricht die Handshake-Ära"}


def test_a_probe_where_no_server_answers_says_what_it_saw_not_an_era(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    with serve_asgi(Starlette(), "/") as url:  # no routes: 404 to everything
        called = {language: cli_here("--lang", language, "call", url, "echo", "--args", '{"text": "hi"}', "--db",
                                     db, *(("--no-store",) if language == "de" else ()))
                  for language in SAID}
        as_json = json.loads(cli_here("call", url, "echo", "--no-store", "--json", "--db", db).stdout)
    for language, done in called.items():
        assert done.returncode != 0, done.stdout
        assert "no MCP server answers at this address" in done.stdout or language == "de", done.stdout
        assert probe_line(done.stdout).endswith(f"HTTP 404  {SAID[language]}"), done.stdout
        assert ERA[language] not in done.stdout
        shown = cli_here("--lang", language, "runs", "show", "last", "--db", db).stdout
        assert probe_line(shown).endswith(f"HTTP 404  {SAID[language]}") and ERA[language] not in shown, shown
    probe, initialize = as_json["legs"][:2]
    assert (probe["method"], probe["outcome"], probe["http_status"], probe["finding"]) == (
        "server/discover", "ok", 404, None)  # the stored outcome as it was; no era found
    assert (initialize["method"], initialize["http_status"], initialize["outcome"]) == ("initialize", 404, "failed")
    stored = json.loads(cli_here("runs", "show", "last", "--json", "--db", db).stdout)
    assert stored["timeline"][0]["payload"]["legs"][0]["finding"] is None


def test_a_server_of_the_older_transport_still_speaks_the_handshake_era(tmp_path: Path, capsys) -> None:
    """Its POSTs (the probe and ``initialize``) are refused too, but its event stream opens: the era holds."""
    db = str(tmp_path / "runs.db")
    with serve_asgi(sdk_server.sse_app(), "/sse") as url:
        called = main_output(capsys, "call", url, "echo", "--args", '{"text": "old"}', "--db", db)
        german = main_output(capsys, "--lang", "de", "call", url, "echo", "--args", '{"text": "old"}', "--no-store",
                             "--db", db)
        as_json = json.loads(main_output(capsys, "call", url, "echo", "--args", '{"text": "old"}', "--no-store",
                                         "--json", "--db", db))
    assert called.splitlines()[0].endswith(": ok (budget 20 s)"), called
    assert probe_line(called).endswith(f"  {ERA['en']}") and probe_line(german).endswith(f"  {ERA['de']}"), called
    assert as_json["legs"][0]["finding"] == "era_probe_refused"
    assert probe_line(main_output(capsys, "runs", "show", "last", "--db", db)).endswith(f"  {ERA['en']}")
