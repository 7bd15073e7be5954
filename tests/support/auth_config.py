"""The knobs of the test authorization server (tests/support/auth_server.py), the clients it knows,
and the record of what it was sent.

Every knob defaults to a well-behaved server (RFC 8414 metadata with S256 and ``iss``, Protected
Resource Metadata at the path-aware address, Dynamic Client Registration, refresh tokens with
rotation), so a test names only the fault it is about.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

#: The scope every MCP request needs, and the larger one the ``write_note`` tool needs.
READ_SCOPE, WRITE_SCOPE = "mcp:read", "mcp:write"
#: The id and secret of the client :func:`pre_registered` makes (the conformance suite's id).
PRE_REGISTERED_ID, PRE_REGISTERED_SECRET = "pre-registered-client", "pre-registered-secret-3f9a"
#: The hosts a redirect URI may name to count as loopback (RFC 8252 section 7.3).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


@dataclass
class Client:
    """A client the server knows: pre-registered, registered through ``/register``, or described
    by a Client ID Metadata Document. ``redirect_uris`` empty: any loopback redirect is accepted;
    ``secret`` None: a public client (``auth_method`` ``none``)."""

    client_id: str
    secret: str | None = None
    auth_method: str = "none"
    redirect_uris: tuple[str, ...] = ()
    grant_types: tuple[str, ...] = ("authorization_code", "refresh_token")
    application_type: str | None = None
    how: str = "pre-registered"
    #: The public key (PEM) a ``private_key_jwt`` client's assertions are checked with.
    public_key_pem: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


def pre_registered(auth_method: str = "client_secret_basic", redirect_uris: tuple[str, ...] = (),
                   grant_types: tuple[str, ...] = ("authorization_code", "refresh_token",
                                                   "client_credentials")) -> Client:
    """The conformance suite's pre-registered client, with a secret unless ``auth_method`` is none."""
    secret = None if auth_method == "none" else PRE_REGISTERED_SECRET
    return Client(PRE_REGISTERED_ID, secret, auth_method, redirect_uris, grant_types)


@dataclass
class AuthConfig:
    """What the server does; each field is one fault a test can switch on."""

    # --- where things are -----------------------------------------------------------------
    #: The issuer's path (``"/tenant1"``): the issuer is origin + path, metadata is found by path
    #: insertion and the endpoints live under it.
    issuer_path: str = ""
    #: The MCP endpoint's path (the protected resource).
    mcp_path: str = "/mcp"
    #: Where the authorization-server metadata is served: any of ``"oauth"`` (RFC 8414, path
    #: insertion), ``"oidc-insert"``, ``"oidc-append"`` (OpenID discovery, both shapes).
    metadata_at: tuple[str, ...] = ("oauth",)
    #: Where Protected Resource Metadata is served: ``"path"`` (path-aware), ``"root"``, ``"both"``,
    #: ``"none"``, or a path of its own (``"/custom/metadata/location.json"``, named in the challenge).
    prm_at: str = "path"
    #: Name ``resource_metadata`` in the 401 challenge (else the client must try the well-knowns).
    challenge_resource_metadata: bool = True
    #: Name it as a path without the origin (``/.well-known/…``): RFC 9728 wants a whole URL, some servers don't.
    challenge_relative_metadata: bool = False
    #: The ``scope`` of the 401 challenge (None: no scope parameter).
    challenge_scope: str | None = READ_SCOPE

    # --- what the documents say ---------------------------------------------------------
    #: ``scopes_supported`` of the PRM (None: left out) and of the AS metadata.
    scopes_supported: tuple[str, ...] | None = (READ_SCOPE, WRITE_SCOPE)
    #: ``code_challenge_methods_supported`` (None: left out of the metadata).
    code_challenge_methods: tuple[str, ...] | None = ("S256",)
    #: The ``issuer`` the metadata document states (None: the true one) — a mismatch knob.
    metadata_issuer: str | None = None
    #: The ``resource`` the PRM states (None: the true MCP URL) — a mismatch knob; authorization
    #: and token requests must name it (may be changed once serving, e.g. to ``auth.origin``).
    prm_resource: str | None = None
    #: ``authorization_servers`` of the PRM (None: the true issuer) — e.g. a moved server.
    prm_authorization_servers: tuple[str, ...] | None = None
    #: ``token_endpoint_auth_methods_supported`` of the metadata.
    token_auth_methods: tuple[str, ...] = ("none", "client_secret_basic", "client_secret_post", "private_key_jwt")
    #: Serve and advertise ``/register`` (Dynamic Client Registration).
    registration: bool = True
    #: Advertise ``client_id_metadata_document_supported`` (and accept URL client ids).
    cimd_supported: bool = False
    #: Client ID Metadata Documents by URL (the server fetches any other ``http(s)`` URL itself).
    metadata_documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Advertise ``authorization_response_iss_parameter_supported: true``.
    advertise_iss: bool = True

    # --- the authorization response -----------------------------------------------------
    #: Put ``iss`` in the redirect back to the client.
    send_iss: bool = True
    #: The ``iss`` value sent (None: the true issuer) — wrong, or "normalised", issuers.
    iss_value: str | None = None
    #: Answer the authorization request with ``error=access_denied`` (the person said no).
    deny: bool = False
    #: A redirect URI on loopback matches a registered loopback one whatever its port (RFC 8252).
    loopback_any_port: bool = True
    #: Refuse an authorization or token request without ``resource`` (RFC 8707).
    require_resource: bool = True

    # --- clients ------------------------------------------------------------------------
    #: Clients known before any registration (see :func:`pre_registered`).
    clients: list[Client] = field(default_factory=list)
    #: Refuse every registration with ``invalid_client_metadata``.
    refuse_registration: bool = False

    # --- tokens -------------------------------------------------------------------------
    #: ``expires_in`` of access tokens (they also stop working at the MCP endpoint then).
    expires_in: float = 3600.0
    #: Issue refresh tokens (for the code grant and on refresh).
    issue_refresh_tokens: bool = True
    #: A refresh gives a new refresh token and the old one stops working.
    rotate_refresh_tokens: bool = True
    #: Refuse every refresh (``invalid_grant``): the client must sign in again.
    refuse_refresh: bool = False
    #: Answer every refresh with this HTTP status and a plain-text body, no OAuth error (0: no such fault).
    fail_refresh_status: int = 0
    #: Seconds ``/token`` waits before answering (for cancel tests).
    token_delay: float = 0.0
    #: Fields added to every token response (e.g. ``{"id_token": ...}`` or an unknown field).
    token_extra: dict[str, Any] = field(default_factory=dict)

    # --- the protected resource ---------------------------------------------------------
    #: The tool that needs :data:`WRITE_SCOPE` (403 ``insufficient_scope`` without it).
    step_up_tool: str = "write_note"
    #: Answer that tool 403 ``insufficient_scope`` whatever the token (a step-up that never ends).
    endless_step_up: bool = False
    #: ``"streamable"`` (Streamable HTTP at ``mcp_path``) or ``"sse"`` (the older HTTP+SSE: the
    #: stream at ``mcp_path`` — set it to ``"/sse"`` — and the messages at ``/messages/``; both guarded).
    transport: str = "streamable"
    #: Serve Streamable HTTP stateless (``stateless_http``), and with JSON answers.
    stateless: bool = False
    json_response: bool = False


@dataclass(frozen=True)
class Seen:
    """One request the server got. ``headers`` are lower-cased; ``form`` is the parsed
    form body, ``json`` the parsed JSON body (None when the body was not of that kind)."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes
    form: dict[str, str] | None = None
    json: Any = None

    @property
    def url(self) -> str:
        """Path and query, as the request line had them."""
        return f"{self.path}?{self.query}" if self.query else self.path

    @property
    def params(self) -> dict[str, str]:
        """The query parameters."""
        return dict(parse_qsl(self.query, keep_blank_values=True))

    @property
    def authorization(self) -> str | None:
        return self.headers.get("authorization")

    @property
    def jsonrpc_method(self) -> str | None:
        return self.json.get("method") if isinstance(self.json, dict) else None

    def mentions(self, text: str) -> bool:
        """Does ``text`` appear anywhere in this request (URL, headers, body)?"""
        return (text in self.url or any(text in value for value in self.headers.values())
                or text.encode() in self.body)


def is_loopback(uri: str) -> bool:
    parts = urlsplit(uri)
    return parts.scheme == "http" and (parts.hostname or "") in LOOPBACK_HOSTS
