"""Getting tokens from a token endpoint: each grant the client uses, and reading what it issued.

- :func:`exchange_code`: the authorization code with its PKCE verifier (OAuth 2.1 §4.1.3);
- :func:`refresh`: a refresh token (§4.3); an endpoint that rotates none in keeps the old one;
- :func:`client_credentials`: a machine client's own credentials (§4.2);
- :func:`jwt_bearer`: an assertion as the grant (RFC 7523 §2.1): a workload's identity token, or
  an identity assertion grant (ID-JAG) from an enterprise identity provider;
- :func:`request_id_jag` and :func:`enterprise_tokens`: enterprise-managed authorization: the
  user's ID token exchanged at the identity provider for an ID-JAG (RFC 8693), which the MCP
  server's authorization server takes as a JWT-bearer grant.

Every request names the server the token is for (``resource``, RFC 8707). The answer must hold
an access token that fits in a header, of type Bearer or DPoP, with a sane lifetime; ``subject``
(who signed in, for display only) is read, unverified, from an ID token or a JWT access token.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import jwt

from ..messages import N_, Message
from ..sanitize import sanitize_remote_text
from ..secrets import Secrets
from .model import AUTH_METHODS, AuthorizationServer, ClientIdentity, TokenSet
from .proofs import DpopKey, KeyFormatError
from .token_errors import (
    AUTHORIZATION_CODE,
    CLIENT_CREDENTIALS,
    JWT_BEARER,
    REFRESH_TOKEN,
    TOKEN_EXCHANGE,
    TokenRequestError,
    failed,
    quoted,
    with_sent,
)
from .token_requests import authenticate, post, token_endpoint

#: RFC 8693 token types of enterprise-managed authorization.
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag"
#: The longest lifetime (``expires_in``) believed: ten years. Longer, negative or zero is a broken answer.
MAX_EXPIRES_IN_S = 10 * 365 * 24 * 3600
#: The longest access token sent in a header.
MAX_TOKEN_CHARS = 16 * 1024
#: The most characters of a subject shown.
SUBJECT_CHARS = 120
# RFC 6750 §2.1 b64token, widened to all visible ASCII: what fits in an Authorization header.
_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")
_DIGITS = re.compile(r"\s*\d{1,12}\s*")


def choose_auth_method(server: AuthorizationServer, has_secret: bool, has_key: bool) -> str:
    """How a client with a secret and/or a private key authenticates at ``server``: the
    strongest method it can do that the server lists (a key before a secret, Basic before
    the form, ``none`` last). A server that lists none takes ``client_secret_basic`` (RFC 8414
    §2); when the server lists nothing the client can do, its strongest is tried."""
    advertised = server.token_auth_methods or ("client_secret_basic",)
    mine = [*(["private_key_jwt"] if has_key else []),
            *(["client_secret_basic", "client_secret_post"] if has_secret else []), "none"]
    return next((method for method in mine if method in advertised), mine[0])


def _secrets(*values: str | None) -> Secrets:
    return with_sent(Secrets(), *values)


def _expires_at(value: Any, endpoint: str, grant: str, secrets: Secrets) -> float | None:
    if value is None:
        return None
    # A string of digits is what some servers send (older Azure AD); a bool is not a number.
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        seconds: float | None = int(value)
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and value == value:
        seconds = value
    else:
        seconds = None
    if seconds is None or not 1 <= seconds <= MAX_EXPIRES_IN_S:
        raise failed(Message(N_("The token endpoint {endpoint} gave the lifetime {value} (expires_in), which is "
                                "not a number of seconds from 1 to ten years."),
                             {"endpoint": endpoint, "value": quoted(value, secrets, 40)}), secrets, grant=grant)
    return time.time() + seconds


def _claims(token: object) -> dict[str, Any]:
    if not isinstance(token, str) or token.count(".") != 2 or len(token) > MAX_TOKEN_CHARS:
        return {}
    try:
        claims = jwt.decode(token, options={"verify_signature": False})
    except (jwt.PyJWTError, ValueError, RecursionError):
        return {}
    return claims if isinstance(claims, dict) else {}


def subject_of(*tokens: object) -> str | None:
    """Who the tokens were issued for, for display only (nothing is verified): the first of
    ``preferred_username``, ``email``, ``sub`` found in the first token that is a readable JWT."""
    for token in tokens:
        claims = _claims(token)
        for name in ("preferred_username", "email", "sub"):
            value = claims.get(name)
            if isinstance(value, str) and value.strip():
                return sanitize_remote_text(value, SUBJECT_CHARS)
    return None


def issued_tokens(payload: dict[str, Any], *, server: AuthorizationServer, endpoint: str, resource: str,
                  grant: str, secrets: Secrets, requested_scope: str | None = None,
                  dpop: DpopKey | None = None) -> TokenSet:
    """The :class:`TokenSet` a successful token response describes, or a
    :class:`TokenRequestError` saying what in it is unusable."""
    access_token = payload.get("access_token")
    if not isinstance(access_token, str) or not access_token:
        raise failed(Message(N_("The token endpoint {endpoint} answered without an access token."),
                             {"endpoint": endpoint}), secrets, grant=grant)
    if len(access_token) > MAX_TOKEN_CHARS or not _HEADER_SAFE.fullmatch(access_token):
        raise failed(Message(N_("The token endpoint {endpoint} issued an access token that cannot be sent in a "
                                "header (too long, or with characters a token may not hold)."),
                             {"endpoint": endpoint}), secrets, grant=grant)
    secrets = secrets.with_values(access_token)
    raw_type = payload.get("token_type")
    token_type = {"bearer": "Bearer", "dpop": "DPoP"}.get(raw_type.lower()) if isinstance(raw_type, str) else None
    if token_type is None:
        raise failed(Message(N_("The token endpoint {endpoint} issued a token of type {token_type}; only Bearer "
                                "and DPoP tokens can be used."),
                             {"endpoint": endpoint, "token_type": quoted(raw_type, secrets, 40)}),
                     secrets, grant=grant)
    if token_type == "DPoP" and dpop is None:
        raise failed(Message(N_("The token endpoint {endpoint} issued a DPoP-bound token, but no DPoP proof was "
                                "sent with the request."), {"endpoint": endpoint}), secrets, grant=grant)
    refresh_token = payload.get("refresh_token")
    refresh_token = refresh_token if isinstance(refresh_token, str) and _HEADER_SAFE.fullmatch(refresh_token) \
        and len(refresh_token) <= MAX_TOKEN_CHARS else None
    scope = payload.get("scope")
    return TokenSet(access_token=access_token, issuer=server.issuer, resource=resource, token_type=token_type,
                    refresh_token=refresh_token,
                    expires_at=_expires_at(payload.get("expires_in"), endpoint, grant, secrets),
                    scope=sanitize_remote_text(scope, 2000) if isinstance(scope, str) else requested_scope,
                    subject=subject_of(payload.get("id_token"), access_token),
                    dpop_key_pem=dpop.pem if token_type == "DPoP" and dpop is not None else None)


async def _grant(http: httpx.AsyncClient, server: AuthorizationServer, client: ClientIdentity, form: dict[str, str],
                 *, resource: str, secrets: Secrets, requested_scope: str | None = None,
                 dpop: DpopKey | None = None) -> TokenSet:
    grant = form["grant_type"]
    if client.auth_method not in AUTH_METHODS:
        raise ValueError(f"auth_method must be one of {AUTH_METHODS}")
    endpoint = token_endpoint(server, grant, secrets)
    fields, headers, secrets = authenticate(server, client, grant=grant, secrets=secrets)
    if resource:
        form["resource"] = resource
    payload = await post(http, server, endpoint, {**form, **fields}, headers, grant=grant, secrets=secrets, dpop=dpop)
    return issued_tokens(payload, server=server, endpoint=endpoint, resource=resource, grant=grant, secrets=secrets,
                         requested_scope=requested_scope, dpop=dpop)


async def exchange_code(http: httpx.AsyncClient, server: AuthorizationServer, client: ClientIdentity, *, code: str,
                        redirect_uri: str, code_verifier: str, resource: str, dpop: DpopKey | None = None,
                        requested_scope: str | None = None) -> TokenSet:
    """The tokens for an authorization code (with its PKCE verifier and the redirect URI it was
    sent to), for the server ``resource``; DPoP-bound when ``dpop`` is given and the server binds.
    ``requested_scope`` (what the authorization request asked for; not sent again) is the tokens'
    scope when the answer names none (RFC 6749 §5.1)."""
    form = {"grant_type": AUTHORIZATION_CODE, "code": code, "redirect_uri": redirect_uri,
            "code_verifier": code_verifier}
    return await _grant(http, server, client, form, resource=resource, secrets=_secrets(code, code_verifier),
                        requested_scope=requested_scope, dpop=dpop)


async def refresh(http: httpx.AsyncClient, server: AuthorizationServer, client: ClientIdentity, tokens: TokenSet, *,
                  dpop: DpopKey | None = None) -> TokenSet:
    """``tokens`` renewed with their refresh token (for the same ``resource``, same scope). A
    refresh token not rotated is kept. DPoP-bound tokens are refreshed with their own key (``dpop``,
    else the one kept with them). :attr:`TokenRequestError.refresh_refused`: sign in again."""
    secrets = _secrets(tokens.refresh_token, tokens.access_token)
    if tokens.issuer != server.issuer:
        raise failed(Message(N_("These tokens were issued by {token_issuer}, not by {issuer}: they are not sent "
                                "there."), {"token_issuer": tokens.issuer, "issuer": server.issuer}),
                     secrets, grant=REFRESH_TOKEN, sign_in_again=True)
    if not tokens.refresh_token:
        raise failed(Message(N_("There is no refresh token for {resource}: sign in again."),
                             {"resource": tokens.resource}), secrets, grant=REFRESH_TOKEN, sign_in_again=True)
    if dpop is None and tokens.dpop_key_pem:
        try:
            dpop = DpopKey.from_pem(tokens.dpop_key_pem)
        except KeyFormatError as exc:
            raise failed(exc.sentence, secrets, grant=REFRESH_TOKEN, sign_in_again=True) from None
    form = {"grant_type": REFRESH_TOKEN, "refresh_token": tokens.refresh_token}
    issued = await _grant(http, server, client, form, resource=tokens.resource, secrets=secrets,
                          requested_scope=tokens.scope, dpop=dpop)
    return tokens.renewed(issued)


async def client_credentials(http: httpx.AsyncClient, server: AuthorizationServer, client: ClientIdentity, *,
                             resource: str, scope: str | None, dpop: DpopKey | None = None) -> TokenSet:
    """Tokens for a machine client on its own behalf (its secret or signed assertion authenticates it)."""
    form = {"grant_type": CLIENT_CREDENTIALS, **({"scope": scope} if scope else {})}
    return await _grant(http, server, client, form, resource=resource, secrets=_secrets(), requested_scope=scope,
                        dpop=dpop)


async def jwt_bearer(http: httpx.AsyncClient, server: AuthorizationServer, client: ClientIdentity, *, assertion: str,
                     resource: str, scope: str | None) -> TokenSet:
    """Tokens for an assertion presented as the grant (RFC 7523 §2.1): a workload identity token
    whose audience is ``server``'s issuer, or an ID-JAG. A refusal is final: the caller does not
    retry with it, nor fall back to another grant."""
    form = {"grant_type": JWT_BEARER, "assertion": assertion, **({"scope": scope} if scope else {})}
    return await _grant(http, server, client, form, resource=resource, secrets=_secrets(assertion),
                        requested_scope=scope)


async def request_id_jag(http: httpx.AsyncClient, idp: AuthorizationServer, client: ClientIdentity, *, id_token: str,
                         audience: str, resource: str, scope: str | None = None) -> str:
    """Exchange the user's ID token at the identity provider ``idp`` (RFC 8693) for an identity
    assertion grant (ID-JAG) for the authorization server ``audience`` (its issuer) and the MCP
    server ``resource``. ``client`` is the client as the identity provider knows it."""
    grant = TOKEN_EXCHANGE
    secrets = _secrets(id_token)
    endpoint = token_endpoint(idp, grant, secrets)
    fields, headers, secrets = authenticate(idp, client, grant=grant, secrets=secrets)
    form = {"grant_type": grant, "requested_token_type": ID_JAG_TYPE, "audience": audience, "resource": resource,
            "subject_token": id_token, "subject_token_type": ID_TOKEN_TYPE, **({"scope": scope} if scope else {}),
            **fields}
    payload = await post(http, idp, endpoint, form, headers, grant=grant, secrets=secrets)
    issued_type = payload.get("issued_token_type")
    if issued_type != ID_JAG_TYPE:
        raise failed(Message(N_("The identity provider's token endpoint {endpoint} issued a token of type "
                                "{token_type} instead of an identity assertion grant (ID-JAG)."),
                             {"endpoint": endpoint, "token_type": quoted(issued_type, secrets, 80)}),
                     secrets, grant=grant)
    jag = payload.get("access_token")
    if not isinstance(jag, str) or len(jag) > MAX_TOKEN_CHARS or not _HEADER_SAFE.fullmatch(jag):
        raise failed(Message(N_("The token endpoint {endpoint} answered without an access token."),
                             {"endpoint": endpoint}), secrets, grant=grant)
    return jag


async def enterprise_tokens(http: httpx.AsyncClient, idp: AuthorizationServer, idp_client: ClientIdentity,
                            server: AuthorizationServer, client: ClientIdentity, *, id_token: str, resource: str,
                            scope: str | None = None) -> TokenSet:
    """Enterprise-managed authorization (SEP-990): an ID-JAG from the identity provider for
    ``server`` and ``resource``, then tokens from ``server`` for it (JWT-bearer grant)."""
    jag = await request_id_jag(http, idp, idp_client, id_token=id_token, audience=server.issuer, resource=resource,
                               scope=scope)
    return await jwt_bearer(http, server, client, assertion=jag, resource=resource, scope=scope)


__all__ = ["ID_JAG_TYPE", "ID_TOKEN_TYPE", "MAX_EXPIRES_IN_S", "TokenRequestError", "choose_auth_method",
           "client_credentials", "enterprise_tokens", "exchange_code", "issued_tokens", "jwt_bearer", "refresh",
           "request_id_jag", "subject_of"]
