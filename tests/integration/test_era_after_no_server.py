"""The era ``auto`` remembers for an address is one a server there spoke (answered ``server/discover`` or
``initialize``), not one guessed from a probe nothing answered: a call to an address where no MCP server
answers (HTTP 404 to everything) remembered the handshake era, so the next call skipped the probe and spoke
the handshake to the server that came there later, though it speaks the stateless era. Real servers on
127.0.0.1 (the same address: 404 first, then the official SDK's server), the command line, its database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspector.mcp import ServerEndpoint
from inspector.store import RunStore, StoredEras
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here
from tests.support.sdk_server import build_sdk_server
from tests.support.stdio_server import server as older_server

ARGS = ("--args", '{"text": "hi"}')


class NotYet:
    """An ASGI app that answers HTTP 404 to every request until ``serving``, then is ``app`` (whose
    lifespan runs from the start)."""

    def __init__(self, app: Any) -> None:
        self.app, self.serving = app, False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or self.serving:
            await self.app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"Not Found"})


def remembered(db: Path, url: str) -> str | None:
    with RunStore.open(db) as store:
        return StoredEras(store).recall(ServerEndpoint(url).key)


def test_a_call_where_no_server_answers_remembers_no_era_and_the_server_there_later_is_probed(
        tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    app = NotYet(build_sdk_server().streamable_http_app(json_response=False, stateless_http=False))
    with serve_asgi(app) as url:
        failed = cli_here("call", url, "echo", *ARGS, "--json", "--db", str(db))
        assert failed.returncode != 0, failed.stdout
        assert [leg["http_status"] for leg in json.loads(failed.stdout)["legs"][:2]] == [404, 404]
        assert remembered(db, url) is None  # was "handshake"
        app.serving = True
        called = cli_here("call", url, "echo", *ARGS, "--json", "--db", str(db))
    assert called.returncode == 0, called.stdout + called.stderr
    answer = json.loads(called.stdout)
    # Probed again (it began with initialize, the handshake era remembered):
    assert [leg["method"] for leg in answer["legs"]] == ["server/discover", "tools/list", "tools/call"]
    assert answer["era"] == "stateless"
    assert remembered(db, url) == "stateless"


def test_a_server_of_the_older_transport_is_remembered_to_speak_the_handshake_era(tmp_path: Path) -> None:
    """Its POSTs are refused with 404 as a wrong address's are, but it answers ``initialize`` on its event
    stream: the era is remembered, and the next call does not probe."""
    db = tmp_path / "runs.db"
    with serve_asgi(older_server.sse_app(), "/sse") as url:
        first = cli_here("call", url, "echo", *ARGS, "--json", "--db", str(db))
        assert remembered(db, url) == "handshake"
        second = cli_here("call", url, "echo", *ARGS, "--json", "--db", str(db))
    assert first.returncode == 0 and second.returncode == 0, first.stdout + second.stdout
    assert json.loads(first.stdout)["legs"][0]["method"] == "server/discover"
    assert "server/discover" not in [leg["method"] for leg in json.loads(second.stdout)["legs"]]
