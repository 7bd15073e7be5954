"""A client signing in by hand, in plain HTTP, against tests/support/auth_server.py — for tests that
need tokens or a registered client without the inspector's own flow — and a loopback redirect
listener standing in for a client's."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from tests.support.auth_config import READ_SCOPE
from tests.support.auth_endpoints import s256
from tests.support.auth_server import AuthServer

#: The "browser" program for ``BROWSER`` (a link to conformance/follow_redirect.py).
FOLLOW_REDIRECT = Path(__file__).resolve().parent / "follow_redirect.py"
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "t", "version": "1"}}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def register(auth: AuthServer, redirect_uri: str, **extra: Any) -> dict[str, Any]:
    """Dynamic Client Registration of a native public client; the server's answer."""
    body = {"redirect_uris": [redirect_uri], "client_name": "t", "application_type": "native",
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
            "token_endpoint_auth_method": "none", **extra}
    answer = httpx.post(auth.endpoint("register"), json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def authorize(auth: AuthServer, client_id: str, redirect_uri: str, verifier: str, scope: str = READ_SCOPE,
              **extra: str) -> dict[str, list[str]]:
    """The browser's part, by hand: the redirect's query."""
    params = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
              "code_challenge": s256(verifier), "code_challenge_method": "S256", "state": "st-1",
              "scope": scope, "resource": auth.mcp_url, **extra}
    answer = httpx.get(auth.endpoint("authorize"), params=params)
    assert answer.status_code == 302, answer.text
    location = answer.headers["location"]
    assert location.startswith(redirect_uri + "?")
    return parse_qs(urlsplit(location).query)


def sign_in(auth: AuthServer, scope: str = READ_SCOPE) -> dict[str, Any]:
    """A whole sign-in by hand (register, authorize, exchange): the token response plus ``client_id``."""
    redirect_uri = "http://127.0.0.1:4567/callback"
    client = register(auth, redirect_uri)
    verifier = secrets.token_urlsafe(40)
    code = authorize(auth, client["client_id"], redirect_uri, verifier, scope)["code"][0]
    answer = httpx.post(auth.endpoint("token"), data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "code_verifier": verifier,
        "client_id": client["client_id"], "resource": auth.mcp_url})
    assert answer.status_code == 200, answer.text
    return dict(answer.json(), client_id=client["client_id"])


@contextmanager
def redirect_listener() -> Iterator[tuple[str, list[str]]]:
    """A client's loopback redirect listener: yields its URI and the query strings it got."""
    got: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            got.append(urlsplit(self.path).query)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"signed in")

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/callback", got
    finally:
        server.shutdown()
        server.server_close()
