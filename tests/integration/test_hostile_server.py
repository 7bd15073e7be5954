"""A hostile server against the command line: text that is not Unicode, lines forged with
newlines and bidirectional controls, a 1 MB header. The call's outcome is always printed and
stored; nothing is left `interrupted`."""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import json
import sqlite3
import subprocess
from pathlib import Path

from tests.support.cli_process import cli_here
from tests.support.fault_server import Exchange, FaultServer


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line writing UTF-8 (what it says and stores, not its process: in this one)."""
    return cli_here(*args, env={"PYTHONIOENCODING": "utf-8"})


def statuses(db: str) -> list[str]:
    return [row[0] for row in sqlite3.connect(db).execute("SELECT status FROM runs ORDER BY id")]


def test_a_lone_surrogate_in_a_tool_result_is_repaired_once_and_everything_works(tmp_path: Path) -> None:
    def work(exchange: Exchange) -> None:  # json.dumps spells the surrogate as the escape \udc00
        exchange.send_result({"content": [{"type": "text", "text": "a\udc00b"}],
                              "structuredContent": {"k\udfff": ["v\ud800"]}})

    db = str(tmp_path / "runs.db")
    with FaultServer("session", work=work) as server:
        assert b"\\udc00" in json.dumps({"t": "a\udc00b"}).encode()
        readable = cli("call", server.url, "echo", "--db", db)
        as_json = cli("call", server.url, "echo", "--json", "--db", db)
        assert server.wait_until(lambda: sum(r.http_method == "DELETE" for r in server.received) == 2)
    assert readable.returncode == 0, readable.stderr
    assert "a\ufffdb" in readable.stdout
    assert as_json.returncode == 0, as_json.stderr
    report = json.loads(as_json.stdout)
    assert report["content"] == "a\ufffdb"
    assert report["structured_content"] == {"k\ufffd": ["v\ufffd"]}
    assert statuses(db) == ["ok", "ok"]
    shown = cli("runs", "show", "1", "--json", "--db", db)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["timeline"][0]["payload"]["toolResult"] == "a\ufffdb"
    exported = cli("export", "--all", "-o", str(tmp_path / "out.json"), "--db", db)
    assert exported.returncode == 0, exported.stderr


def test_a_lone_surrogate_in_an_event_stream_answer_is_repaired_too(tmp_path: Path) -> None:
    def work(exchange: Exchange) -> None:
        answer = {"jsonrpc": "2.0", "id": exchange.request.rpc_id,
                  "result": {"content": [{"type": "text", "text": "x\udc00y"}]}}
        exchange.send_events([json.dumps(answer)])

    db = str(tmp_path / "runs.db")
    with FaultServer("stateless", work=work) as server:
        done = cli("call", server.url, "echo", "--json", "--db", db)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"] == "x\ufffdy"
    assert statuses(db) == ["ok"]


FORGED = "done\nFAKE: ok\r\u202eko :EKAF"


def test_remote_text_cannot_forge_lines_in_the_readable_output(tmp_path: Path) -> None:
    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            exchange.send_result({"tools": [{"name": f"tool{FORGED}", "description": f"desc{FORGED}"}]})
        else:
            exchange.send_result({"content": [{"type": "text", "text": "fine"}]})

    db = str(tmp_path / "runs.db")
    with FaultServer("session", work=work) as server:
        tools = cli("tools", server.url, "--db", db)
        named = cli("servers", "set", server.url, "--name", f"srv{FORGED}", "--db", db)
        call = cli("call", server.url, f"tool{FORGED}", "--db", db)
    assert tools.returncode == 0 and named.returncode == 0 and call.returncode == 0, (tools.stderr, call.stderr)
    listed = cli("runs", "list", "--db", db)
    shown = cli("runs", "show", "2", "--db", db)
    servers = cli("servers", "--db", db)
    for done in (tools, call, listed, shown, servers):
        lines = done.stdout.splitlines()
        assert not any(line.startswith("FAKE") for line in lines), done.stdout
        assert "\r" not in done.stdout and "\u202e" not in done.stdout, done.stdout
    assert "\u23ce FAKE: ok" in call.stdout  # shown, visibly, on the line it belongs to


def test_a_1_mb_response_header_is_a_malformed_answer(tmp_path: Path) -> None:
    def work(exchange: Exchange) -> None:
        exchange.send_json({"jsonrpc": "2.0", "id": exchange.request.rpc_id, "result": {"content": []}},
                           headers={"X-Huge": "h" * 1_000_000})

    with FaultServer("session", work=work) as server:
        done = cli("call", server.url, "echo", "--json", "--no-store")
    assert done.returncode == 1, done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["kind"] == "malformed", error
    assert "header" in error["message"]


def test_a_server_that_hangs_up_without_answering_is_said_in_our_words_in_german(tmp_path: Path) -> None:
    """The HTTP library's "Server disconnected without sending a response." is English only (and
    ended the sentence with two full stops): the reader is told in their language what happened."""
    def hang_up(exchange: Exchange) -> None:
        exchange.answered = True  # no answer at all: the connection is closed
        exchange._handler.close_connection = True

    with FaultServer("session", work=hang_up) as server:
        german = cli("--lang", "de", "call", server.url, "echo", "--no-store")
        english = cli("call", server.url, "echo", "--no-store")
    assert german.returncode == 1 == english.returncode, (german.stderr, english.stderr)
    assert "Server disconnected" not in german.stdout + german.stderr
    assert "ist während tools/call abgerissen: Der Server hat sie geschlossen." in german.stdout, german.stdout
    assert "broke during tools/call: the server closed it." in english.stdout, english.stdout
    assert ".." not in english.stdout


def test_a_403_blames_the_credentials_only_when_some_were_sent(tmp_path: Path) -> None:
    """A server answering 403 to a client that sent no credentials was said to have "refused the
    credentials; check the headers configured for it": there were none to check."""
    def forbid(exchange: Exchange) -> None:
        exchange.send(403, b"forbidden", content_type="text/plain")

    with FaultServer("session", work=forbid) as server:
        without = cli("call", server.url, "echo", "--no-store")
        with_header = cli("call", server.url, "echo", "--no-store", "--header", "Authorization: Bearer abc")
        german = cli("--lang", "de", "call", server.url, "echo", "--no-store")
    assert without.returncode == 1 == with_header.returncode, (without.stderr, with_header.stderr)
    assert "refused the credentials" not in without.stdout, without.stdout
    assert ("answered tools/call with HTTP status 403 (Forbidden). It was sent no credentials: if it needs "
            "some, give them as the server's headers, or sign in.") in without.stdout, without.stdout
    assert "The server refused the credentials; check the headers configured for it." in with_header.stdout
    assert "Es wurden ihm keine Zugangsdaten gesendet" in german.stdout, german.stdout
