"""Token requests, against an in-process endpoint (httpx's MockTransport): what is sent, what is
accepted back, and the sentences of every failure (never holding a credential)."""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import json as _json
import time
from collections.abc import Callable
from urllib.parse import parse_qsl

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from inspector.i18n.messages import translate
from inspector.mcp.signin.model import AuthorizationServer, ClientIdentity, TokenSet
from inspector.mcp.signin.proofs import DpopKey
from inspector.mcp.signin.token_requests import MAX_RESPONSE_BYTES
from inspector.mcp.signin.tokens import (
    TokenRequestError,
    choose_auth_method,
    client_credentials,
    exchange_code,
    jwt_bearer,
    refresh,
    subject_of,
)

ISSUER = "https://as.example.com"
SERVER = AuthorizationServer(ISSUER, {"issuer": ISSUER, "token_endpoint": f"{ISSUER}/token"})
RESOURCE = "https://mcp.example.com/mcp"
PUBLIC = ClientIdentity("public-client", ISSUER, "registered")
Handler = Callable[[httpx.Request], httpx.Response]


class _Body(httpx.AsyncByteStream):
    """A body streamed as a network transport streams it (MockTransport's own is read at once)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    async def __aiter__(self):  # type: ignore[override]
        yield self.data


def _response(status: int, *, content: bytes = b"", json: object = None,
              headers: dict[str, str] | None = None) -> httpx.Response:
    if json is not None:
        content = _json.dumps(json).encode()
        headers = {"Content-Type": "application/json", **(headers or {})}
    return httpx.Response(status, headers=headers, stream=_Body(content))


def _run(handler: Handler, call: Callable[[httpx.AsyncClient], object]) -> object:
    async def go() -> object:
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler), follow_redirects=False) as http:
            return await call(http)  # type: ignore[misc]
    return asyncio.run(go())


def _form(request: httpx.Request) -> dict[str, str]:
    return dict(parse_qsl(request.content.decode()))


def _ok(**extra: object) -> Handler:
    return lambda request: _response(200, json={"access_token": "at-1", "token_type": "Bearer", **extra})


def _code(handler: Handler, client: ClientIdentity = PUBLIC, server: AuthorizationServer = SERVER,
          dpop: DpopKey | None = None) -> TokenSet:
    return _run(handler, lambda http: exchange_code(http, server, client, code="the-code", redirect_uri="http://127.0.0.1:5/cb",
                                                    code_verifier="the-verifier", resource=RESOURCE, dpop=dpop))


def _refused(handler: Handler, **kwargs: object) -> TokenRequestError:
    with pytest.raises(TokenRequestError) as caught:
        _code(handler, **kwargs)  # type: ignore[arg-type]
    return caught.value


# -- choosing how to authenticate ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("advertised", "secret", "key", "chosen"), [
    (["none"], False, False, "none"),
    (["none"], True, False, "none"),  # a secret the server does not want is not sent
    (["client_secret_post", "client_secret_basic"], True, False, "client_secret_basic"),
    (["client_secret_post"], True, False, "client_secret_post"),
    (["private_key_jwt", "client_secret_basic"], True, True, "private_key_jwt"),
    (["client_secret_basic"], True, True, "client_secret_basic"),
    (None, True, False, "client_secret_basic"),  # RFC 8414's default
    (None, False, True, "private_key_jwt"),  # nothing listed the client can do: its strongest
    (["private_key_jwt"], False, False, "none"),
])
def test_the_auth_method_is_the_strongest_both_sides_can_do(advertised: list[str] | None, secret: bool, key: bool,
                                                            chosen: str) -> None:
    metadata = {} if advertised is None else {"token_endpoint_auth_methods_supported": advertised}
    assert choose_auth_method(AuthorizationServer(ISSUER, metadata), secret, key) == chosen


# -- what is sent ----------------------------------------------------------------------------------------------------

def test_the_code_exchange_sends_the_code_verifier_redirect_and_resource() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return _ok(expires_in=3600, refresh_token="rt-1", scope="a b")(request)

    before = time.time()
    tokens = _code(handler)
    [request] = seen
    assert request.method == "POST" and str(request.url) == f"{ISSUER}/token"
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert _form(request) == {"grant_type": "authorization_code", "code": "the-code",
                              "redirect_uri": "http://127.0.0.1:5/cb", "code_verifier": "the-verifier",
                              "resource": RESOURCE, "client_id": "public-client"}
    assert "authorization" not in request.headers and "dpop" not in request.headers
    assert (tokens.access_token, tokens.refresh_token, tokens.scope) == ("at-1", "rt-1", "a b")
    assert (tokens.issuer, tokens.resource, tokens.token_type) == (ISSUER, RESOURCE, "Bearer")
    # The scope asked for in the authorization request stands when the answer names none.
    asked = _run(_ok(), lambda http: exchange_code(http, SERVER, PUBLIC, code="c", redirect_uri="r", code_verifier="v",
                                                   resource=RESOURCE, requested_scope="files:read"))
    assert asked.scope == "files:read"
    assert tokens.expires_at is not None and before + 3600 <= tokens.expires_at <= time.time() + 3600


def test_basic_authentication_form_encodes_id_and_secret_first() -> None:
    client = ClientIdentity("id:with space", ISSUER, "pre-registered", client_secret="p@ss wörd+/:",
                            auth_method="client_secret_basic")
    seen: list[httpx.Request] = []
    _code(lambda request: seen.append(request) or _ok()(request), client=client)
    expected = base64.b64encode(b"id%3Awith%20space:p%40ss%20w%C3%B6rd%2B%2F%3A").decode()
    assert seen[0].headers["authorization"] == f"Basic {expected}"
    # The id in the form too (servers built on the MCP SDK read it there first); never the secret.
    assert _form(seen[0])["client_id"] == "id:with space" and "client_secret" not in _form(seen[0])


def test_post_authentication_puts_id_and_secret_in_the_form() -> None:
    client = ClientIdentity("c1", ISSUER, "registered", client_secret="s3cret", auth_method="client_secret_post")
    seen: list[httpx.Request] = []
    _code(lambda request: seen.append(request) or _ok()(request), client=client)
    form = _form(seen[0])
    assert (form["client_id"], form["client_secret"]) == ("c1", "s3cret")
    assert "authorization" not in seen[0].headers


def test_a_refresh_keeps_the_refresh_token_when_none_is_rotated_in_and_sends_the_resource() -> None:
    old = TokenSet("at-0", issuer=ISSUER, resource=RESOURCE, refresh_token="rt-0", scope="a", subject="ada")
    seen: list[httpx.Request] = []
    renewed = _run(lambda request: seen.append(request) or _ok(expires_in=60)(request),
                   lambda http: refresh(http, SERVER, PUBLIC, old))
    assert _form(seen[0]) == {"grant_type": "refresh_token", "refresh_token": "rt-0", "resource": RESOURCE,
                              "client_id": "public-client"}
    assert (renewed.access_token, renewed.refresh_token, renewed.scope, renewed.subject) == ("at-1", "rt-0", "a", "ada")
    rotated = _run(_ok(refresh_token="rt-new"), lambda http: refresh(http, SERVER, PUBLIC, old))
    assert rotated.refresh_token == "rt-new"


def test_client_credentials_and_jwt_bearer_send_their_grants() -> None:
    seen: list[httpx.Request] = []
    record = lambda request: seen.append(request) or _ok()(request)  # noqa: E731
    _run(record, lambda http: client_credentials(http, SERVER, PUBLIC, resource=RESOURCE, scope="read"))
    _run(record, lambda http: jwt_bearer(http, SERVER, PUBLIC, assertion="a.b.c", resource=RESOURCE, scope=None))
    assert _form(seen[0]) == {"grant_type": "client_credentials", "scope": "read", "resource": RESOURCE,
                              "client_id": "public-client"}
    assert _form(seen[1]) == {"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": "a.b.c",
                              "resource": RESOURCE, "client_id": "public-client"}


# -- what is accepted back -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "lifetime"), [(3600, 3600), ("3600", 3600), (59.5, 59.5), (None, None)])
def test_lifetimes_a_server_may_send(value: object, lifetime: float | None) -> None:
    tokens = _code(_ok(expires_in=value) if value is not None else _ok())
    if lifetime is None:
        assert tokens.expires_at is None
    else:
        assert tokens.expires_at is not None and abs(tokens.expires_at - time.time() - lifetime) < 5


@pytest.mark.parametrize("value", [-5, 0, 10**12, "soon", "", True, [3600], float("inf"), float("nan"), "-3"])
def test_an_absurd_lifetime_is_refused_clearly(value: object) -> None:
    body = json.dumps({"access_token": "at-1", "token_type": "Bearer", "expires_in": value}).encode()
    error = _refused(lambda request: _response(200, content=body))
    assert "(expires_in), which is not a number of seconds from 1 to ten years" in str(error)


@pytest.mark.parametrize("token_type", ["bearer", "BEARER", "Bearer"])
def test_the_token_type_is_read_without_case(token_type: str) -> None:
    assert _code(_ok(token_type=token_type)).token_type == "Bearer"


@pytest.mark.parametrize(("answer", "says"), [
    ({"token_type": "Bearer"}, "answered without an access token"),
    ({"access_token": "", "token_type": "Bearer"}, "answered without an access token"),
    ({"access_token": 123, "token_type": "Bearer"}, "answered without an access token"),
    ({"access_token": "a b", "token_type": "Bearer"}, "cannot be sent in a header"),
    ({"access_token": "a\r\nX-Evil: 1", "token_type": "Bearer"}, "cannot be sent in a header"),
    ({"access_token": "x" * 20000, "token_type": "Bearer"}, "cannot be sent in a header"),
    ({"access_token": "at", "token_type": "mac"}, "issued a token of type mac; only Bearer and DPoP"),
    ({"access_token": "at"}, "issued a token of type None; only Bearer and DPoP"),
    ({"access_token": "at", "token_type": "DPoP"}, "DPoP-bound token, but no DPoP proof was sent"),
])
def test_unusable_token_answers_are_refused_with_what_is_wrong(answer: dict, says: str) -> None:
    assert says in str(_refused(lambda request: _response(200, json=answer)))


def test_the_subject_comes_from_the_id_token_else_a_jwt_access_token() -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    id_token = jwt.encode({"sub": "u1", "email": "ada@example.com"}, key, algorithm="ES256")
    access = jwt.encode({"sub": "u2", "preferred_username": "grace"}, key, algorithm="ES256")
    assert _code(_ok(id_token=id_token)).subject == "ada@example.com"
    assert _code(_ok(access_token=access)).subject == "grace"
    assert _code(_ok()).subject is None  # an opaque token names nobody
    assert subject_of("a.b.c", "not-a-jwt", 5, jwt.encode({"sub": "\x1b[31mred\nline"}, "k" * 32)) == "[31mred line"


def test_a_refresh_token_that_is_not_a_string_is_not_kept() -> None:
    assert _code(_ok(refresh_token={"x": 1})).refresh_token is None


# -- failures --------------------------------------------------------------------------------------------------------

def test_a_refused_refresh_token_says_sign_in_again() -> None:
    old = TokenSet("at-0", issuer=ISSUER, resource=RESOURCE, refresh_token="rt-0")
    answer = {"error": "invalid_grant", "error_description": "Token expired"}
    with pytest.raises(TokenRequestError) as caught:
        _run(lambda request: _response(400, json=answer), lambda http: refresh(http, SERVER, PUBLIC, old))
    error = caught.value
    assert error.refresh_refused and error.sign_in_again and (error.error, error.status) == ("invalid_grant", 400)
    assert str(error) == (f"The authorization server {ISSUER} no longer accepts the refresh token (invalid_grant), "
                          "saying \"Token expired\". Sign in again.")


def test_other_refusals_are_not_a_reason_to_forget_the_refresh_token() -> None:
    old = TokenSet("at-0", issuer=ISSUER, resource=RESOURCE, refresh_token="rt-0")
    with pytest.raises(TokenRequestError) as caught:
        _run(lambda request: _response(503, json={"error": "temporarily_unavailable"}),
             lambda http: refresh(http, SERVER, PUBLIC, old))
    assert not caught.value.refresh_refused
    assert str(caught.value) == f"The token endpoint {ISSUER}/token refused the request with temporarily_unavailable " \
                                "(HTTP 503)."


def test_no_refresh_token_and_tokens_of_another_issuer_mean_sign_in_again_without_a_request() -> None:
    calls: list[httpx.Request] = []
    for tokens in (TokenSet("at", issuer=ISSUER, resource=RESOURCE),
                   TokenSet("at", issuer="https://other.example", resource=RESOURCE, refresh_token="rt")):
        with pytest.raises(TokenRequestError) as caught:
            _run(lambda request: calls.append(request) or _ok()(request),
                 lambda http, tokens=tokens: refresh(http, SERVER, PUBLIC, tokens))
        assert caught.value.refresh_refused
    assert calls == []


def test_credentials_go_nowhere_but_the_clients_own_https_or_loopback_endpoint() -> None:
    calls: list[httpx.Request] = []
    record = lambda request: calls.append(request) or _ok()(request)  # noqa: E731
    other = ClientIdentity("c", "https://other.example", "registered", client_secret="s",
                           auth_method="client_secret_post")
    assert "is registered with https://other.example, not with" in str(_refused(record, client=other))
    plain = AuthorizationServer(ISSUER, {"token_endpoint": "http://as.example.com/token"})
    assert "is neither HTTPS nor on this computer" in str(_refused(record, server=plain))
    assert "names no token endpoint" in str(_refused(record, server=AuthorizationServer(ISSUER, {})))
    no_secret = ClientIdentity("c", ISSUER, "registered", auth_method="client_secret_basic")
    assert "no client secret is known" in str(_refused(record, client=no_secret))
    no_key = ClientIdentity("c", ISSUER, "registered", auth_method="private_key_jwt")
    assert "no private key is known" in str(_refused(record, client=no_key))
    bad_key = ClientIdentity("c", ISSUER, "registered", auth_method="private_key_jwt", private_key_pem="nope")
    assert "not an unencrypted private key in PEM form" in str(_refused(record, client=bad_key))
    assert calls == []
    loopback = AuthorizationServer(ISSUER, {"token_endpoint": "http://127.0.0.1:9/token"})
    assert _code(record, server=loopback).access_token == "at-1"


@pytest.mark.parametrize(("response", "says"), [
    (_response(200, content=b"<html>hello</html>"), "answered HTTP 200 with something that is not a JSON object"),
    (_response(200, json=[1, 2]), "answered HTTP 200 with something that is not a JSON object"),
    (_response(200, content=b"[" * 60000), "answered HTTP 200 with something that is not a JSON object"),
    (_response(500, content=b"oops"), "answered HTTP 500 with something that is not a JSON object"),
    (_response(500, json={"message": "x"}), "answered HTTP 500 without an OAuth error code"),
    (_response(400, json={"error": {"nested": 1}}), "answered HTTP 400 without an OAuth error code"),
    (_response(302, headers={"Location": "https://evil.example/"}), "answered with a redirect (HTTP 302)"),
    (_response(200, content=b"{" + b" " * MAX_RESPONSE_BYTES + b"}"), "more than 64 KiB"),
    (_response(200, headers={"Content-Encoding": "gzip"}, content=gzip.compress(b" " * 10_000_000)),
     "more than 64 KiB"),
    (_response(200, headers={"Content-Encoding": "br"}, content=b"xx"), "encoded its answer as br, which could not"),
    (_response(200, headers={"Content-Encoding": "gzip"}, content=b"not gzip"), "encoded its answer as gzip"),
    (_response(200, json={"error": "access_denied", "error_description": "no\nway " + "x" * 500}),
     "refused the request with access_denied (HTTP 200), saying \"no way xxx"),
])
def test_broken_answers_are_said_in_one_sentence(response: httpx.Response, says: str) -> None:
    error = _refused(lambda request: response)
    assert says in str(error)
    assert "\n" not in str(error) and len(str(error)) < 400


def test_a_gzipped_answer_within_bounds_is_read() -> None:
    body = gzip.compress(json.dumps({"access_token": "at-z", "token_type": "Bearer"}).encode())
    assert _code(lambda request: _response(200, headers={"Content-Encoding": "gzip"}, content=body)).access_token \
        == "at-z"


def test_an_unreachable_endpoint_and_a_timeout_are_said_as_such() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    assert str(_refused(refuse)) == f"The token endpoint {ISSUER}/token could not be reached: [Errno 111] " \
                                    "Connection refused."
    assert str(_refused(slow)) == f"The token endpoint {ISSUER}/token did not answer in time."


def test_a_hostile_endpoint_echoing_every_secret_gets_them_redacted() -> None:
    key_client = ClientIdentity("c", ISSUER, "registered", client_secret="client-secret-value",
                                auth_method="client_secret_basic")

    def echo(request: httpx.Request) -> httpx.Response:
        said = json.dumps({"form": _form(request), "headers": dict(request.headers)})
        return _response(400, json={"error": "the-code", "error_description": said * 3})

    error = _refused(echo, client=key_client)
    text = str(error)
    for secret in ("the-code", "the-verifier", "client-secret-value", "Basic "):
        assert secret not in text
        assert secret not in translate(error)
        assert all(secret not in str(value) for value in error.sentence.params.values())
    assert "[REDACTED]" in text and error.error == "[REDACTED]"


def test_secrets_with_spaces_echoed_as_the_form_body_spells_them_are_redacted() -> None:
    client = ClientIdentity("c", ISSUER, "registered", client_secret="my secret & more",
                            auth_method="client_secret_post")
    error = _refused(lambda request: _response(400, json={"error": "invalid_client",
                                                          "error_description": request.content.decode()}),
                     client=client)
    assert "my+secret" not in str(error) and "more" not in str(error) and "client_secret=[REDACTED]" in str(error)


def test_secrets_echoed_in_a_token_type_or_lifetime_are_redacted_too() -> None:
    old = TokenSet("at-0", issuer=ISSUER, resource=RESOURCE, refresh_token="refresh-secret-1")

    def echo(request: httpx.Request) -> httpx.Response:
        form = _form(request)
        return _response(200, json={"access_token": "new-token-1", "token_type": form["refresh_token"],
                                         "expires_in": "new-token-1"})

    with pytest.raises(TokenRequestError) as caught:
        _run(echo, lambda http: refresh(http, SERVER, PUBLIC, old))
    assert "refresh-secret-1" not in str(caught.value) and "[REDACTED]" in str(caught.value)


def test_a_dpop_nonce_challenge_is_answered_once() -> None:
    key = DpopKey.generate()
    proofs: list[dict] = []

    def challenge(request: httpx.Request) -> httpx.Response:
        proofs.append(jwt.decode(request.headers["dpop"], options={"verify_signature": False}))
        return _response(400, headers={"DPoP-Nonce": f"n-{len(proofs)}"}, json={"error": "use_dpop_nonce"})

    error = _refused(challenge, dpop=key)
    assert [proof.get("nonce") for proof in proofs] == [None, "n-1"]
    assert error.error == "use_dpop_nonce"


def test_the_failure_sentence_is_translated_whole() -> None:
    from inspector.i18n import install
    from tests.unit.i18n.test_strings import Shouting

    install(Shouting())
    try:
        shown = translate(_refused(lambda request: _response(200, json={"token_type": "Bearer"})))
    finally:
        install(None)
    assert shown == f"THE TOKEN ENDPOINT {ISSUER}/token ANSWERED WITHOUT AN ACCESS TOKEN."
