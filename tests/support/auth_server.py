"""A protected MCP server and its OAuth authorization server on one loopback origin, for tests.

One ASGI app is both:

- the authorization server: RFC 8414 metadata (issuer = the origin plus ``issuer_path``, found by
  path insertion), ``/authorize`` (answers ``302`` to the client's redirect URI at once, so a
  "browser" that follows one redirect completes the flow with no person — as the conformance
  suite's mock does), ``/token`` (code + PKCE, refresh with rotation, client credentials),
  ``/register`` (RFC 7591);
- the protected resource: Protected Resource Metadata (RFC 9728) at the path-aware well-known
  address, and the official SDK's Streamable HTTP server at ``/mcp`` behind a bearer check
  (``401`` with a ``WWW-Authenticate`` challenge without a valid token; ``403
  insufficient_scope`` for the ``write_note`` tool without ``mcp:write``).

Every request is recorded (:attr:`AuthServer.seen`). Use::

    with serve_auth_server(AuthConfig(expires_in=2)) as auth:
        auth.mcp_url, auth.issuer, auth.seen, auth.secrets(), auth.mint()

The knobs are :class:`tests.support.auth_config.AuthConfig`'s fields.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl

from mcp.server.mcpserver import MCPServer
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from tests.support.asgi_server import serve_asgi
from tests.support.auth_config import READ_SCOPE, WRITE_SCOPE, AuthConfig, Seen
from tests.support.auth_endpoints import Endpoints
from tests.support.sdk_server import build_sdk_server

Handler = Callable[[Request], Awaitable[Response]]
PRM_ROOT = "/.well-known/oauth-protected-resource"
#: Where the older HTTP+SSE transport takes the client's messages.
MESSAGES = "/messages/"


def build_protected_mcp(step_up_tool: str = "write_note") -> MCPServer:
    """The SDK test server (echo, add, slow, ...) plus the tool that needs the larger scope."""
    server = build_sdk_server()

    async def write_note(text: str) -> str:
        return f"noted: {text}"

    server.add_tool(write_note, name=step_up_tool, description=f"Needs the {WRITE_SCOPE} scope.")
    return server


class AuthServer:
    """The ASGI app (see the module's docstring). ``origin`` is set once it listens."""

    def __init__(self, config: AuthConfig | None = None, mcp_server: MCPServer | None = None) -> None:
        self.config = config or AuthConfig()
        self.endpoints = Endpoints(self.config)
        self.seen: list[Seen] = []
        self._origin = ""
        #: Whose tokens the MCP endpoint accepts (another server's after :meth:`migrate_to`).
        self.token_issuers: list[Endpoints] = [self.endpoints]
        server = mcp_server or build_protected_mcp(self.config.step_up_tool)
        if self.config.transport == "sse":
            self._mcp_app = server.sse_app(sse_path=self.config.mcp_path, message_path=MESSAGES)
        else:
            self._mcp_app = server.streamable_http_app(streamable_http_path=self.config.mcp_path,
                                                       stateless_http=self.config.stateless,
                                                       json_response=self.config.json_response)

    # --- addresses -----------------------------------------------------------------------
    @property
    def origin(self) -> str:
        return self._origin

    @origin.setter
    def origin(self, value: str) -> None:
        self._origin = value.rstrip("/")
        self.endpoints.issuer = self.issuer
        self.endpoints.resource_of = self.published_resource

    @property
    def issuer(self) -> str:
        return self._origin + self.config.issuer_path

    @property
    def mcp_url(self) -> str:
        return self._origin + self.config.mcp_path

    def published_resource(self) -> str:
        """The ``resource`` the PRM states; authorization and token requests must name it."""
        return self.config.prm_resource or self.mcp_url

    @property
    def prm_url(self) -> str:
        """Where the challenge says the Protected Resource Metadata is."""
        where = self.config.prm_at
        path = where if where.startswith("/") else PRM_ROOT if where == "root" else PRM_ROOT + self.config.mcp_path
        return self._origin + path

    @property
    def metadata_url(self) -> str:
        """The RFC 8414 address of the authorization-server metadata (path insertion)."""
        return self._origin + "/.well-known/oauth-authorization-server" + self.config.issuer_path

    def endpoint(self, name: str) -> str:
        """``authorize``, ``token`` or ``register``: that endpoint's URL."""
        return self.issuer + "/" + name

    # --- what tests read -----------------------------------------------------------------
    def requests(self, path: str | None = None, method: str | None = None) -> list[Seen]:
        """The recorded requests, optionally only to ``path`` (or an endpoint's name) and by ``method``."""
        if path in ("authorize", "token", "register"):
            path = self.config.issuer_path + "/" + path
        return [seen for seen in list(self.seen)
                if (path is None or seen.path == path) and (method is None or seen.method == method)]

    def secrets(self) -> set[str]:
        """Every code, access token, refresh token and client secret it ever issued or knew."""
        return self.endpoints.issued.secrets() | self.endpoints.client_secrets()

    def secrets_in_urls(self) -> list[Seen]:
        """The requests whose URL held something secret (a token, a code, a client secret): none, ever."""
        known = self.secrets()
        return [seen for seen in self.requests() if any(secret in seen.url for secret in known)]

    def mint(self, scope: str = READ_SCOPE, expires_in: float | None = None, refresh: bool = False) -> dict[str, Any]:
        """A token response as if a sign-in had happened (for tests that start signed in)."""
        return self.endpoints.mint(scope, expires_in=expires_in, refresh=refresh)

    def expire_tokens(self) -> None:
        """Every access token issued so far stops working now (so a test need not wait)."""
        for endpoints in self.token_issuers:
            endpoints.expire()

    def migrate_to(self, other: AuthServer) -> None:
        """The resource moves to ``other``'s authorization server: the PRM names ``other``'s issuer
        and the MCP endpoint accepts only tokens ``other`` issues for it (old ones answer 401)."""
        other.endpoints.resource_of = self.published_resource
        self.token_issuers = [other.endpoints]
        self.config.prm_authorization_servers = (other.issuer,)

    # --- the documents -------------------------------------------------------------------
    def metadata(self) -> dict[str, Any]:
        config = self.config
        document: dict[str, Any] = {
            "issuer": config.metadata_issuer or self.issuer,
            "authorization_endpoint": self.endpoint("authorize"),
            "token_endpoint": self.endpoint("token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "token_endpoint_auth_methods_supported": list(config.token_auth_methods),
        }
        if config.registration:
            document["registration_endpoint"] = self.endpoint("register")
        if config.scopes_supported is not None:
            document["scopes_supported"] = list(config.scopes_supported)
        if config.code_challenge_methods is not None:
            document["code_challenge_methods_supported"] = list(config.code_challenge_methods)
        if config.advertise_iss:
            document["authorization_response_iss_parameter_supported"] = True
        if config.cimd_supported:
            document["client_id_metadata_document_supported"] = True
        return document

    def resource_metadata(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "resource": self.published_resource(),
            "authorization_servers": list(self.config.prm_authorization_servers or (self.issuer,)),
            "bearer_methods_supported": ["header"],
        }
        if self.config.scopes_supported is not None:
            document["scopes_supported"] = list(self.config.scopes_supported)
        return document

    def _routes(self) -> dict[tuple[str, str], Handler]:
        async def metadata(request: Request) -> Response:
            return JSONResponse(self.metadata())

        async def resource(request: Request) -> Response:
            return JSONResponse(self.resource_metadata())

        config, issuer_path = self.config, self.config.issuer_path
        routes: dict[tuple[str, str], Handler] = {
            ("GET", issuer_path + "/authorize"): self.endpoints.authorize,
            ("POST", issuer_path + "/token"): self.endpoints.token,
        }
        if config.registration:
            routes["POST", issuer_path + "/register"] = self.endpoints.register
        where = {"oauth": "/.well-known/oauth-authorization-server" + issuer_path,
                 "oidc-insert": "/.well-known/openid-configuration" + issuer_path,
                 "oidc-append": issuer_path + "/.well-known/openid-configuration"}
        for kind in config.metadata_at:
            routes["GET", where[kind]] = metadata
        if config.prm_at in ("path", "both"):
            routes["GET", PRM_ROOT + config.mcp_path] = resource
        if config.prm_at in ("root", "both"):
            routes["GET", PRM_ROOT] = resource
        if config.prm_at.startswith("/"):
            routes["GET", config.prm_at] = resource
        return routes

    # --- the protected resource ----------------------------------------------------------
    def challenge(self, error: str | None = None, scope: str | None = None) -> str:
        """The ``WWW-Authenticate`` value the MCP endpoint answers with."""
        params = []
        if error:
            params.append(f'error="{error}"')
        if scope:
            params.append(f'scope="{scope}"')
        if self.config.challenge_resource_metadata:
            where = self.prm_url.removeprefix(self._origin) if self.config.challenge_relative_metadata else self.prm_url
            params.append(f'resource_metadata="{where}"')
        return "Bearer " + ", ".join(params) if params else "Bearer"

    def _guard(self, seen: Seen) -> Response | None:
        """401 without a valid token, 403 for the step-up tool without the larger scope."""
        header = seen.authorization or ""
        token = header[7:].strip() if header[:7].lower() == "bearer " else None
        grant = next((found for found in (issuer.valid(token) for issuer in self.token_issuers) if found), None) \
            if token else None
        if grant is None:
            value = self.challenge("invalid_token" if token else None, self.config.challenge_scope)
            return PlainTextResponse("sign-in required", status_code=401, headers={"WWW-Authenticate": value})
        body = seen.json if isinstance(seen.json, dict) else {}
        params = body.get("params") if isinstance(body.get("params"), dict) else {}
        if body.get("method") == "tools/call" and params.get("name") == self.config.step_up_tool and (
                self.config.endless_step_up or WRITE_SCOPE not in grant.scope.split()):
            value = self.challenge("insufficient_scope", f"{READ_SCOPE} {WRITE_SCOPE}")
            return PlainTextResponse("insufficient scope", status_code=403, headers={"WWW-Authenticate": value})
        return None

    # --- ASGI ----------------------------------------------------------------------------
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self._mcp_app(scope, receive, send)  # the lifespan runs the SDK's session manager
            return
        body = b""
        if scope["method"] in ("POST", "PUT", "PATCH"):
            while True:  # read it all, to record it; then hand it on unchanged
                message = await receive()
                body += message.get("body", b"")
                if not message.get("more_body") or message["type"] != "http.request":
                    break
        seen = _record(scope, body)
        self.seen.append(seen)
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        if scope["path"] == self.config.mcp_path or (
                self.config.transport == "sse" and scope["path"].startswith(MESSAGES)):
            refusal = self._guard(seen)
            if refusal is not None:
                await refusal(scope, replay, send)
            else:
                await self._mcp_app(scope, replay, send)
            return
        handler = self._routes().get((scope["method"], scope["path"]))
        response = await handler(Request(scope, replay)) if handler else PlainTextResponse("not found", 404)
        await response(scope, replay, send)


def _record(scope: dict[str, Any], body: bytes) -> Seen:
    headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
    kind = headers.get("content-type", "").split(";")[0].strip()
    form = parsed = None
    if kind == "application/x-www-form-urlencoded":
        form = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    elif kind == "application/json":
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
    return Seen(scope["method"], scope["path"], scope.get("query_string", b"").decode("latin-1"), headers, body,
                form, parsed)


@contextmanager
def serve_auth_server(config: AuthConfig | None = None, mcp_server: MCPServer | None = None) -> Iterator[AuthServer]:
    """Serve an :class:`AuthServer` on 127.0.0.1 (a free port) in a thread; yield it, listening."""
    server = AuthServer(config, mcp_server)
    with serve_asgi(server, path="") as origin:
        server.origin = origin
        yield server
