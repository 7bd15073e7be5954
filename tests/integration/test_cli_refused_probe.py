"""A `server/discover` probe refused by a server of the handshake era, on the command line: `call`
(with the default era, `auto`) and `runs show` say what the refusal found, in English and German,
instead of a bare "ok" beside "HTTP 400". The stored outcome stays `ok` (the refusal is the
probe's finding, not a fault): `--json`, the stored leg and the server's health counts keep it.

Two refusals: the HTTP 400 of the SDKs' stateful servers (a request outside a session), and a
JSON-RPC error answered with 200 (a server without sessions: "Method not found"), which only the
leg's kept exchange tells."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.responses import Response

from tests.support.cli_process import main_output, probe_line
from tests.support.stateless_server import Seen, StatelessServer, serve_stateless

EN = "not offered: the server speaks the handshake era"
DE = "nicht angeboten: der Server spricht die Handshake-Ära"


class NoSessionServer(StatelessServer):
    """A server of the handshake era that refuses `server/discover` with a JSON-RPC error and 200."""

    def _legacy(self, seen: Seen) -> Response:
        if seen.method == "server/discover":
            return self._error(seen, -32601, "Method not found", status=200)
        return super()._legacy(seen)


@pytest.mark.parametrize(("server", "status"), [(StatelessServer(legacy=True), "HTTP 400"),
                                                (NoSessionServer(legacy=True), "HTTP 200")],
                         ids=["http-400", "rpc-error-200"])
def test_a_refused_probe_is_said_in_words_and_stays_ok(tmp_path: Path, capsys, server: StatelessServer,
                                                       status: str) -> None:
    db = str(tmp_path / "runs.db")
    with serve_stateless(server) as (_, url):
        called = main_output(capsys, "call", url, "echo", "--args", '{"text": "hi"}', "--db", db)
        answered = main_output(capsys, "--lang", "de", "call", url, "echo", "--args", '{"text": "hi"}', "--db", db,
                        "--no-store")  # not remembered: probed again
        as_json = json.loads(main_output(capsys, "call", url, "echo", "--args", '{"text": "hi"}', "--no-store",
                                  "--json", "--db", db))
    line = probe_line(called)
    assert status in line and line.endswith(f"  {EN}"), called
    assert probe_line(answered).endswith(f"  {DE}"), answered
    # The later legs are plain ok; the operation is ok.
    assert called.splitlines()[0].endswith(": ok (budget 20 s)")
    # The JSON keeps the stored value.
    assert as_json["legs"][0]["method"] == "server/discover" and as_json["legs"][0]["outcome"] == "ok"
    # Stored: the run's step, said in both languages; its leg still `ok`.
    shown = main_output(capsys, "runs", "show", "last", "--db", db)
    assert probe_line(shown).endswith(f"  {EN}") and status in probe_line(shown), shown
    assert probe_line(main_output(capsys, "--lang", "de", "runs", "show", "last", "--db", db)).endswith(f"  {DE}")
    stored: dict[str, Any] = json.loads(main_output(capsys, "runs", "show", "last", "--json", "--db", db))
    [probe] = [leg for leg in stored["timeline"][0]["payload"]["legs"] if leg["method"] == "server/discover"]
    assert probe["outcome"] == "ok"
    # The health counts: one ok operation, no failure.
    [entry] = json.loads(main_output(capsys, "servers", "--json", "--db", db))["servers"]
    assert entry["ok"] == 1 and entry["failed"] == 0, entry


def test_an_answered_probe_and_a_failed_leg_keep_their_words(tmp_path: Path, capsys) -> None:
    """A stateless server answers the probe: "ok" as before; nothing else is said differently."""
    db = str(tmp_path / "runs.db")
    with serve_stateless(StatelessServer()) as (_, url):
        called = main_output(capsys, "call", url, "echo", "--args", '{"text": "hi"}', "--db", db)
    assert probe_line(called).endswith("HTTP 200  ok"), called
    assert EN not in called
