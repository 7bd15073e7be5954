"""A server's JSON-RPC answer of the wrong shape, said in words: ``"result": [1, 2]`` was "it carries neither a result
nor an error" (it carries one, not an object), and an error with ``"code": "x"`` was shown as JSON-RPC error 0 (a code
it never sent). Now: its result is not a JSON object; an error whose code, ``"x"``, is not an integer, as it was sent,
plain text (a control or bidirectional character as its JSON escape). In English and German; a real misbehaving HTTP
server on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here
from tests.support.fault_server import FaultServer

#: (what the server answers tools/call with, what the sentence says in English, in German)
ANSWERS = [
    (lambda ex: ex.send_result([1, 2]), "malformed",
     "sent a malformed answer to tools/call: its result is not a JSON object.",
     "hat auf tools/call eine fehlerhafte Antwort gesendet: ihr Resultat ist kein JSON-Objekt."),
    (lambda ex: ex.send_json({"jsonrpc": "2.0", "id": ex.request.rpc_id, "error": "no"}), "malformed",
     "sent a malformed answer to tools/call: its error is not a JSON object.",
     "hat auf tools/call eine fehlerhafte Antwort gesendet: ihr Fehler ist kein JSON-Objekt."),
    (lambda ex: ex.send_rpc_error("x", "not today"), "rpc_error",
     'rejected tools/call with a JSON-RPC error whose code, "x", is not an integer: not today.',
     'hat tools/call mit einem JSON-RPC-Fehler abgelehnt, dessen Code "x" keine ganze Zahl ist: not today.'),
    (lambda ex: ex.send_rpc_error("a\x1b[31mb\u202e", "no"), "rpc_error",
     'rejected tools/call with a JSON-RPC error whose code, "a\\u001b[31mb\\u202e", is not an integer: no.',
     'hat tools/call mit einem JSON-RPC-Fehler abgelehnt, dessen Code "a\\u001b[31mb\\u202e" keine ganze Zahl '
     "ist: no."),
]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(("work", "kind", "english", "german"), ANSWERS)
def test_an_answer_of_the_wrong_shape_is_said_in_words(tmp_path: Path, lang: str, work, kind: str, english: str,
                                                      german: str) -> None:
    with FaultServer("stateless", work=work) as server:
        done = cli_here("--lang", lang, "--db", str(tmp_path / "runs.db"), "call", server.url, "echo")
        kept = cli_here("--db", str(tmp_path / "runs.db"), "call", server.url, "echo", "--json")
    assert done.returncode == 1, done.stderr
    said = " ".join(done.stdout.split())
    sentence = f"{'The server' if lang == 'en' else 'Der Server'} {server.url} " + (english if lang == "en" else german)
    assert sentence in said, said
    assert "neither" not in said and "error 0" not in said and "Fehler 0" not in said
    error = json.loads(kept.stdout)["error"]  # --json says it in English
    assert error["kind"] == kind and " ".join(error["message"].split()) == f"The server {server.url} {english}"
