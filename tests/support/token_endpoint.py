"""A small, real token endpoint (and a DPoP-protected resource) for tests, on 127.0.0.1.

It checks what a careful authorization server checks, with PyJWT and ``cryptography`` of its
own: how the client authenticated (Basic with form-decoded id and secret, the form, a signed
assertion, none), PKCE, single-use codes, refresh tokens (rotated or not), JWT-bearer assertions,
RFC 8693 token exchange at ``/idp/token``, and DPoP proofs (signature against the ``jwk`` they
carry, ``htm``, ``htu``, ``iat``, ``jti``, ``ath``, nonces). Every request is kept in ``seen``.
``hostile`` replaces the answer of the next token requests (a huge body, non-JSON, echoed secrets).
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote_plus

import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag"


def thumbprint(jwk: dict[str, str]) -> str:
    """RFC 7638 SHA-256 thumbprint of an EC public JWK."""
    members = json.dumps({name: jwk[name] for name in ("crv", "kty", "x", "y")}, separators=(",", ":"),
                         sort_keys=True)
    return base64.urlsafe_b64encode(hashlib.sha256(members.encode()).digest()).rstrip(b"=").decode()


def challenge_of(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


@dataclass
class Seen:
    """One request as the endpoint saw it, and what it made of the client's authentication."""

    path: str
    form: dict[str, str]
    headers: dict[str, str]
    auth_method: str | None = None
    client_id: str | None = None
    proof: dict[str, Any] | None = None


@dataclass
class Client:
    method: str
    secret: str | None = None
    public_key: Any = None


class OAuthError(Exception):
    def __init__(self, error: str, status: int = 400, headers: dict[str, str] | None = None) -> None:
        super().__init__(error)
        self.error, self.status, self.headers = error, status, headers or {}


@dataclass
class TokenEndpoint:
    """The endpoint's state; ``app`` serves it. Set ``issuer`` to the served base address."""

    issuer: str = ""
    clients: dict[str, Client] = field(default_factory=dict)
    codes: dict[str, str] = field(default_factory=dict)  # code -> S256 challenge
    refresh_tokens: set[str] = field(default_factory=set)
    rotate: bool = True
    subject: str = "ada@example.com"
    dpop_nonce: str | None = None  # required in token request proofs when set
    resource_nonce: str | None = None  # required in resource request proofs when set
    workload_key: Any = None  # verifies JWT-bearer workload assertions
    idp_key: Any = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    jag_client_id: str = "enterprise-client"
    hostile: list[Callable[[Seen], Response]] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    key: Any = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    _jtis: set[str] = field(default_factory=set)

    @property
    def token_url(self) -> str:
        return f"{self.issuer}/token"

    def metadata(self, **extra: Any) -> dict[str, Any]:
        return {"issuer": self.issuer, "token_endpoint": self.token_url, **extra}

    def id_token(self, audience: str) -> str:
        """An ID token from the identity provider (for token exchange)."""
        now = int(time.time())
        return jwt.encode({"iss": f"{self.issuer}/idp", "sub": self.subject, "aud": audience, "iat": now,
                           "exp": now + 300}, self.idp_key, algorithm="ES256")

    # -- checks -------------------------------------------------------------------------------
    def _authenticate(self, seen: Seen) -> None:
        header, form = seen.headers.get("authorization", ""), seen.form
        if header.startswith("Basic "):
            pair = base64.b64decode(header[6:]).decode()
            raw_id, _, raw_secret = pair.partition(":")
            seen.auth_method = "client_secret_basic"
            seen.client_id, secret = unquote_plus(raw_id), unquote_plus(raw_secret)
        elif "client_assertion" in form:
            seen.auth_method = "private_key_jwt"
            if form.get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer":
                raise OAuthError("invalid_client", 401)
            claims = jwt.decode(form["client_assertion"], options={"verify_signature": False})
            seen.client_id, secret = claims.get("iss"), None
        else:
            seen.auth_method = "client_secret_post" if "client_secret" in form else "none"
            seen.client_id, secret = form.get("client_id"), form.get("client_secret")
        client = self.clients.get(seen.client_id or "")
        if client is None or client.method != seen.auth_method:
            raise OAuthError("invalid_client", 401)
        if client.method.startswith("client_secret") and secret != client.secret:
            raise OAuthError("invalid_client", 401)
        if client.method == "private_key_jwt":
            try:
                claims = jwt.decode(form["client_assertion"], client.public_key, algorithms=["ES256", "RS256"],
                                    audience=self.issuer, options={"require": ["exp", "iat", "jti"]})
            except jwt.PyJWTError:
                raise OAuthError("invalid_client", 401) from None
            if claims["sub"] != seen.client_id or claims["jti"] in self._jtis:
                raise OAuthError("invalid_client", 401)
            self._jtis.add(claims["jti"])

    def check_proof(self, proof: str | None, method: str, url: str, nonce: str | None,
                    access_token: str | None = None, status: int = 400) -> dict[str, Any]:
        """A DPoP proof's claims and header (``jwk``), verified as RFC 9449 §4.3 says."""
        if not proof:
            raise OAuthError("invalid_dpop_proof", status)
        header = jwt.get_unverified_header(proof)
        jwk = header.get("jwk") or {}
        if header.get("typ") != "dpop+jwt" or header.get("alg") != "ES256" or "d" in jwk:
            raise OAuthError("invalid_dpop_proof", status)
        claims = jwt.decode(proof, jwt.PyJWK(jwk).key, algorithms=["ES256"])
        if claims["htm"] != method or claims["htu"] != url or abs(time.time() - claims["iat"]) > 60:
            raise OAuthError("invalid_dpop_proof", status)
        if claims["jti"] in self._jtis:
            raise OAuthError("invalid_dpop_proof", status)
        if access_token is not None and claims.get("ath") != challenge_of(access_token):
            raise OAuthError("invalid_dpop_proof", status)
        if nonce is not None and claims.get("nonce") != nonce:
            raise OAuthError("use_dpop_nonce", status, {"DPoP-Nonce": nonce})
        self._jtis.add(claims["jti"])
        return {**claims, "jwk": jwk}

    # -- grants -------------------------------------------------------------------------------
    def _issue(self, seen: Seen, scope: str | None, refresh: bool) -> dict[str, Any]:
        now = int(time.time())
        claims: dict[str, Any] = {"iss": self.issuer, "sub": "user-1", "preferred_username": self.subject,
                                  "aud": seen.form.get("resource", ""), "iat": now, "exp": now + 3600,
                                  "jti": secrets.token_hex(8)}
        if seen.proof is not None:
            claims["cnf"] = {"jkt": thumbprint(seen.proof["jwk"])}
        answer: dict[str, Any] = {"access_token": jwt.encode(claims, self.key, algorithm="ES256"),
                                  "token_type": "DPoP" if seen.proof is not None else "Bearer", "expires_in": 3600}
        if scope:
            answer["scope"] = scope
        if refresh:
            token = f"refresh-{secrets.token_hex(8)}"
            self.refresh_tokens.add(token)
            answer["refresh_token"] = token
        return answer

    def _grant(self, seen: Seen) -> dict[str, Any]:
        form, grant = seen.form, seen.form.get("grant_type")
        if grant == "authorization_code":
            challenge = self.codes.pop(form.get("code", ""), None)
            if challenge is None or challenge_of(form.get("code_verifier", "")) != challenge:
                raise OAuthError("invalid_grant")
            return self._issue(seen, form.get("scope"), refresh=True)
        if grant == "refresh_token":
            if form.get("refresh_token") not in self.refresh_tokens:
                raise OAuthError("invalid_grant")
            if self.rotate:
                self.refresh_tokens.discard(form["refresh_token"])
            return self._issue(seen, None, refresh=self.rotate)
        if grant == "client_credentials":
            return self._issue(seen, form.get("scope"), refresh=False)
        if grant == "urn:ietf:params:oauth:grant-type:jwt-bearer":
            assertion = form.get("assertion", "")
            typ = jwt.get_unverified_header(assertion).get("typ")
            key = self.idp_key.public_key() if typ == "oauth-id-jag+jwt" else self.workload_key
            try:
                claims = jwt.decode(assertion, key, algorithms=["ES256", "RS256"], audience=self.issuer)
            except jwt.PyJWTError:
                raise OAuthError("invalid_grant") from None
            if typ == "oauth-id-jag+jwt" and (claims["client_id"] != seen.client_id
                                              or claims["resource"] != form.get("resource")):
                raise OAuthError("invalid_grant")
            return self._issue(seen, form.get("scope"), refresh=False)
        raise OAuthError("unsupported_grant_type")

    def _exchange(self, seen: Seen) -> dict[str, Any]:
        form = seen.form
        if (form.get("grant_type") != "urn:ietf:params:oauth:grant-type:token-exchange"
                or form.get("subject_token_type") != "urn:ietf:params:oauth:token-type:id_token"
                or form.get("requested_token_type") != ID_JAG_TYPE or not form.get("audience")
                or not form.get("resource")):
            raise OAuthError("invalid_request")
        try:
            claims = jwt.decode(form.get("subject_token", ""), self.idp_key.public_key(), algorithms=["ES256"],
                                audience=seen.client_id)
        except jwt.PyJWTError:
            raise OAuthError("invalid_grant") from None
        now = int(time.time())
        jag = jwt.encode({"iss": f"{self.issuer}/idp", "sub": claims["sub"], "aud": form["audience"],
                          "resource": form["resource"], "client_id": self.jag_client_id, "iat": now,
                          "exp": now + 300, "jti": secrets.token_hex(8)},
                         self.idp_key, algorithm="ES256", headers={"typ": "oauth-id-jag+jwt"})
        return {"access_token": jag, "issued_token_type": ID_JAG_TYPE, "token_type": "N_A"}

    # -- routes -------------------------------------------------------------------------------
    async def _token(self, request: Request) -> Response:
        seen = Seen(request.url.path, dict(await request.form()), {k.lower(): v for k, v in request.headers.items()})
        self.seen.append(seen)
        if self.hostile:
            return self.hostile.pop(0)(seen)
        try:
            self._authenticate(seen)
            if request.url.path == "/idp/token":
                return JSONResponse(self._exchange(seen))
            if "dpop" in seen.headers:
                seen.proof = self.check_proof(seen.headers["dpop"], "POST", self.token_url, self.dpop_nonce)
            return JSONResponse(self._grant(seen), headers={"Cache-Control": "no-store"})
        except OAuthError as exc:
            return JSONResponse({"error": exc.error, "error_description": f"refused: {exc.error}"},
                                status_code=exc.status, headers=exc.headers)

    async def _resource(self, request: Request) -> Response:
        seen = Seen(request.url.path, {}, {k.lower(): v for k, v in request.headers.items()})
        self.seen.append(seen)
        scheme, _, token = seen.headers.get("authorization", "").partition(" ")
        try:
            claims = jwt.decode(token, self.key.public_key(), algorithms=["ES256"], audience=f"{self.issuer}/mcp")
            if scheme == "DPoP":
                seen.proof = self.check_proof(seen.headers.get("dpop"), request.method, f"{self.issuer}/mcp",
                                              self.resource_nonce, access_token=token, status=401)
                if claims["cnf"]["jkt"] != thumbprint(seen.proof["jwk"]):
                    raise OAuthError("invalid_token", 401)
            elif scheme != "Bearer" or "cnf" in claims:
                raise OAuthError("invalid_token", 401)
        except OAuthError as exc:
            return Response(status_code=exc.status, headers={
                "WWW-Authenticate": f'DPoP error="{exc.error}"', **exc.headers})
        except jwt.PyJWTError:
            return Response(status_code=401, headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
        return JSONResponse({"subject": claims["preferred_username"]})

    @property
    def app(self) -> Starlette:
        return Starlette(routes=[Route("/token", self._token, methods=["POST"]),
                                 Route("/idp/token", self._token, methods=["POST"]),
                                 Route("/mcp", self._resource, methods=["GET", "POST"])])
