"""Token requests against a real token endpoint on 127.0.0.1 (tests/support/token_endpoint.py):
each grant, each client authentication as the endpoint saw it, DPoP proofs verified against the key
they carry (with nonces at the token endpoint and at the resource), refresh rotation, and hostile answers."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from starlette.responses import JSONResponse, Response

from inspector.mcp.signin.model import AuthorizationServer, ClientIdentity, TokenSet
from inspector.mcp.signin.proofs import DpopKey, request_headers, signed_assertion
from inspector.mcp.signin.tokens import (
    TokenRequestError,
    client_credentials,
    enterprise_tokens,
    exchange_code,
    jwt_bearer,
    refresh,
)
from tests.support.asgi_server import closed_port, serve_asgi
from tests.support.token_endpoint import Client, Seen, TokenEndpoint, challenge_of, thumbprint

VERIFIER = "verifier-" + "v" * 40


@pytest.fixture(scope="module")
def served() -> Iterator[TokenEndpoint]:
    endpoint = TokenEndpoint()
    with serve_asgi(endpoint.app, path="") as url:
        endpoint.issuer = url
        yield endpoint


@pytest.fixture
def endpoint(served: TokenEndpoint) -> TokenEndpoint:
    """The served endpoint, its state fresh for each test."""
    fresh = TokenEndpoint(issuer=served.issuer)
    for name in ("clients", "codes", "refresh_tokens", "rotate", "dpop_nonce", "resource_nonce", "workload_key",
                 "hostile", "seen", "key", "idp_key", "_jtis"):
        setattr(served, name, getattr(fresh, name))
    return served


def _server(endpoint: TokenEndpoint, **metadata: Any) -> AuthorizationServer:
    return AuthorizationServer(endpoint.issuer, endpoint.metadata(**metadata))


def _run(call: Callable[[httpx.AsyncClient], Awaitable[Any]]) -> Any:
    async def go() -> Any:
        async with httpx.AsyncClient(follow_redirects=False, timeout=10) as http:
            return await call(http)
    return asyncio.run(go())


def _pem(key: Any) -> str:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def _code(endpoint: TokenEndpoint, client: ClientIdentity, dpop: DpopKey | None = None,
          code: str = "code-1") -> TokenSet:
    endpoint.codes[code] = challenge_of(VERIFIER)
    return _run(lambda http: exchange_code(http, _server(endpoint), client, code=code,
                                           redirect_uri="http://127.0.0.1:7/cb", code_verifier=VERIFIER,
                                           resource=f"{endpoint.issuer}/mcp", dpop=dpop))


def _client(endpoint: TokenEndpoint, method: str, client_id: str = "client-1", secret: str | None = None,
            key: Any = None) -> ClientIdentity:
    endpoint.clients[client_id] = Client(method, secret, key.public_key() if key is not None else None)
    return ClientIdentity(client_id, endpoint.issuer, "pre-registered", client_secret=secret, auth_method=method,
                          private_key_pem=_pem(key) if key is not None else None)


@pytest.mark.parametrize(("method", "secret", "key"), [
    ("none", None, None),
    ("client_secret_basic", "s3cr3t: with space+plus/ü", None),
    ("client_secret_post", "s3cr3t: with space+plus/ü", None),
    ("private_key_jwt", None, ec.generate_private_key(ec.SECP256R1())),
    ("private_key_jwt", None, rsa.generate_private_key(65537, 2048)),
], ids=["none", "basic", "post", "jwt-es256", "jwt-rs256"])
def test_each_client_authentication_is_what_the_endpoint_sees(endpoint: TokenEndpoint, method: str,
                                                              secret: str | None, key: Any) -> None:
    client = _client(endpoint, method, client_id="client id:1", secret=secret, key=key)
    tokens = _code(endpoint, client)
    [seen] = endpoint.seen
    assert (seen.auth_method, seen.client_id) == (method, "client id:1")
    assert seen.form["resource"] == f"{endpoint.issuer}/mcp" and seen.form["code_verifier"] == VERIFIER
    assert tokens.subject == endpoint.subject and tokens.refresh_token and tokens.token_type == "Bearer"
    # The code is single-use: the endpoint refuses it again, and the sentence says so.
    with pytest.raises(TokenRequestError) as caught:
        _run(lambda http: exchange_code(http, _server(endpoint), client, code="code-1",
                                        redirect_uri="http://127.0.0.1:7/cb", code_verifier=VERIFIER,
                                        resource=f"{endpoint.issuer}/mcp"))
    assert caught.value.sign_in_again and not caught.value.refresh_refused
    assert str(caught.value) == (f"The token endpoint {endpoint.issuer}/token refused the request with invalid_grant "
                                 "(HTTP 400), saying \"refused: invalid_grant\".")


def test_a_wrong_secret_is_refused_as_invalid_client(endpoint: TokenEndpoint) -> None:
    client = _client(endpoint, "client_secret_basic", secret="right")
    wrong = ClientIdentity(client.client_id, client.issuer, client.how, client_secret="wrong",
                           auth_method="client_secret_basic")
    with pytest.raises(TokenRequestError) as caught:
        _code(endpoint, wrong)
    assert (caught.value.error, caught.value.status, caught.value.sign_in_again) == ("invalid_client", 401, False)


@pytest.mark.parametrize("rotate", [True, False], ids=["rotated", "kept"])
def test_refresh_with_and_without_rotation(endpoint: TokenEndpoint, rotate: bool) -> None:
    endpoint.rotate = rotate
    client = _client(endpoint, "none")
    first = _code(endpoint, client)
    renewed = _run(lambda http: refresh(http, _server(endpoint), client, first))
    assert renewed.access_token != first.access_token
    assert endpoint.seen[-1].form["resource"] == first.resource and "scope" not in endpoint.seen[-1].form
    if rotate:
        assert renewed.refresh_token not in (None, first.refresh_token)
        # The old refresh token is dead now: using it is refused, and says sign in again.
        with pytest.raises(TokenRequestError) as caught:
            _run(lambda http: refresh(http, _server(endpoint), client, first))
        assert caught.value.refresh_refused
        assert "no longer accepts the refresh token (invalid_grant)" in str(caught.value)
        assert first.refresh_token not in str(caught.value)
    else:
        assert renewed.refresh_token == first.refresh_token
        assert _run(lambda http: refresh(http, _server(endpoint), client, renewed)).refresh_token == first.refresh_token


def test_client_credentials_with_a_secret_and_with_a_signed_jwt(endpoint: TokenEndpoint) -> None:
    basic = _client(endpoint, "client_secret_basic", client_id="machine", secret="machine-secret")
    tokens = _run(lambda http: client_credentials(http, _server(endpoint), basic, resource=f"{endpoint.issuer}/mcp",
                                                  scope="tools:read"))
    assert tokens.scope == "tools:read" and tokens.refresh_token is None
    signed = _client(endpoint, "private_key_jwt", client_id="signed-machine",
                     key=ec.generate_private_key(ec.SECP256R1()))
    _run(lambda http: client_credentials(http, _server(endpoint), signed, resource=f"{endpoint.issuer}/mcp",
                                         scope=None))
    assert [(seen.form["grant_type"], seen.auth_method) for seen in endpoint.seen] == [
        ("client_credentials", "client_secret_basic"), ("client_credentials", "private_key_jwt")]


def test_a_workload_assertion_gets_tokens_and_a_refused_one_is_not_retried(endpoint: TokenEndpoint) -> None:
    workload = ec.generate_private_key(ec.SECP256R1())
    endpoint.workload_key = workload.public_key()
    client = _client(endpoint, "none", client_id="workload")
    resource = f"{endpoint.issuer}/mcp"
    good = signed_assertion(_pem(workload), issuer="https://idp.example", subject="wl", audience=endpoint.issuer)
    tokens = _run(lambda http: jwt_bearer(http, _server(endpoint), client, assertion=good, resource=resource,
                                          scope=None))
    assert tokens.access_token and endpoint.seen[-1].form["assertion"] == good
    wrong = signed_assertion(_pem(workload), issuer="https://idp.example", subject="wl", audience="https://wrong")
    with pytest.raises(TokenRequestError) as caught:
        _run(lambda http: jwt_bearer(http, _server(endpoint), client, assertion=wrong, resource=resource, scope=None))
    assert caught.value.sign_in_again and len(endpoint.seen) == 2
    assert wrong not in str(caught.value)


def test_enterprise_managed_authorization_exchanges_the_id_token_then_uses_the_id_jag(
        endpoint: TokenEndpoint) -> None:
    idp = AuthorizationServer(f"{endpoint.issuer}/idp", {"token_endpoint": f"{endpoint.issuer}/idp/token"})
    endpoint.clients["idp-client"] = Client("none")
    idp_client = ClientIdentity("idp-client", idp.issuer, "pre-registered")
    client = _client(endpoint, "client_secret_basic", client_id=endpoint.jag_client_id, secret="xaa-secret")
    resource = f"{endpoint.issuer}/mcp"
    id_token = endpoint.id_token("idp-client")
    tokens = _run(lambda http: enterprise_tokens(http, idp, idp_client, _server(endpoint), client, id_token=id_token,
                                                 resource=resource, scope="tools"))
    exchange, bearer = endpoint.seen
    assert exchange.path == "/idp/token" and exchange.form["audience"] == endpoint.issuer
    assert exchange.form["subject_token"] == id_token and exchange.form["resource"] == resource
    assert bearer.path == "/token" and bearer.auth_method == "client_secret_basic"
    jag = jwt.decode(bearer.form["assertion"], options={"verify_signature": False})
    assert (jag["aud"], jag["resource"], jag["client_id"]) == (endpoint.issuer, resource, endpoint.jag_client_id)
    assert tokens.scope == "tools" and tokens.resource == resource


def test_dpop_binds_the_token_to_the_key_and_each_resource_request_carries_a_fresh_proof(
        endpoint: TokenEndpoint) -> None:
    key = DpopKey.generate()
    client = _client(endpoint, "none")
    tokens = _code(endpoint, client, dpop=key)
    assert tokens.token_type == "DPoP" and tokens.dpop_key_pem == key.pem
    proof = endpoint.seen[0].proof
    assert proof is not None and proof["htm"] == "POST" and proof["htu"] == endpoint.token_url
    assert thumbprint(proof["jwk"]) == key.thumbprint
    claims = jwt.decode(tokens.access_token, options={"verify_signature": False})
    assert claims["cnf"]["jkt"] == key.thumbprint

    async def twice(http: httpx.AsyncClient) -> list[int]:
        url = f"{endpoint.issuer}/mcp?session=1"
        return [(await http.post(url, headers=request_headers(tokens, "POST", url, key))).status_code
                for _ in range(2)]

    assert _run(twice) == [200, 200]
    first, second = (seen.proof for seen in endpoint.seen[1:])
    assert first and second and first["jti"] != second["jti"] and first["ath"] == challenge_of(tokens.access_token)
    # A Bearer presentation of the bound token is refused by the resource.
    bearer = TokenSet(tokens.access_token, issuer=tokens.issuer, resource=tokens.resource)
    assert _run(lambda http: http.get(f"{endpoint.issuer}/mcp", headers=request_headers(bearer, "GET", "x"))) \
        .status_code == 401


def test_dpop_nonces_at_the_token_endpoint_and_at_the_resource(endpoint: TokenEndpoint) -> None:
    endpoint.dpop_nonce, endpoint.resource_nonce = "as-nonce-1", "rs-nonce-1"
    key = DpopKey.generate()
    tokens = _code(endpoint, _client(endpoint, "none"), dpop=key)
    assert [seen.form.get("grant_type") for seen in endpoint.seen] == ["authorization_code"] * 2
    assert endpoint.seen[1].proof is not None and endpoint.seen[1].proof["nonce"] == "as-nonce-1"

    async def call(http: httpx.AsyncClient) -> list[int]:
        # What the client does per request: present, note the answer, once more if it asked for a nonce.
        url, statuses = f"{endpoint.issuer}/mcp", []
        for _ in range(2):
            for attempt in range(2):
                answer = await http.post(url, headers=request_headers(tokens, "POST", url, key))
                statuses.append(answer.status_code)
                if not key.observe(url, answer.status_code, answer.headers) or attempt:
                    break
        return statuses

    assert _run(call) == [401, 200, 200]  # the nonce, once learnt, is in every later proof
    assert [seen.proof and seen.proof.get("nonce") for seen in endpoint.seen[3:]] == ["rs-nonce-1"] * 2


def test_a_dpop_bound_refresh_uses_the_key_kept_with_the_tokens(endpoint: TokenEndpoint) -> None:
    key = DpopKey.generate()
    client = _client(endpoint, "none")
    tokens = _code(endpoint, client, dpop=key)
    renewed = _run(lambda http: refresh(http, _server(endpoint), client, tokens))
    assert renewed.token_type == "DPoP" and renewed.dpop_key_pem == key.pem
    assert thumbprint(endpoint.seen[-1].proof["jwk"]) == key.thumbprint  # type: ignore[index]


ECHOED = ("code-1", VERIFIER, "hostile-secret", "Basic ")


def _echo(seen: Seen) -> Response:
    said = json.dumps({"form": seen.form, "headers": seen.headers})
    return JSONResponse({"error": "invalid_request", "error_description": said}, status_code=400)


def _echo_in_type(seen: Seen) -> Response:
    return JSONResponse({"access_token": "fine", "token_type": seen.form["code_verifier"]})


@pytest.mark.parametrize(("answer", "says"), [
    (_echo, "refused the request with invalid_request (HTTP 400), saying"),
    (_echo_in_type, "issued a token of type [REDACTED]; only Bearer and DPoP tokens can be used"),
    (lambda seen: Response(b"{" + b'"a": 1, ' * 200_000 + b"}", media_type="application/json"), "more than 64 KiB"),
    (lambda seen: Response(gzip.compress(b"[" * 5_000_000), headers={"Content-Encoding": "gzip"}), "more than 64 KiB"),
    (lambda seen: Response(b"<html>Sign in</html>", media_type="text/html"), "something that is not a JSON object"),
    (lambda seen: JSONResponse({"access_token": ["x"], "token_type": "Bearer"}), "answered without an access token"),
    (lambda seen: JSONResponse({"access_token": "x", "token_type": "Bearer", "expires_in": -1}), "(expires_in)"),
    (lambda seen: Response(status_code=307, headers={"Location": "https://evil.example/t"}), "a redirect (HTTP 307)"),
], ids=["echo-error", "echo-type", "huge", "gzip-bomb", "html", "wrong-type", "negative-lifetime", "redirect"])
def test_hostile_answers_are_refused_in_a_sentence_that_holds_no_secret(
        endpoint: TokenEndpoint, answer: Callable[[Seen], Response], says: str) -> None:
    endpoint.hostile.append(answer)
    client = _client(endpoint, "client_secret_basic", secret="hostile-secret")
    with pytest.raises(TokenRequestError) as caught:
        _code(endpoint, client)
    text = str(caught.value)
    assert says in text
    assert not [secret for secret in ECHOED if secret in text]
    assert len(endpoint.seen) == 1  # nothing was followed or retried


def test_a_closed_port_is_said_to_be_unreachable() -> None:
    server = AuthorizationServer("http://127.0.0.1", {"token_endpoint": f"http://127.0.0.1:{closed_port()}/token"})
    with pytest.raises(TokenRequestError) as caught:
        _run(lambda http: client_credentials(http, server, ClientIdentity("c", "http://127.0.0.1", "registered"),
                                             resource="http://127.0.0.1/mcp", scope=None))
    assert "could not be reached" in str(caught.value) and caught.value.status is None
