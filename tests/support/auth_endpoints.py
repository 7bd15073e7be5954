"""The authorization server's own endpoints — ``/authorize``, ``/token``, ``/register`` — and what
they issued (codes, access and refresh tokens, clients), for tests/support/auth_server.py.

Real checks, as an authorization server makes them: a known client, an exactly registered (or
loopback, any port) redirect URI, PKCE S256 verified at the token endpoint, ``resource`` equal to
the protected resource, the client authenticated the way it registered.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response

from tests.support.auth_clients import Authenticator, public_key_of
from tests.support.auth_config import AuthConfig, Client, is_loopback


@dataclass
class Grant:
    """What a code or a token stands for."""

    client_id: str
    scope: str
    resource: str | None
    expires_at: float = float("inf")
    redirect_uri: str | None = None
    challenge: str | None = None


@dataclass
class Issued:
    """Everything the server handed out; tests read it (e.g. to look for tokens in a database)."""

    codes: dict[str, Grant] = field(default_factory=dict)
    access: dict[str, Grant] = field(default_factory=dict)
    refresh: dict[str, Grant] = field(default_factory=dict)
    #: Tokens that were valid once (expired, rotated, revoked): still secrets.
    retired: set[str] = field(default_factory=set)

    def secrets(self) -> set[str]:
        return set(self.codes) | set(self.access) | set(self.refresh) | self.retired


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def _error(code: str, description: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code, "error_description": description}, status_code=status,
                        headers={"Cache-Control": "no-store"})


class Endpoints:
    """The OAuth endpoints of one server; ``issuer`` and ``resource_of`` are set once it listens."""

    def __init__(self, config: AuthConfig) -> None:
        self.config = config
        self.clients: dict[str, Client] = {client.client_id: client for client in config.clients}
        self.issued = Issued()
        self.issuer = ""
        #: The resource the tokens are for (what the PRM publishes; read at each request).
        self.resource_of: Callable[[], str] = lambda: ""
        #: Set when a token request arrives (before any ``token_delay``): cancel tests wait on it.
        self.token_requested = threading.Event()
        self.authenticate = Authenticator(self.client_for, lambda: {self.issuer, self.issuer + "/token"})
        self._lock = threading.Lock()

    @property
    def resource(self) -> str:
        return self.resource_of()

    # --- tokens the MCP endpoint checks --------------------------------------------------
    def mint(self, scope: str, client_id: str = "minted", expires_in: float | None = None,
             refresh: bool = False) -> dict[str, Any]:
        """Issue tokens as the token endpoint would; returns the token response."""
        lifetime = self.config.expires_in if expires_in is None else expires_in
        access = "at-" + secrets.token_urlsafe(24)
        with self._lock:
            self.issued.access[access] = Grant(client_id, scope, self.resource, time.time() + lifetime)
        answer: dict[str, Any] = {"access_token": access, "token_type": "Bearer",
                                  "expires_in": max(0, round(lifetime)), "scope": scope, **self.config.token_extra}
        if refresh:
            token = "rt-" + secrets.token_urlsafe(24)
            with self._lock:
                self.issued.refresh[token] = Grant(client_id, scope, self.resource)
            answer["refresh_token"] = token
        return answer

    def expire(self) -> None:
        """Every access token issued so far stops working now (refresh tokens still do)."""
        with self._lock:
            for grant in self.issued.access.values():
                grant.expires_at = min(grant.expires_at, time.time())

    def valid(self, token: str) -> Grant | None:
        grant = self.issued.access.get(token)
        if grant is None or grant.expires_at <= time.time() or grant.resource not in (None, self.resource):
            return None
        return grant

    # --- /authorize ----------------------------------------------------------------------
    async def authorize(self, request: Request) -> Response:
        query = request.query_params
        client = self.client_for(query.get("client_id", ""))
        if client is None and self.config.cimd_supported and query.get("client_id", "").startswith("http"):
            client = await self._metadata_client(query["client_id"])
        if client is None:
            return PlainTextResponse("unknown client_id", status_code=400)
        redirect_uri = query.get("redirect_uri", "")
        if not self._redirect_allowed(client, redirect_uri):
            return PlainTextResponse("redirect_uri not registered", status_code=400)
        state = query.get("state")

        def back(**params: str) -> Response:
            if state is not None:
                params["state"] = state
            if self.config.send_iss:
                params["iss"] = self.config.iss_value if self.config.iss_value is not None else self.issuer
            joiner = "&" if "?" in redirect_uri else "?"
            return RedirectResponse(redirect_uri + joiner + urlencode(params), status_code=302)

        problem = self._authorization_problem(query)
        if problem:
            return back(error="invalid_request", error_description=problem)
        if self.config.deny:
            return back(error="access_denied", error_description="the user refused")
        scope = query.get("scope") or (self.config.challenge_scope or "")
        unknown = set(scope.split()) - set(self.config.scopes_supported or ()) - {"offline_access"}
        if unknown and self.config.scopes_supported is not None:
            return back(error="invalid_scope", error_description="unknown scope " + " ".join(sorted(unknown)))
        code = "code-" + secrets.token_urlsafe(16)
        with self._lock:
            self.issued.codes[code] = Grant(client.client_id, scope, query.get("resource"), time.time() + 600,
                                            redirect_uri, query.get("code_challenge"))
        return back(code=code)

    def _authorization_problem(self, query: Any) -> str | None:
        if query.get("response_type") != "code":
            return "response_type must be code"
        if not query.get("code_challenge") or query.get("code_challenge_method") != "S256":
            return "PKCE with S256 is required"
        if not query.get("state"):
            return "state is required"
        if query.get("resource") is None:
            return "resource is required" if self.config.require_resource else None
        if query.get("resource") != self.resource:
            return "resource is not this server's protected resource"
        return None

    def _redirect_allowed(self, client: Client, uri: str) -> bool:
        if not client.redirect_uris:
            return is_loopback(uri)
        if uri in client.redirect_uris:
            return True
        if not (self.config.loopback_any_port and is_loopback(uri)):
            return False
        given = urlsplit(uri)
        return any(is_loopback(known) and urlsplit(known).hostname == given.hostname
                   and urlsplit(known).path == given.path for known in client.redirect_uris)

    def client_for(self, client_id: str) -> Client | None:
        with self._lock:
            return self.clients.get(client_id)

    async def _metadata_client(self, url: str) -> Client | None:
        document = self.config.metadata_documents.get(url)
        if document is None:
            try:
                async with httpx.AsyncClient(timeout=5) as http:
                    answer = await http.get(url)
                document = answer.json() if answer.status_code == 200 else None
            except (httpx.HTTPError, ValueError):
                document = None
        if not isinstance(document, dict) or document.get("client_id") != url:
            return None
        client = Client(url, None, document.get("token_endpoint_auth_method", "none"),
                        tuple(document.get("redirect_uris") or ()), how="metadata-document", metadata=document)
        with self._lock:
            self.clients[url] = client
        return client

    # --- /token --------------------------------------------------------------------------
    async def token(self, request: Request) -> Response:
        self.token_requested.set()
        if self.config.token_delay:
            await asyncio.sleep(self.config.token_delay)
        form = dict(await request.form())
        client, problem = self.authenticate(request.headers, form)
        if client is None:
            return _error("invalid_client", problem or "client authentication failed", 401)
        grant_type = form.get("grant_type")
        if grant_type not in client.grant_types:
            return _error("unauthorized_client", f"the client may not use {grant_type}")
        if self.config.require_resource and form.get("resource") != self.resource:
            return _error("invalid_target", "resource must be this server's protected resource")
        if grant_type == "authorization_code":
            return self._code_grant(client, form)
        if grant_type == "refresh_token":
            return self._refresh_grant(client, form)
        if grant_type == "client_credentials":
            scope = form.get("scope") or " ".join(self.config.scopes_supported or ())
            return JSONResponse(self.mint(scope, client.client_id), headers={"Cache-Control": "no-store"})
        return _error("unsupported_grant_type", f"{grant_type} is not supported")

    def _code_grant(self, client: Client, form: dict[str, Any]) -> Response:
        with self._lock:
            grant = self.issued.codes.pop(form.get("code", ""), None)
        if grant is not None:
            self.issued.retired.add(form.get("code", ""))
        if grant is None or grant.client_id != client.client_id or grant.expires_at < time.time():
            return _error("invalid_grant", "unknown, used or expired code")
        if form.get("redirect_uri") != grant.redirect_uri:
            return _error("invalid_grant", "redirect_uri differs from the authorization request")
        if grant.challenge is None or s256(form.get("code_verifier", "")) != grant.challenge:
            return _error("invalid_grant", "PKCE verification failed")
        answer = self.mint(grant.scope, client.client_id, refresh=self.config.issue_refresh_tokens)
        return JSONResponse(answer, headers={"Cache-Control": "no-store"})

    def _refresh_grant(self, client: Client, form: dict[str, Any]) -> Response:
        if self.config.fail_refresh_status:
            return PlainTextResponse("internal error", status_code=self.config.fail_refresh_status)
        old = form.get("refresh_token", "")
        with self._lock:
            grant = self.issued.refresh.get(old)
        if self.config.refuse_refresh or grant is None or grant.client_id != client.client_id:
            return _error("invalid_grant", "the refresh token is not valid")
        rotate = self.config.rotate_refresh_tokens and self.config.issue_refresh_tokens
        if rotate:
            with self._lock:
                self.issued.refresh.pop(old, None)
            self.issued.retired.add(old)
        answer = self.mint(form.get("scope") or grant.scope, client.client_id, refresh=rotate)
        return JSONResponse(answer, headers={"Cache-Control": "no-store"})

    # --- /register -----------------------------------------------------------------------
    async def register(self, request: Request) -> Response:
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return _error("invalid_client_metadata", "the body must be a JSON object")
        if self.config.refuse_registration:
            return _error("invalid_client_metadata", "registration is closed")
        uris = body.get("redirect_uris")
        if not isinstance(uris, list) or not uris or not all(isinstance(uri, str) for uri in uris):
            return _error("invalid_redirect_uri", "redirect_uris must be a list of addresses")
        method = body.get("token_endpoint_auth_method", "client_secret_basic")
        if method not in self.config.token_auth_methods:
            return _error("invalid_client_metadata", f"{method} is not supported")
        if body.get("application_type", "web") == "web" and any(is_loopback(uri) for uri in uris):
            # OpenID Connect's rule: a web client may not redirect to loopback (a native one may).
            return _error("invalid_redirect_uri", "a web application may not use a loopback redirect")
        grant_types = tuple(body.get("grant_types") or ("authorization_code", "refresh_token"))
        public_key = public_key_of(body.get("jwks")) if method == "private_key_jwt" else None
        if method == "private_key_jwt" and public_key is None:
            return _error("invalid_client_metadata", "private_key_jwt needs a jwks with one public key")
        secret = None if method in ("none", "private_key_jwt") else "cs-" + secrets.token_urlsafe(24)
        client = Client("dcr-" + secrets.token_urlsafe(8), secret, method, tuple(uris), grant_types,
                        body.get("application_type"), how="registered", metadata=body, public_key_pem=public_key)
        with self._lock:
            self.clients[client.client_id] = client
        answer = dict(body, client_id=client.client_id, client_id_issued_at=int(time.time()),
                      token_endpoint_auth_method=method, grant_types=list(client.grant_types))
        if client.secret:
            answer.update(client_secret=client.secret, client_secret_expires_at=0)
        return JSONResponse(answer, status_code=201, headers={"Cache-Control": "no-store"})

    def client_secrets(self) -> set[str]:
        with self._lock:
            return {client.secret for client in self.clients.values() if client.secret}
