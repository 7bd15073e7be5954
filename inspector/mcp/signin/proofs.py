"""What the client signs: DPoP proofs (RFC 9449) and JWT assertions (RFC 7523).

A :class:`DpopKey` is the key pair a DPoP-bound token is tied to (ES256, made here; kept as PEM
in the vault with the tokens). Each request that carries such a token carries a fresh proof: a
JWT signed with the key, naming the method and the address (``htm``, ``htu``), a hash of the
token (``ath``), and the server's nonce once it asked for one. The key remembers the last nonce
each server (origin) gave, so that :meth:`DpopKey.resource_headers` uses it on every request.

A signed JWT assertion is how a client with a private key authenticates at a token endpoint
(``private_key_jwt``) and how a workload proves who it is. Signing is PyJWT's, keys are
``cryptography``'s; nothing here touches the network.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from ..messages import N_, Message
from .model import AuthorizationServer, TokenSet

#: ``client_assertion_type`` of a signed JWT client assertion (RFC 7523 §2.2).
JWT_BEARER_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
#: The algorithm of every DPoP key made here (the one the MCP DPoP extension requires servers to take).
DPOP_ALGORITHM = "ES256"
#: How long a client assertion may be used (RFC 7523 wants a short life; the token request is one round trip).
ASSERTION_LIFETIME_S = 60
#: RFC 9449 §8: a nonce is NQCHAR (visible ASCII without ``"`` and ``\\``); longer ones are not kept.
_NONCE = re.compile(r"[\x21\x23-\x5b\x5d-\x7e]{1,512}")
#: RSA keys shorter than this do not sign (RFC 7518 §3.3).
MIN_RSA_BITS = 2048
#: The statuses with which a server asks for a proof with its nonce (RFC 9449 §8, §9).
NONCE_CHALLENGE_STATUSES = (400, 401)

_EC_ALGORITHMS = {"secp256r1": "ES256", "secp384r1": "ES384", "secp521r1": "ES512"}


class KeyFormatError(ValueError):
    """A private key that cannot sign here; ``sentence`` says why (never quoting the key)."""

    def __init__(self, sentence: Message) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _integer_bytes(value: int, length: int) -> bytes:
    return value.to_bytes(length, "big")


def load_private_key(pem: str | bytes) -> rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey | ed25519.Ed25519PrivateKey:
    """The private key in ``pem`` (PKCS#8 or the traditional forms, unencrypted): RSA of at least
    2048 bits, EC on P-256/P-384/P-521, or Ed25519. Raises :class:`KeyFormatError` otherwise."""
    data = pem.encode("utf-8") if isinstance(pem, str) else pem
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, UnicodeError) as exc:
        raise KeyFormatError(Message(N_("The private key is not an unencrypted private key in PEM form."))) from exc
    if isinstance(key, rsa.RSAPrivateKey) and key.key_size >= MIN_RSA_BITS:
        return key
    if isinstance(key, ec.EllipticCurvePrivateKey) and key.curve.name in _EC_ALGORITHMS:
        return key
    if isinstance(key, ed25519.Ed25519PrivateKey):
        return key
    raise KeyFormatError(Message(N_("The private key is of a kind that cannot sign here (usable: RSA of at least "
                                    "2048 bits, EC on P-256, P-384 or P-521, Ed25519).")))


def signing_algorithm(key: Any) -> str:
    """The JWS algorithm for a key :func:`load_private_key` gave."""
    if isinstance(key, rsa.RSAPrivateKey):
        return "RS256"
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return _EC_ALGORITHMS[key.curve.name]
    return "EdDSA"


def signed_assertion(key_pem: str, *, issuer: str, subject: str, audience: str,
                     lifetime_s: int = ASSERTION_LIFETIME_S, claims: Mapping[str, Any] | None = None,
                     key_id: str | None = None) -> str:
    """A JWT (RFC 7523 §3) signed with the key in ``key_pem``: ``iss``, ``sub``, ``aud`` (one
    string: the authorization server's issuer, as RFC 7523bis asks), ``iat``, ``exp``, a fresh
    ``jti``, and ``claims`` besides. The algorithm follows the key (RS256, ES256/384/512, EdDSA)."""
    key = load_private_key(key_pem)
    now = int(time.time())
    payload = {**(claims or {}), "iss": issuer, "sub": subject, "aud": audience, "iat": now,
               "exp": now + lifetime_s, "jti": secrets.token_urlsafe(18)}
    headers = {"kid": key_id} if key_id else None
    return jwt.encode(payload, key, algorithm=signing_algorithm(key), headers=headers)


def client_assertion(client_id: str, audience: str, key_pem: str, *, key_id: str | None = None) -> str:
    """The ``client_assertion`` of ``private_key_jwt`` (RFC 7523 §2.2, §3): issued by the client
    about itself (``iss`` = ``sub`` = ``client_id``) for the authorization server ``audience``."""
    return signed_assertion(key_pem, issuer=client_id, subject=client_id, audience=audience, key_id=key_id)


def htu(url: str) -> str:
    """The ``htu`` of a proof (RFC 9449 §4.2): the address without query, fragment or user info."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme.lower(), netloc.lower(), parts.path or "/", "", ""))


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.rpartition('@')[2].lower()}"


def access_token_hash(access_token: str) -> str:
    """``ath``: base64url (no padding) of the SHA-256 of the token's ASCII (RFC 9449 §4.2)."""
    return _b64url(hashlib.sha256(access_token.encode("ascii")).digest())


def _header(headers: Mapping[str, str], name: str) -> str | None:
    """A header's value from any mapping (``httpx.Headers`` merges repeats with ", ", which no
    nonce may contain); the name compared without case."""
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def usable_nonce(value: object) -> str | None:
    """A server's ``DPoP-Nonce`` if it is one (NQCHAR, at most 512 characters), else None."""
    return value if isinstance(value, str) and _NONCE.fullmatch(value) else None


class DpopKey:
    """An ES256 key pair that DPoP-bound tokens are tied to, and the nonces servers gave for it.

    ``pem`` is what the vault keeps (with the tokens); :meth:`from_pem` reads it back. The nonce
    memory lives as long as this object: the caller keeps one per signed-in server."""

    def __init__(self, private_key: ec.EllipticCurvePrivateKey) -> None:
        if not isinstance(private_key, ec.EllipticCurvePrivateKey) or private_key.curve.name != "secp256r1":
            raise KeyFormatError(Message(N_("A DPoP key must be an EC key on the P-256 curve.")))
        self._key = private_key
        numbers = private_key.public_key().public_numbers()
        # RFC 7638: the members of an EC key's thumbprint, in this order, no spaces.
        self._jwk = {"crv": "P-256", "kty": "EC", "x": _b64url(_integer_bytes(numbers.x, 32)),
                     "y": _b64url(_integer_bytes(numbers.y, 32))}
        self._nonces: dict[str, str] = {}

    @classmethod
    def generate(cls) -> DpopKey:
        """A new key pair."""
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def from_pem(cls, pem: str) -> DpopKey:
        """The key kept as ``pem``; raises :class:`KeyFormatError` for anything but a P-256 key."""
        key = load_private_key(pem)
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise KeyFormatError(Message(N_("A DPoP key must be an EC key on the P-256 curve.")))
        return cls(key)

    def __repr__(self) -> str:  # never the private key
        return f"DpopKey(jkt={self.thumbprint})"

    @property
    def pem(self) -> str:
        """The private key as unencrypted PKCS#8 PEM (for the vault only)."""
        return self._key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()).decode("ascii")

    @property
    def public_jwk(self) -> dict[str, str]:
        """The public key as a JWK (sent in every proof's header)."""
        return dict(self._jwk)

    @property
    def thumbprint(self) -> str:
        """The JWK SHA-256 thumbprint (RFC 7638): the ``jkt`` a bound token names in ``cnf``."""
        canonical = json.dumps(self._jwk, separators=(",", ":"), sort_keys=True).encode("ascii")
        return _b64url(hashlib.sha256(canonical).digest())

    def nonce_for(self, url: str) -> str | None:
        """The last nonce the server at ``url``'s origin gave, if any."""
        return self._nonces.get(_origin(url))

    def proof(self, method: str, url: str, *, nonce: str | None = None, access_token: str | None = None) -> str:
        """A fresh proof for one request (RFC 9449 §4.2). ``nonce`` defaults to the one the
        server last gave (:meth:`observe`); ``access_token`` adds its hash (``ath``)."""
        claims: dict[str, Any] = {"jti": secrets.token_urlsafe(18), "htm": method.upper(), "htu": htu(url),
                                  "iat": int(time.time())}
        nonce = nonce if nonce is not None else self.nonce_for(url)
        if nonce is not None:
            claims["nonce"] = nonce
        if access_token is not None:
            claims["ath"] = access_token_hash(access_token)
        return jwt.encode(claims, self._key, algorithm=DPOP_ALGORITHM,
                          headers={"typ": "dpop+jwt", "jwk": self.public_jwk})

    def resource_headers(self, method: str, url: str, access_token: str) -> dict[str, str]:
        """The two headers a request with a DPoP-bound token carries (RFC 9449 §7.1)."""
        return {"Authorization": f"DPoP {access_token}",
                "DPoP": self.proof(method, url, access_token=access_token)}

    def observe(self, url: str, status: int, headers: Mapping[str, str]) -> bool:
        """Note a response from ``url``: a ``DPoP-Nonce`` it carries is kept for the next proofs.
        True when the response asks for the request again with that nonce: a 400 or 401 with a
        nonce other than the one just used (retry once; a repeated nonce is not asked again)."""
        nonce = usable_nonce(_header(headers, "dpop-nonce"))
        if nonce is None:
            return False
        origin = _origin(url)
        before = self._nonces.get(origin)
        self._nonces[origin] = nonce
        return status in NONCE_CHALLENGE_STATUSES and nonce != before


def dpop_supported(server: AuthorizationServer) -> bool:
    """Does the authorization server take DPoP proofs made with the keys made here (RFC 9449 §5.1)?"""
    return DPOP_ALGORITHM in server.dpop_algorithms


def request_headers(tokens: TokenSet, method: str, url: str, dpop: DpopKey | None = None) -> dict[str, str]:
    """The headers that present ``tokens`` on one request to ``url``: ``Authorization: Bearer``,
    or for a DPoP-bound token ``Authorization: DPoP`` and a fresh proof (with ``dpop``, else the
    key kept with the tokens; keep one :class:`DpopKey` per server so that its nonces are kept)."""
    if tokens.token_type != "DPoP":
        return {"Authorization": f"Bearer {tokens.access_token}"}
    if dpop is None:
        if tokens.dpop_key_pem is None:
            raise KeyFormatError(Message(N_("The token is bound to a DPoP key, but the key is not known.")))
        dpop = DpopKey.from_pem(tokens.dpop_key_pem)
    return dpop.resource_headers(method, url, tokens.access_token)


__all__ = ["ASSERTION_LIFETIME_S", "DPOP_ALGORITHM", "JWT_BEARER_ASSERTION_TYPE", "DpopKey", "KeyFormatError",
           "access_token_hash", "client_assertion", "dpop_supported", "htu", "load_private_key",
           "request_headers", "signed_assertion", "signing_algorithm", "usable_nonce"]
