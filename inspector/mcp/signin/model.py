"""What a sign-in produces and keeps: the tokens, the client it was made as, the server's settings,
and the vault that keeps them between operations (the keyring in the app, memory in a test).

Every value here that is a credential (an access or refresh token, a client secret, a private key)
is left out of ``repr`` and is never written to the database, an export, a log or a message.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Protocol

#: How a client authenticates itself at the token endpoint (RFC 8414 / RFC 7591 names).
AUTH_METHODS = ("none", "client_secret_basic", "client_secret_post", "private_key_jwt")
#: How a client signs in: a person in a browser; a machine with its own credentials; a workload with
#: an identity token it was given (JWT bearer, RFC 7523); a person's enterprise identity provider
#: (an ID token exchanged there for an identity assertion, then the JWT bearer grant).
GRANTS = ("authorization-code", "client-credentials", "jwt-bearer", "enterprise")
#: How the client came to be known to an authorization server.
PRE_REGISTERED, METADATA_DOCUMENT, REGISTERED = "pre-registered", "metadata-document", "registered"
#: A token this close to its expiry is refreshed before it is used.
REFRESH_AHEAD_S = 60.0


@dataclass(frozen=True)
class TokenSet:
    """What a token endpoint issued for one server (``resource``) by one authorization server
    (``issuer``). ``expires_at`` is wall-clock UTC seconds since the epoch (tokens outlive the
    process); ``subject`` names who signed in, where the server said so (for display)."""

    access_token: str = field(repr=False)
    issuer: str
    resource: str
    token_type: str = "Bearer"
    refresh_token: str | None = field(default=None, repr=False)
    expires_at: float | None = None
    scope: str | None = None
    subject: str | None = None
    #: The private key (PEM) the tokens are bound to with DPoP (RFC 9449), if they are.
    dpop_key_pem: str | None = field(default=None, repr=False)

    def expires_within(self, seconds: float, now: float | None = None) -> bool:
        """Will the access token have expired ``seconds`` from now (or has it)?"""
        if self.expires_at is None:
            return False
        return self.expires_at - (time.time() if now is None else now) <= seconds

    def renewed(self, issued: TokenSet) -> TokenSet:
        """These tokens after a refresh: a refresh token not rotated stays, so does the subject."""
        return replace(issued, refresh_token=issued.refresh_token or self.refresh_token,
                       subject=issued.subject or self.subject, dpop_key_pem=issued.dpop_key_pem or self.dpop_key_pem)


@dataclass(frozen=True)
class ClientIdentity:
    """The client as one authorization server knows it (keyed by that server's ``issuer``: never
    used with another one). ``how`` is :data:`PRE_REGISTERED`, :data:`METADATA_DOCUMENT` or
    :data:`REGISTERED` (Dynamic Client Registration)."""

    client_id: str
    issuer: str
    how: str
    client_secret: str | None = field(default=None, repr=False)
    auth_method: str = "none"
    #: The private key (PEM) for ``private_key_jwt`` client authentication, if that is the method.
    private_key_pem: str | None = field(default=None, repr=False)
    redirect_uris: tuple[str, ...] = ()


@dataclass(frozen=True)
class SignInSettings:
    """How the user set a server up for sign-in (all optional: discovery finds the rest).

    The secret and the key are given for the process (an environment variable, a file, the
    keyring), never stored with the server."""

    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    auth_method: str | None = None
    client_metadata_url: str | None = None
    grant: str = "authorization-code"
    #: PEM of the private key for a signed-JWT client (``--client-key FILE``).
    client_key_pem: str | None = field(default=None, repr=False)
    scope: str | None = None
    #: The assertion a workload presents (``jwt-bearer``), or the person's ID token (``enterprise``).
    assertion: str | None = field(default=None, repr=False)
    #: The enterprise identity provider's token endpoint and this client's id there (``enterprise``).
    idp_token_endpoint: str | None = None
    idp_client_id: str | None = None

    def __post_init__(self) -> None:
        if self.grant not in GRANTS:
            raise ValueError(f"grant must be one of {GRANTS}")
        if self.auth_method is not None and self.auth_method not in AUTH_METHODS:
            raise ValueError(f"auth_method must be one of {AUTH_METHODS}")

    @property
    def secrets(self) -> tuple[str, ...]:
        """The values that must never be shown (scrubbed from any message)."""
        return tuple(value for value in (self.client_secret, self.client_key_pem, self.assertion) if value)

    @property
    def by_machine(self) -> bool:
        """Signed in without a person (no browser)."""
        return self.grant != "authorization-code"


class SignInVault(Protocol):
    """Keeps tokens per server (its canonical resource) and registered clients per issuer.

    ``persistent`` is False when nothing outlives the process (no usable keyring)."""

    persistent: bool

    def tokens(self, resource: str) -> TokenSet | None: ...
    def keep_tokens(self, tokens: TokenSet) -> None: ...
    def client(self, issuer: str) -> ClientIdentity | None: ...
    def keep_client(self, client: ClientIdentity) -> None: ...
    def forget(self, resource: str) -> None: ...
    def forget_client(self, issuer: str) -> None: ...


class MemoryVault:
    """A vault for this process only (tests, and a machine without a keyring)."""

    persistent = False

    def __init__(self) -> None:
        self._tokens: dict[str, TokenSet] = {}
        self._clients: dict[str, ClientIdentity] = {}

    def tokens(self, resource: str) -> TokenSet | None:
        return self._tokens.get(resource)

    def keep_tokens(self, tokens: TokenSet) -> None:
        self._tokens[tokens.resource] = tokens

    def client(self, issuer: str) -> ClientIdentity | None:
        return self._clients.get(issuer)

    def keep_client(self, client: ClientIdentity) -> None:
        self._clients[client.issuer] = client

    def forget(self, resource: str) -> None:
        self._tokens.pop(resource, None)

    def forget_client(self, issuer: str) -> None:
        self._clients.pop(issuer, None)


@dataclass(frozen=True)
class AuthorizationServer:
    """An authorization server as its metadata document described it (RFC 8414 / OpenID
    Discovery), after the document's ``issuer`` was checked against the address it came from.
    ``metadata`` is the document as read (bounded); the properties are its fields that matter."""

    issuer: str
    metadata: dict = field(default_factory=dict, repr=False)

    def _text(self, name: str) -> str | None:
        value = self.metadata.get(name)
        return value if isinstance(value, str) and value else None

    def _names(self, name: str) -> tuple[str, ...]:
        value = self.metadata.get(name)
        return tuple(item for item in value if isinstance(item, str)) if isinstance(value, list) else ()

    @property
    def authorization_endpoint(self) -> str | None:
        return self._text("authorization_endpoint")

    @property
    def token_endpoint(self) -> str | None:
        return self._text("token_endpoint")

    @property
    def registration_endpoint(self) -> str | None:
        return self._text("registration_endpoint")

    @property
    def scopes_supported(self) -> tuple[str, ...]:
        return self._names("scopes_supported")

    @property
    def code_challenge_methods(self) -> tuple[str, ...]:
        return self._names("code_challenge_methods_supported")

    @property
    def token_auth_methods(self) -> tuple[str, ...]:
        return self._names("token_endpoint_auth_methods_supported")

    @property
    def grant_types(self) -> tuple[str, ...]:
        return self._names("grant_types_supported")

    @property
    def dpop_algorithms(self) -> tuple[str, ...]:
        return self._names("dpop_signing_alg_values_supported")

    @property
    def client_metadata_documents(self) -> bool:
        return self.metadata.get("client_id_metadata_document_supported") is True

    @property
    def iss_parameter(self) -> bool:
        return self.metadata.get("authorization_response_iss_parameter_supported") is True
