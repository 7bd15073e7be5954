"""Which client the sign-in is made as, in the specification's order: a pre-registered client (the
user's client id, secret or key), a Client ID Metadata Document (the address of a document the
user hosts, when the authorization server takes those), a client registered before with this
authorization server (kept by its issuer), or Dynamic Client Registration (RFC 7591)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from ..connect_reasons import connection_reason
from ..messages import N_, Message
from ..sanitize import sanitize_remote_text
from .documents import SignInProblem, bounded_body, shown
from .model import (
    METADATA_DOCUMENT,
    PRE_REGISTERED,
    REGISTERED,
    AuthorizationServer,
    ClientIdentity,
    SignInSettings,
    SignInVault,
)

CLIENT_NAME = "Run Inspector"
#: What a public client prefers to register with, best first.
_REGISTER_METHODS = ("none", "client_secret_basic", "client_secret_post")


def given_client(server: AuthorizationServer, settings: SignInSettings) -> ClientIdentity | None:
    """The client the user configured for this server (pre-registered, or a metadata document)."""
    if settings.client_id:
        method = settings.auth_method or _given_method(server, settings)
        return ClientIdentity(settings.client_id, server.issuer, PRE_REGISTERED, settings.client_secret, method,
                              settings.client_key_pem)
    if settings.client_metadata_url and server.client_metadata_documents:
        method = "private_key_jwt" if settings.client_key_pem else "none"
        return ClientIdentity(settings.client_metadata_url, server.issuer, METADATA_DOCUMENT, None, method,
                              settings.client_key_pem)
    return None


def _given_method(server: AuthorizationServer, settings: SignInSettings) -> str:
    supported = server.token_auth_methods or ("client_secret_basic",)  # RFC 8414's default
    if settings.client_key_pem:
        return "private_key_jwt"
    if not settings.client_secret:
        return "none"
    return next((method for method in supported if method in ("client_secret_basic", "client_secret_post")),
                "client_secret_basic")


def kept_client(vault: SignInVault, server: AuthorizationServer, redirect_uri: str | None) -> ClientIdentity | None:
    """A client registered before with this very issuer, usable with ``redirect_uri``."""
    client = vault.client(server.issuer)
    if client is None or client.issuer != server.issuer:
        return None
    if redirect_uri is not None and redirect_uri not in client.redirect_uris:
        return None
    return client


async def register(http: httpx.AsyncClient, server: AuthorizationServer, redirect_uri: str | None, *,
                   grant: str, scope: str | None) -> ClientIdentity:
    """Dynamic Client Registration: a native application with a loopback redirect."""
    endpoint = server.registration_endpoint
    if endpoint is None:
        raise SignInProblem(Message(N_("the authorization server {issuer} registers no clients and no client id was "
                                       "given: give the client id it issued to you"), {"issuer": shown(server.issuer)}))
    supported = server.token_auth_methods
    method = next((name for name in _REGISTER_METHODS if name in supported), "none") if supported else "none"
    body: dict[str, Any] = {"client_name": CLIENT_NAME, "application_type": "native",
                            "token_endpoint_auth_method": method}
    if grant == "client-credentials":
        body.update(grant_types=["client_credentials"], response_types=[])
    else:
        body.update(redirect_uris=[redirect_uri], grant_types=["authorization_code", "refresh_token"],
                    response_types=["code"])
    if scope:
        body["scope"] = scope
    try:
        async with http.stream("POST", endpoint, json=body, headers={"Accept": "application/json"}) as response:
            status, answer = response.status_code, _json(await bounded_body(response, endpoint))
    except httpx.HTTPError as error:
        raise SignInProblem(Message(N_("{address} could not be reached ({reason})"),
                                    {"address": shown(endpoint),
                                     "reason": connection_reason(error) or type(error).__name__})) from None
    if status not in (200, 201):
        refusal = answer or {}
        said = refusal.get("error_description") or refusal.get("error") or ""
        said = sanitize_remote_text(said, 200)
        if not said:  # nothing to quote: no ": -" after the status
            raise SignInProblem(Message(N_("the authorization server refused to register this client (HTTP status "
                                           "{status})"), {"status": status}))
        raise SignInProblem(Message(N_("the authorization server refused to register this client (HTTP status "
                                       "{status}): {said}"), {"status": status, "said": said}))
    if answer is None:
        raise SignInProblem(Message(N_("the authorization server answered the registration (HTTP status {status}) "
                                       "with something that is not a JSON object"), {"status": status}))
    client_id = answer.get("client_id")
    if not isinstance(client_id, str) or not client_id:
        raise SignInProblem(Message(N_("the authorization server registered this client but gave no client id")))
    secret = answer.get("client_secret") if isinstance(answer.get("client_secret"), str) else None
    issued_method = answer.get("token_endpoint_auth_method")
    if not isinstance(issued_method, str) or issued_method not in ("none", "client_secret_basic",
                                                                   "client_secret_post"):
        issued_method = method if secret or method == "none" else "none"
    return ClientIdentity(client_id, server.issuer, REGISTERED, secret, issued_method,
                          redirect_uris=(redirect_uri,) if redirect_uri else ())


def _json(body: bytes) -> dict[str, Any] | None:
    """The JSON object ``body`` holds; ``None`` when it holds none."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
