"""Credentials a call carries in shapes the rules once missed, said back by a hostile server on
127.0.0.1 in its tool result: a key in the query of an address given on the command line (never
configured), a key in a header named ``X-Auth`` or ``Authentication``. None of them reaches the
output, ``--json``, the database or ``runs show``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli import main
from tests.integration.test_secrets_scrubbed import database_text, shown
from tests.support.fault_server import Exchange, FaultServer
from tests.support.secret_search import assert_nowhere

KEY = "qk-5e4d3c2b1a09f8e7d6c5"


def echo_request(exchange: Exchange) -> None:
    """Lists one tool; its call answers with the request's path (query included) and headers."""
    if exchange.request.rpc_method != "tools/call":
        exchange.send_result({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
        return
    seen = "\n".join(f"{name}: {value}" for name, value in exchange.request.headers.items())
    exchange.send_result({"content": [{"type": "text", "text": f"you sent {exchange.request.path}\n{seen}"}]})


def called(args: list[str], db: Path, capsys) -> tuple[str, dict]:
    """The call's output as text and as JSON, and ``runs show`` of its run (both forms)."""
    assert main([*args, "--db", str(db)]) == 0
    text = "".join(capsys.readouterr())
    assert main([*args, "--json", "--db", str(db)]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    return text + out + err + shown(db, report["run_id"], capsys), report


@pytest.mark.parametrize("query", [f"api_key={KEY}", f"sig={KEY}&format=json", f"tenant=acme&code={KEY}"])
def test_the_query_of_an_address_given_on_the_command_line_is_cut_out_of_what_the_server_says(
        query: str, tmp_path: Path, capsys) -> None:
    db = tmp_path / "runs.db"
    with FaultServer("session", work=echo_request) as server:
        said, report = called(["call", f"{server.url}?{query}", "echo"], db, capsys)
        assert server.posts("tools/call")[0].path.endswith(f"?{query}")  # sent as given
    assert "you sent /mcp?[REDACTED]" in report["content"]
    assert KEY not in said and KEY not in database_text(db)
    assert_nowhere([KEY], database=db)


@pytest.mark.parametrize("header", ["X-Auth", "Authentication", "Proxy-Auth", "X-Passphrase"])
def test_a_key_in_a_header_of_an_unusual_name_is_cut_out_of_what_the_server_says(
        header: str, tmp_path: Path, capsys) -> None:
    db = tmp_path / "runs.db"
    with FaultServer("session", work=echo_request) as server:
        said, report = called(["call", server.url, "echo", "--header", f"{header}: {KEY}"], db, capsys)
        assert server.posts("tools/call")[0].headers[header.lower()] == KEY  # sent
    assert f"{header.lower()}: [REDACTED]" in report["content"]
    assert KEY not in said and KEY not in database_text(db)
    assert_nowhere([KEY], database=db)
