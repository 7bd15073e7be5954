"""The recording proxy keeps no credential: not the agent's, not those in the address it forwards to.

A real agent (the official SDK client) sends its token through the proxy to the demo server,
whose ``echo`` tool repeats it; the address given to the proxy carries a password and an API key
in its query. Nothing stored (runs, steps, legs, the server's health) and nothing the proxy says
to the agent holds any of them.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import httpx
import httpx2
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from inspector.capture.proxy import ProxyServer
from inspector.demo import DemoServer

AGENT_TOKEN = "agent-tok-7f3a9c2e11"
PASSWORD = "pw-9d81e0c4aa"
API_KEY = "key-5b6c7d8e9f"
QUERY_TOKEN = "qtok-31415926"


def everything_stored(db: Path) -> str:
    """Every value of every table of the database, as one text (step payloads included)."""
    connection = sqlite3.connect(db)
    try:
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        text = []
        for table in tables:
            for row in connection.execute(f'SELECT * FROM "{table}"'):  # noqa: S608 - the database's own names
                text += [value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value) for value in row]
        return "\n".join(text)
    finally:
        connection.close()


def with_credentials(url: str) -> str:
    scheme, rest = url.split("://")
    return f"{scheme}://user:{PASSWORD}@{rest}?api_key={API_KEY}"


async def _agent(url: str) -> str:
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {AGENT_TOKEN}"}) as http, \
            streamable_http_client(f"{url}?token={QUERY_TOKEN}", http_client=http) as (read, write, *_), \
            ClientSession(read, write) as session:
        await session.initialize()
        echoed = await session.call_tool("echo", {"text": f"my token is {AGENT_TOKEN}"})
        return echoed.content[0].text


def test_no_credential_is_stored_from_a_session_through_the_proxy(tmp_path: Path) -> None:
    import anyio

    db = tmp_path / "runs.db"
    with DemoServer() as demo, ProxyServer(with_credentials(demo.url), db) as proxy:
        echoed = anyio.run(_agent, proxy.url)
    assert AGENT_TOKEN in echoed  # the agent gets what the server said, unchanged
    stored = everything_stored(db)
    assert "tools/call echo" in stored and "my token is [REDACTED]" in stored
    for secret in (AGENT_TOKEN, PASSWORD, API_KEY, QUERY_TOKEN):
        assert secret not in stored, secret


def test_the_proxys_own_answer_to_the_agent_names_no_credential_of_the_address(tmp_path: Path) -> None:
    with DemoServer() as gone:
        url = gone.url
    db = tmp_path / "runs.db"
    with ProxyServer(with_credentials(url), db) as proxy:
        answer = httpx.post(proxy.url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=10,
                            headers={"Accept": "application/json, text/event-stream"})
    assert answer.status_code == 502 and "could not reach the server" in answer.text
    assert url in answer.text
    stored = everything_stored(db)
    for secret in (PASSWORD, API_KEY):
        assert secret not in answer.text and secret not in json.dumps(answer.json()), secret
        assert secret not in stored, secret
