"""Fetching the documents that say how to sign in: the server's Protected Resource Metadata
(RFC 9728) and its authorization server's metadata (RFC 8414 / OpenID Discovery), in the order
:mod:`.discovery` gives, with the checks the specification asks for.

The addresses come from a server that is not ours: a document is read only from ``https``, or
from ``http`` on the loopback interface or the MCP server's own host (a development server);
redirects are not followed; a document larger than :data:`MAX_DOCUMENT_BYTES` is refused.
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from ..connect_reasons import connection_reason
from ..messages import N_, Message
from ..sanitize import sanitize_remote_text
from .discovery import authorization_server_metadata_urls, issuer_matches, resource_matches, resource_metadata_urls
from .model import AuthorizationServer

MAX_DOCUMENT_BYTES = 256 * 1024
#: Sent with every discovery request (the specification asks for it; servers may route by it).
PROTOCOL_HEADER = {"MCP-Protocol-Version": "2025-11-25", "Accept": "application/json"}


class SignInProblem(Exception):
    """A step of the sign-in cannot go on; ``reason`` says why (a translatable clause)."""

    def __init__(self, reason: Message, *, whole: bool = False) -> None:
        super().__init__(str(reason))
        self.reason = reason
        #: ``reason`` is a sentence of its own (a token endpoint's refusal), not a clause.
        self.whole = whole


@dataclass(frozen=True)
class ResourceMetadata:
    """What the server said about itself: its authorization servers and scopes. ``legacy`` when
    it published no metadata (a server of the 2025-03-26 revision): its own origin is then taken
    as the authorization server."""

    authorization_servers: tuple[str, ...]
    scopes_supported: tuple[str, ...] = ()
    found_at: str | None = None
    legacy: bool = False
    #: The ``resource`` the document names, exactly as written: what tokens are asked for.
    resource: str | None = None


def shown(url: str) -> str:
    """An address as a sentence may quote it."""
    return sanitize_remote_text(url, 160)


def may_fetch(url: str, server_url: str) -> bool:
    """May a document or endpoint at ``url`` be used for the server at ``server_url``?"""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return False
    if not host or parts.username or parts.password:
        return False
    if parts.scheme == "https":
        return True
    if parts.scheme != "http":
        return False
    if host == "localhost" or host == (urlsplit(server_url).hostname or "").lower():
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def bounded_body(response: httpx.Response, url: str) -> bytes:
    """The body of ``response`` (from ``url``), read no further than :data:`MAX_DOCUMENT_BYTES`:
    a larger one is refused as :class:`SignInProblem`."""
    body = bytearray()
    try:
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > MAX_DOCUMENT_BYTES:
                raise SignInProblem(Message(N_("the document at {address} is larger than {size} KiB"),
                                            {"address": shown(url), "size": MAX_DOCUMENT_BYTES // 1024}))
    except httpx.DecodingError:  # it was reached ("could not be reached (DecodingError)" before)
        raise SignInProblem(Message(N_("{address} answered, but its answer cannot be unpacked as its "
                                       "Content-Encoding header says (the answer is damaged, or a proxy changed it)"),
                                    {"address": shown(url)})) from None
    return bytes(body)


async def get_document(http: httpx.AsyncClient, url: str) -> dict[str, Any] | None:
    """The JSON object at ``url``, or ``None`` when there is none (any answer but 200, or not a
    JSON object). A connection failure is raised as :class:`SignInProblem`."""
    try:
        async with http.stream("GET", url, headers=PROTOCOL_HEADER) as response:
            if response.status_code != 200:
                return None
            body = await bounded_body(response, url)
    except httpx.HTTPError as error:
        raise SignInProblem(Message(N_("{address} could not be reached ({reason})"),
                                    {"address": shown(url),
                                     "reason": connection_reason(error) or type(error).__name__})) from None
    try:
        document = json.loads(bytes(body))
    except (ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def _names(value: Any) -> tuple[str, ...]:
    return tuple(item for item in value if isinstance(item, str) and item) if isinstance(value, list) else ()


async def find_resource_metadata(http: httpx.AsyncClient, server_url: str,
                                 challenged: str | None) -> ResourceMetadata:
    """The server's Protected Resource Metadata: at the challenge's address, else the path-aware
    well-known one, then the root's. A document for another resource stops the sign-in."""
    for url in resource_metadata_urls(server_url, challenged):
        if not may_fetch(url, server_url):
            raise SignInProblem(Message(N_("the server named {address} for its metadata, which is neither https nor "
                                           "on this machine"), {"address": shown(url)}))
        document = await get_document(http, url)
        if document is None:
            continue
        if "resource" in document and not resource_matches(document.get("resource"), server_url):
            raise SignInProblem(Message(N_("its metadata at {address} is for {resource}, not for this server"),
                                        {"address": shown(url), "resource": shown(str(document.get("resource")))}))
        servers = _names(document.get("authorization_servers"))
        if not servers:
            raise SignInProblem(Message(N_("its metadata at {address} names no authorization server"),
                                        {"address": shown(url)}))
        named = document.get("resource")
        return ResourceMetadata(servers, _names(document.get("scopes_supported")), url,
                                resource=named if isinstance(named, str) and named else None)
    return ResourceMetadata((own_origin(server_url),), legacy=True)


def own_origin(server_url: str) -> str:
    """The MCP server's origin: the authorization server a server without resource metadata (the
    2025-03-26 revision) is taken to be."""
    parts = urlsplit(server_url)
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def _same_origin(document: dict[str, Any], issuer: str) -> bool:
    """A server of the 2025-03-26 revision (no resource metadata) is its own authorization server:
    metadata at its origin that names an issuer on that origin is taken (older servers often
    put their endpoints under a path and name that as the issuer)."""
    named = document.get("issuer")
    if not isinstance(named, str):
        return False
    ours, theirs = urlsplit(issuer), urlsplit(named)
    return (ours.scheme, ours.netloc) == (theirs.scheme, theirs.netloc)


def _legacy_defaults(issuer: str) -> AuthorizationServer:
    """The endpoints a server of the 2025-03-26 revision without metadata has by default."""
    return AuthorizationServer(issuer, {
        "issuer": issuer, "authorization_endpoint": f"{issuer}/authorize", "token_endpoint": f"{issuer}/token",
        "registration_endpoint": f"{issuer}/register", "code_challenge_methods_supported": ["S256"]})


async def find_authorization_server(http: httpx.AsyncClient, issuer: str, server_url: str, *,
                                    legacy: bool) -> AuthorizationServer:
    """The authorization server's metadata (OAuth, then OpenID), its ``issuer`` checked exactly."""
    if not may_fetch(issuer, server_url):
        raise SignInProblem(Message(N_("the authorization server {address} is neither https nor on this machine"),
                                    {"address": shown(issuer)}))
    mismatched: str | None = None
    for url in authorization_server_metadata_urls(issuer):
        document = await get_document(http, url)
        if document is None:
            continue
        if not issuer_matches(document.get("issuer"), issuer) and not (legacy and _same_origin(document, issuer)):
            mismatched = mismatched or str(document.get("issuer"))
            continue
        server = AuthorizationServer(issuer, document)
        for endpoint in (server.authorization_endpoint, server.token_endpoint, server.registration_endpoint):
            if endpoint is not None and not may_fetch(endpoint, server_url):
                raise SignInProblem(Message(N_("the authorization server's endpoint {address} is neither https nor "
                                               "on this machine"), {"address": shown(endpoint)}))
        return server
    if mismatched is not None:
        raise SignInProblem(Message(N_("the metadata of {issuer} names another issuer ({named}), so it is not used"),
                                    {"issuer": shown(issuer), "named": shown(mismatched)}))
    if legacy:
        return _legacy_defaults(issuer.rstrip("/"))
    raise SignInProblem(Message(N_("no metadata was found for the authorization server {issuer}"),
                                {"issuer": shown(issuer)}))
