"""The model's API key never leaves the model request, and a server's secret headers never come
back out of what the server says: a hostile model server on loopback repeats the key in its error
("Incorrect API key provided: Bearer sk-..."), a hostile MCP server repeats its secret header; no
part of either reaches the MCP server (sampling), the ``--json`` output, the database or ``runs show``.
A model's error is quoted only in part."""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import json
import sqlite3
from pathlib import Path

import pytest

from inspector.cli import main
from tests.support.fault_server import Exchange, FaultServer
from tests.support.hostile_model import API_KEY, HostileModel, leaks

ASK_SAMPLING = [{"jsonrpc": "2.0", "id": 7, "method": "sampling/createMessage",
                 "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Say hi."}}],
                            "maxTokens": 20}}]


def database_text(db: Path) -> str:
    """Every row of every table, as SQL text."""
    connection = sqlite3.connect(db)
    try:
        return "\n".join(connection.iterdump())
    finally:
        connection.close()


def shown(db: Path, run_id: int, capsys) -> str:
    """``runs show`` of the run, as text and as JSON."""
    main(["runs", "show", str(run_id), "--db", str(db)])
    text = capsys.readouterr().out
    main(["runs", "show", str(run_id), "--json", "--db", str(db)])
    return text + capsys.readouterr().out


@pytest.mark.parametrize("shape", ["openai", "text"])
def test_sampling_never_tells_the_server_the_model_key(shape: str, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("SAMPLING_KEY_FOR_TEST", API_KEY)
    db = tmp_path / "runs.db"
    with HostileModel(shape) as model, FaultServer("session", work=lambda ex: ex.ask_client(ASK_SAMPLING)) as server:
        code = main(["call", server.url, "ask", "--allow-sampling", "--sampling-model-url", model.url,
                     "--sampling-model", "gpt-test", "--sampling-api-key-env", "SAMPLING_KEY_FOR_TEST",
                     "--json", "--db", str(db)])
        out, err = capsys.readouterr()
        reply = server.reply_to(7)
    assert code == 0, err
    assert model.seen == [f"Bearer {API_KEY}"]  # the key was sent, and repeated back
    assert reply is not None and "error" in reply.message
    told = reply.message["error"]["message"]
    assert "HTTP 401" in told
    assert leaks(json.dumps(reply.message)) == [], told
    assert leaks(out + err) == []
    report = json.loads(out)
    [exchange] = report["server_requests"][0]["exchanges"]
    assert exchange["declined"] is True and exchange["answered"]["message"] == told
    assert leaks(database_text(db)) == []
    assert leaks(shown(db, report["run_id"], capsys)) == []


@pytest.mark.parametrize("shape", ["openai", "text"])
def test_an_agent_run_never_prints_or_stores_the_model_key(shape: str, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("MODEL_KEY_FOR_TEST", API_KEY)
    db = tmp_path / "runs.db"
    with HostileModel(shape) as model, FaultServer("session") as server:
        code = main(["agent", "Say hi.", "--server", server.url, "--model-url", model.url, "--model", "gpt-test",
                     "--api-key-env", "MODEL_KEY_FOR_TEST", "--json", "--db", str(db)])
        out, err = capsys.readouterr()
        plain_code = main(["agent", "Say hi.", "--server", server.url, "--model-url", model.url, "--model",
                           "gpt-test", "--api-key-env", "MODEL_KEY_FOR_TEST", "--db", str(db)])
        plain, plain_err = capsys.readouterr()
    assert model.seen == [f"Bearer {API_KEY}"] * 2
    assert (code, plain_code) == (1, 1)
    report = json.loads(out)
    assert report["stop_reason"] == "model_error"
    assert "HTTP 401" in report["steps"][-1]["content"]
    assert leaks(out + err) == []
    assert leaks(plain + plain_err) == []
    assert "The run stopped: " in plain
    assert leaks(database_text(db)) == []
    assert leaks(shown(db, report["run_id"], capsys)) == []


@pytest.mark.parametrize("shape", ["openai", "text"])
def test_a_models_error_is_quoted_only_in_part(shape: str, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("MODEL_KEY_FOR_TEST", API_KEY)
    with HostileModel(shape) as model, FaultServer("session") as server:
        main(["agent", "Say hi.", "--server", server.url, "--model-url", model.url, "--model", "gpt-test",
              "--api-key-env", "MODEL_KEY_FOR_TEST", "--json", "--db", str(tmp_path / "runs.db")])
        report = json.loads(capsys.readouterr().out)
    said = report["steps"][-1]["content"]
    # The sentence, the address and at most 200 characters of what the model said, with a note.
    assert len(said) < 200 + 200
    assert said.endswith(" characters)") and "(cut: the first 200 of " in said
    assert leaks(said) == []
    if shape == "openai":  # the error's own message, not its JSON wrapping
        assert ("did not accept the API key (HTTP 401); check the key. It said: Incorrect API key provided: "
                "Bearer [REDACTED]. You can find") in said
        assert '{"error"' not in said


# -- a server's secret header, repeated back by a misbehaving MCP server --------------------------

HEADER_VALUE = "hdr-Secret-9f8e7d6c5b4a3210-zyxwvut"
TOKEN = "tok-0a1b2c3d4e5f6a7b8c9d0e1f-qrstuv"


def echo_headers(how: str):
    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method != "tools/call":
            exchange.send_result({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
            return
        seen = exchange.request.headers
        repeated = f"you sent x-api-key={seen.get('x-api-key')} and authorization={seen.get('authorization')}"
        if how == "rpc_error":
            exchange.send_rpc_error(-32001, f"Unauthorized: {repeated}")
        elif how == "tool_result":
            exchange.send_result({"content": [{"type": "text", "text": repeated}], "isError": True})
        elif how == "event_stream":
            exchange.open_stream()
            exchange.write_event({"jsonrpc": "2.0", "method": "notifications/message",
                                  "params": {"level": "error", "data": repeated}})
            exchange.write_event({"jsonrpc": "2.0", "method": "notifications/progress",
                                  "params": {"progressToken": "run-inspector", "progress": 1, "message": repeated}})
            exchange.write_event({"jsonrpc": "2.0", "id": exchange.request.rpc_id,
                                  "error": {"code": -32001, "message": repeated}})
        elif how == "cut_reason":  # the token where the quoted reason phrase is cut (at 80 characters)
            exchange.send(401, b"", content_type="text/plain", reason="Unauthorized " + "." * 50 + TOKEN)
        else:  # an HTTP error whose status line and body repeat everything
            exchange.send(401, repeated.encode() * 20, content_type="text/plain", reason=f"Unauthorized {repeated}")
    return work


@pytest.mark.parametrize("how", ["rpc_error", "tool_result", "event_stream", "http_error", "cut_reason"])
def test_a_servers_secret_headers_never_come_back_out(how: str, tmp_path: Path, capsys) -> None:
    db = tmp_path / "runs.db"
    with FaultServer("session", work=echo_headers(how)) as server:
        code = main(["call", server.url, "echo", "--header", f"X-Api-Key: {HEADER_VALUE}",
                     "--header", f"Authorization: Bearer {TOKEN}", "--json", "--db", str(db)])
        out, err = capsys.readouterr()
        sent = server.posts("tools/call")[0].headers
    assert (sent["x-api-key"], sent["authorization"]) == (HEADER_VALUE, f"Bearer {TOKEN}")
    assert code != 0 if how != "tool_result" else code in (0, 1)
    report = json.loads(out)
    for secret in (HEADER_VALUE, TOKEN):
        assert leaks(out + err, secret) == [], out
        assert leaks(database_text(db), secret) == []
        assert leaks(shown(db, report["run_id"], capsys), secret) == []
    assert "[REDACTED]" in out  # the server's sentence is still there, without the values


def test_a_key_where_the_excerpt_is_cut_leaves_no_part_behind() -> None:
    from inspector.agent.chat_model import error_excerpt
    from inspector.mcp import Secrets

    message = "." * 190 + f"Bearer {API_KEY} " + "more " * 100
    excerpt = error_excerpt(json.dumps({"error": {"message": message}}), Secrets([API_KEY]))
    # Scrubbed, then cut: the cut may fall in the mark, never in the key.
    assert leaks(excerpt) == [] and excerpt.startswith("." * 190 + "Bearer [RE…")
    assert excerpt.endswith(f"(cut: the first 200 of {len(message.strip())} characters)")


def test_a_model_repeating_its_key_in_an_answer_passes_none_of_it_on(tmp_path: Path, capsys, monkeypatch) -> None:
    """In its text and in a tool call's arguments: the MCP server, the output and the database get none."""
    from tests.support.asgi_server import serve_asgi
    from tests.support.fake_chat_model import FakeChatModel, answer

    def brain(body: dict) -> dict:
        if body["messages"][-1]["role"] == "tool":
            return answer(f"Done; your key was {API_KEY}.")
        return answer(f"I will echo Bearer {API_KEY}", [("echo", {"text": API_KEY})])

    monkeypatch.setenv("MODEL_KEY_FOR_TEST", API_KEY)
    db = tmp_path / "runs.db"
    fake = FakeChatModel(brain)
    with serve_asgi(fake.app(), path="/v1") as model_url, FaultServer("session") as server:
        code = main(["agent", "Say hi.", "--server", server.url, "--model-url", model_url, "--model", "gpt-test",
                     "--api-key-env", "MODEL_KEY_FOR_TEST", "--json", "--db", str(db)])
        out, err = capsys.readouterr()
        [call] = server.posts("tools/call")
    assert fake.headers[0]["authorization"] == f"Bearer {API_KEY}"
    assert code == 0, err
    assert call.params["arguments"] == {"text": "[REDACTED]"}
    assert leaks(call.body.decode()) == []
    report = json.loads(out)
    assert report["steps"][-1]["content"] == "Done; your key was [REDACTED]."
    assert leaks(out + err) == []
    assert leaks(database_text(db)) == []
    assert leaks(shown(db, report["run_id"], capsys)) == []


def test_a_header_marked_secret_is_scrubbed_whatever_its_name_says(tmp_path: Path, capsys) -> None:
    """`servers set --secret-header "X-Tenant: …"` marks a header whose name looks harmless; `call`
    scrubs its value from what the server says, as the window does."""
    db = tmp_path / "runs.db"
    value = "tenant-7c6b5a4f3e2d1c0b9a8f-secret"

    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method != "tools/call":
            exchange.send_result({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
            return
        said = f"tenant is {exchange.request.headers.get('x-tenant')}"
        exchange.send_result({"content": [{"type": "text", "text": said}]})

    with FaultServer("session", work=work) as server:
        assert main(["servers", "set", server.url, "--secret-header", f"X-Tenant: {value}", "--db", str(db)]) == 0
        capsys.readouterr()
        code = main(["call", server.url, "echo", "--header", f"X-Tenant: {value}", "--json", "--db", str(db)])
        out, err = capsys.readouterr()
        assert server.posts("tools/call")[0].headers["x-tenant"] == value
    assert code == 0
    assert leaks(out + err, value) == [] and leaks(database_text(db), value) == []
    assert "tenant is [REDACTED]" in out
