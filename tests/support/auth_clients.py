"""How the test authorization server (tests/support/auth_server.py) tells which client is asking at
its token endpoint: none (public), ``client_secret_basic``, ``client_secret_post``, or
``private_key_jwt`` (RFC 7523: a JWT signed with the client's key) — each checked against the
method the client registered, as a real server does.
"""

from __future__ import annotations

import base64
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from tests.support.auth_config import PRE_REGISTERED_ID, Client

JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"


def key_pair() -> tuple[str, str]:
    """A fresh P-256 key: (private PEM, public PEM)."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


def pre_registered_jwt(client_id: str = PRE_REGISTERED_ID) -> tuple[Client, str]:
    """A machine client that signs in with ``private_key_jwt``: the client, and its private key (PEM)."""
    private, public = key_pair()
    return Client(client_id, None, "private_key_jwt", grant_types=("client_credentials",), public_key_pem=public), \
        private


def public_key_of(jwks: Any) -> str | None:
    """The PEM of the one key in a registration's ``jwks`` (None if there is not exactly one)."""
    keys = jwks.get("keys") if isinstance(jwks, dict) else None
    if not isinstance(keys, list) or len(keys) != 1:
        return None
    try:
        key = jwt.PyJWK(keys[0]).key
    except (jwt.PyJWTError, ValueError, TypeError):
        return None
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


class Authenticator:
    """Checks a token request's client authentication; ``audiences`` are the values a JWT's
    ``aud`` may hold (the token endpoint, the issuer). Remembers the ``jti`` of each assertion:
    one used twice is refused."""

    def __init__(self, client_for: Callable[[str], Client | None], audiences: Callable[[], set[str]]) -> None:
        self._client_for = client_for
        self._audiences = audiences
        self._seen_jti: set[str] = set()
        self._lock = threading.Lock()

    def __call__(self, headers: Any, form: dict[str, Any]) -> tuple[Client | None, str | None]:
        header = headers.get("authorization", "")
        if header.lower().startswith("basic "):
            try:
                client_id, _, secret = base64.b64decode(header[6:]).decode().partition(":")
            except ValueError:
                return None, "malformed Basic credentials"
            client_id, secret, method = unquote(client_id), unquote(secret), "client_secret_basic"
        elif "client_assertion" in form:
            return self._assertion(form)
        elif "client_secret" in form:
            client_id, secret, method = form.get("client_id", ""), form["client_secret"], "client_secret_post"
        else:
            client_id, secret, method = form.get("client_id", ""), None, "none"
        client = self._client_for(client_id)
        if client is None:
            return None, "unknown client"
        if method != client.auth_method:
            return None, f"the client registered {client.auth_method} but used {method}"
        if client.secret is not None and not secrets.compare_digest(secret or "", client.secret):
            return None, "wrong client secret"
        return client, None

    def _assertion(self, form: dict[str, Any]) -> tuple[Client | None, str | None]:
        if form.get("client_assertion_type") != JWT_BEARER:
            return None, "client_assertion_type must be jwt-bearer"
        assertion = form["client_assertion"]
        try:
            claims = jwt.decode(assertion, options={"verify_signature": False})
        except jwt.PyJWTError:
            return None, "the client assertion is not a JWT"
        client = self._client_for(str(claims.get("iss", "")))
        if client is None or client.auth_method != "private_key_jwt" or not client.public_key_pem:
            return None, "unknown client, or not registered for private_key_jwt"
        try:
            claims = jwt.decode(assertion, client.public_key_pem, algorithms=["ES256", "RS256", "PS256", "EdDSA"],
                                audience=list(self._audiences()), options={"require": ["exp", "iss", "sub", "aud"]})
        except jwt.PyJWTError as exc:
            return None, f"the client assertion is not valid: {exc}"
        if claims["sub"] != client.client_id or form.get("client_id", client.client_id) != client.client_id:
            return None, "the assertion's sub must be the client id"
        if claims["exp"] - time.time() > 3600:
            return None, "the assertion lives too long"
        with self._lock:
            if claims.get("jti") in self._seen_jti:
                return None, "the assertion was used before"
            if claims.get("jti"):
                self._seen_jti.add(claims["jti"])
        return client, None
