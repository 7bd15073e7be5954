"""DPoP proofs (RFC 9449) and signed JWT assertions (RFC 7523), checked with PyJWT and the RFC's own examples."""

from __future__ import annotations

import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from inspector.mcp.signin.model import AuthorizationServer, TokenSet
from inspector.mcp.signin.proofs import (
    DpopKey,
    KeyFormatError,
    access_token_hash,
    client_assertion,
    dpop_supported,
    htu,
    load_private_key,
    request_headers,
    signed_assertion,
    usable_nonce,
)
from tests.support.token_endpoint import thumbprint


def _pem(key: object) -> str:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,  # type: ignore[attr-defined]
                             serialization.NoEncryption()).decode()


def _verified(proof: str) -> tuple[dict, dict]:
    header = jwt.get_unverified_header(proof)
    return header, jwt.decode(proof, jwt.PyJWK(header["jwk"]).key, algorithms=["ES256"])


def test_a_proof_is_a_dpop_jwt_signed_by_the_key_it_carries() -> None:
    key = DpopKey.generate()
    before = int(time.time())
    header, claims = _verified(key.proof("post", "https://AS.example.com/token?x=1#frag"))
    assert header["typ"] == "dpop+jwt" and header["alg"] == "ES256"
    assert header["jwk"] == key.public_jwk and "d" not in header["jwk"]
    assert claims["htm"] == "POST" and claims["htu"] == "https://as.example.com/token"
    assert before <= claims["iat"] <= int(time.time())
    assert "ath" not in claims and "nonce" not in claims


def test_each_proof_has_its_own_jti_and_the_token_hash_and_nonce_when_given() -> None:
    key = DpopKey.generate()
    _, first = _verified(key.proof("GET", "https://rs.example/mcp", nonce="n-1", access_token="tok"))
    _, second = _verified(key.proof("GET", "https://rs.example/mcp", nonce="n-1", access_token="tok"))
    assert first["jti"] != second["jti"]
    assert first["nonce"] == "n-1" and first["ath"] == access_token_hash("tok")


def test_the_token_hash_and_thumbprint_match_rfc_9449s_examples() -> None:
    # RFC 9449 §7.1 (ath of the example token) and §6.1 (jkt of the §4.1 example key).
    assert access_token_hash("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU") == \
        "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
    example = {"kty": "EC", "x": "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
               "y": "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA", "crv": "P-256"}
    assert thumbprint(example) == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
    key = DpopKey.generate()
    assert key.thumbprint == thumbprint(key.public_jwk)


def test_htu_drops_query_fragment_and_user_info() -> None:
    assert htu("HTTPS://user:pw@Server.Example:8443/a/b?q=1#f") == "https://server.example:8443/a/b"
    assert htu("http://127.0.0.1:9") == "http://127.0.0.1:9/"


def test_the_key_goes_to_pem_and_back_and_never_into_its_repr() -> None:
    key = DpopKey.generate()
    again = DpopKey.from_pem(key.pem)
    assert again.thumbprint == key.thumbprint
    assert "PRIVATE" not in repr(key) and key.thumbprint in repr(key)
    with pytest.raises(KeyFormatError):
        DpopKey.from_pem(_pem(ec.generate_private_key(ec.SECP384R1())))
    with pytest.raises(KeyFormatError):
        DpopKey.from_pem("not a key")


def test_the_server_nonce_is_remembered_per_origin_and_asks_for_one_retry() -> None:
    key = DpopKey.generate()
    url = "https://rs.example/mcp"
    assert key.observe(url, 200, {}) is False
    assert key.observe(url, 401, {"DPoP-Nonce": "n-1"}) is True  # a challenge with a new nonce
    assert key.nonce_for("https://rs.example/other") == "n-1"
    assert key.nonce_for("https://as.example/token") is None
    _, claims = _verified(key.proof("POST", url))
    assert claims["nonce"] == "n-1"
    assert key.observe(url, 401, {"dpop-nonce": "n-1"}) is False  # the same nonce again: no loop
    assert key.observe(url, 200, {"DPoP-Nonce": "n-2"}) is False and key.nonce_for(url) == "n-2"
    for bad in ('with"quote', "a, b", "x" * 513, "tab\there", ""):
        assert key.observe(url, 401, {"DPoP-Nonce": bad}) is False
    assert key.nonce_for(url) == "n-2"
    assert usable_nonce("eyJ7S_zG.eyJH0-Z.HX4w-7v") == "eyJ7S_zG.eyJH0-Z.HX4w-7v"


def test_request_headers_present_bearer_or_dpop_tokens() -> None:
    bearer = TokenSet("tok-1", issuer="https://as", resource="https://rs/mcp")
    assert request_headers(bearer, "POST", "https://rs/mcp") == {"Authorization": "Bearer tok-1"}
    key = DpopKey.generate()
    bound = TokenSet("tok-2", issuer="https://as", resource="https://rs/mcp", token_type="DPoP",
                     dpop_key_pem=key.pem)
    headers = request_headers(bound, "POST", "https://rs/mcp?x=1")
    assert headers["Authorization"] == "DPoP tok-2"
    header, claims = _verified(headers["DPoP"])
    assert header["jwk"] == key.public_jwk
    assert claims["ath"] == access_token_hash("tok-2") and claims["htu"] == "https://rs/mcp"
    with pytest.raises(KeyFormatError):
        request_headers(TokenSet("t", issuer="i", resource="r", token_type="DPoP"), "GET", "https://rs/mcp")


def test_dpop_is_used_where_the_server_takes_es256() -> None:
    assert dpop_supported(AuthorizationServer("https://as", {"dpop_signing_alg_values_supported": ["RS256", "ES256"]}))
    assert not dpop_supported(AuthorizationServer("https://as", {"dpop_signing_alg_values_supported": ["RS256"]}))
    assert not dpop_supported(AuthorizationServer("https://as", {}))


@pytest.mark.parametrize(("key", "algorithm"), [
    (rsa.generate_private_key(65537, 2048), "RS256"),
    (ec.generate_private_key(ec.SECP256R1()), "ES256"),
    (ec.generate_private_key(ec.SECP384R1()), "ES384"),
    (ed25519.Ed25519PrivateKey.generate(), "EdDSA"),
], ids=["rsa", "p256", "p384", "ed25519"])
def test_a_client_assertion_is_signed_for_the_issuer_with_the_keys_algorithm(key: object, algorithm: str) -> None:
    assertion = client_assertion("my client", "https://as.example", _pem(key), key_id="k1")
    header = jwt.get_unverified_header(assertion)
    assert header["alg"] == algorithm and header["kid"] == "k1"
    claims = jwt.decode(assertion, key.public_key(), algorithms=[algorithm],  # type: ignore[attr-defined]
                        audience="https://as.example", options={"require": ["exp", "iat", "jti"]})
    assert claims["iss"] == claims["sub"] == "my client"
    assert 0 < claims["exp"] - claims["iat"] <= 60
    other = client_assertion("my client", "https://as.example", _pem(key))
    assert jwt.decode(other, options={"verify_signature": False})["jti"] != claims["jti"]


def test_a_signed_assertion_takes_its_own_subject_and_claims() -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    token = signed_assertion(_pem(key), issuer="https://idp", subject="workload-7", audience="https://as",
                             claims={"scope": "a", "iss": "ignored"})
    claims = jwt.decode(token, key.public_key(), algorithms=["ES256"], audience="https://as")
    assert (claims["iss"], claims["sub"], claims["scope"]) == ("https://idp", "workload-7", "a")


@pytest.mark.parametrize("pem", [
    "", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    _pem(rsa.generate_private_key(65537, 1024)),
    rsa.generate_private_key(65537, 2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"password")).decode(),
], ids=["empty", "garbage", "short-rsa", "encrypted"])
def test_unusable_keys_are_refused_with_a_sentence_that_does_not_quote_them(pem: str) -> None:
    with pytest.raises(KeyFormatError) as caught:
        load_private_key(pem)
    assert "BEGIN" not in str(caught.value) and caught.value.sentence.template
