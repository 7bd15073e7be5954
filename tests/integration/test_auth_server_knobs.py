"""The test authorization server's fault knobs (tests/support/auth_config.py) do what the sign-in
tests rely on: each one changes the one thing it names."""

from __future__ import annotations

import json
import secrets
import threading
import time

import anyio
import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from mcp.client.session import ClientSession
from mcp.client.sse import sse_client

from tests.support.auth_clients import JWT_BEARER, key_pair, pre_registered_jwt
from tests.support.auth_config import READ_SCOPE, WRITE_SCOPE, AuthConfig, pre_registered
from tests.support.auth_flow import INITIALIZE, MCP_HEADERS, authorize, register, sign_in
from tests.support.auth_server import serve_auth_server

CIMD = "https://conformance-test.local/client-metadata.json"
WRITE_NOTE = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "write_note",
                                                                         "arguments": {"text": "x"}}}


def bearer(token: str) -> dict[str, str]:
    return dict(MCP_HEADERS, Authorization=f"Bearer {token}")


@pytest.mark.parametrize(("knobs", "expected"), [
    ({"code_challenge_methods": None}, {"code_challenge_methods_supported": None}),
    ({"code_challenge_methods": ("plain",)}, {"code_challenge_methods_supported": ["plain"]}),
    ({"metadata_issuer": "http://elsewhere.test"}, {"issuer": "http://elsewhere.test"}),
    ({"advertise_iss": False}, {"authorization_response_iss_parameter_supported": None}),
    ({"registration": False, "cimd_supported": True},
     {"registration_endpoint": None, "client_id_metadata_document_supported": True}),
    ({"token_auth_methods": ("client_secret_post",)},
     {"token_endpoint_auth_methods_supported": ["client_secret_post"]}),
])
def test_metadata_knobs(knobs: dict, expected: dict) -> None:
    with serve_auth_server(AuthConfig(**knobs)) as auth:
        document = httpx.get(auth.metadata_url).json()
        for key, value in expected.items():
            assert document.get(key) == value


def test_metadata_at_the_openid_addresses_only() -> None:
    with serve_auth_server(AuthConfig(issuer_path="/t1", metadata_at=("oidc-insert", "oidc-append"))) as auth:
        assert httpx.get(auth.metadata_url).status_code == 404
        for path in ("/.well-known/openid-configuration/t1", "/t1/.well-known/openid-configuration"):
            assert httpx.get(auth.origin + path).json()["issuer"] == auth.issuer


def test_resource_metadata_knobs() -> None:
    with serve_auth_server(AuthConfig(prm_at="root", prm_resource="http://other.test/mcp",
                                      challenge_resource_metadata=False, challenge_scope=None)) as auth:
        assert httpx.get(f"{auth.origin}/.well-known/oauth-protected-resource/mcp").status_code == 404
        assert httpx.get(f"{auth.origin}/.well-known/oauth-protected-resource").json()["resource"] == \
            "http://other.test/mcp"
        assert httpx.post(auth.mcp_url, json=INITIALIZE, headers=MCP_HEADERS).headers["www-authenticate"] == "Bearer"


def test_iss_knobs_and_denial() -> None:
    for knobs, iss in (({"iss_value": "http://evil.test"}, ["http://evil.test"]), ({"send_iss": False}, None)):
        with serve_auth_server(AuthConfig(**knobs)) as auth:
            client = register(auth, "http://127.0.0.1:9/cb")
            assert authorize(auth, client["client_id"], "http://127.0.0.1:9/cb", "v" * 43).get("iss") == iss
    with serve_auth_server(AuthConfig(deny=True)) as auth:
        client = register(auth, "http://127.0.0.1:9/cb")
        assert authorize(auth, client["client_id"], "http://127.0.0.1:9/cb", "v" * 43)["error"] == ["access_denied"]


def test_pre_registered_only_and_metadata_document_clients() -> None:
    config = AuthConfig(registration=False, clients=[pre_registered("client_secret_post")], cimd_supported=True,
                        metadata_documents={CIMD: {"client_id": CIMD, "client_name": "t",
                                                   "redirect_uris": ["http://127.0.0.1:7/cb"]}})
    with serve_auth_server(config) as auth:
        assert httpx.post(auth.endpoint("register"), json={"redirect_uris": ["http://127.0.0.1:7/cb"]}).status_code \
            == 404
        assert authorize(auth, "pre-registered-client", "http://127.0.0.1:7/cb", "v" * 43)["code"]
        assert authorize(auth, CIMD, "http://127.0.0.1:8/cb", "v" * 43)["code"]  # any loopback port
        assert auth.endpoints.clients[CIMD].how == "metadata-document"
        assert httpx.get(auth.endpoint("authorize"), params={"client_id": "https://unknown.test/c.json"}).status_code \
            == 400


def test_step_up_then_the_larger_token_passes_and_endless_step_up_never_does() -> None:
    with serve_auth_server() as auth:
        assert httpx.post(auth.mcp_url, json=WRITE_NOTE, headers=bearer(auth.mint()["access_token"])).status_code == 403
        wide = sign_in(auth, f"{READ_SCOPE} {WRITE_SCOPE}")["access_token"]
        assert httpx.post(auth.mcp_url, json=INITIALIZE, headers=bearer(wide)).status_code == 200
        assert httpx.post(auth.mcp_url, json=WRITE_NOTE, headers=bearer(wide)).status_code != 403
    with serve_auth_server(AuthConfig(endless_step_up=True)) as auth:
        wide = auth.mint(f"{READ_SCOPE} {WRITE_SCOPE}")["access_token"]
        assert httpx.post(auth.mcp_url, json=WRITE_NOTE, headers=bearer(wide)).status_code == 403


def test_expiring_refused_refresh_and_expire_tokens() -> None:
    with serve_auth_server(AuthConfig(expires_in=2, refuse_refresh=True)) as auth:
        tokens = sign_in(auth)
        assert tokens["expires_in"] == 2
        assert httpx.post(auth.mcp_url, json=INITIALIZE, headers=bearer(tokens["access_token"])).status_code == 200
        auth.expire_tokens()
        assert httpx.post(auth.mcp_url, json=INITIALIZE, headers=bearer(tokens["access_token"])).status_code == 401
        refused = httpx.post(auth.endpoint("token"), data={
            "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
            "client_id": tokens["client_id"], "resource": auth.mcp_url})
        assert refused.json()["error"] == "invalid_grant"


def test_slow_token_endpoint_tells_when_it_was_reached() -> None:
    with serve_auth_server(AuthConfig(token_delay=30)) as auth:
        done = threading.Event()

        def ask() -> None:
            try:
                httpx.post(auth.endpoint("token"), data={"grant_type": "client_credentials"}, timeout=0.5)
            except httpx.TimeoutException:
                done.set()

        thread = threading.Thread(target=ask)
        thread.start()
        assert auth.endpoints.token_requested.wait(10)
        thread.join(10)
        assert done.is_set()


def test_migration_makes_the_old_tokens_useless() -> None:
    with serve_auth_server() as old, serve_auth_server() as new:
        token = sign_in(old)["access_token"]
        old.migrate_to(new)
        assert httpx.get(old.prm_url).json()["authorization_servers"] == [new.issuer]
        assert httpx.post(old.mcp_url, json=INITIALIZE, headers=bearer(token)).status_code == 401
        client = register(new, "http://127.0.0.1:9/cb")
        verifier = "v" * 43
        code = authorize(new, client["client_id"], "http://127.0.0.1:9/cb", verifier, resource=old.mcp_url)["code"][0]
        issued = httpx.post(new.endpoint("token"), data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": "http://127.0.0.1:9/cb",
            "code_verifier": verifier, "client_id": client["client_id"], "resource": old.mcp_url}).json()
        assert httpx.post(old.mcp_url, json=INITIALIZE, headers=bearer(issued["access_token"])).status_code == 200


def test_the_older_sse_transport_is_guarded_too() -> None:
    async def echo(url: str, token: str) -> str:
        async with sse_client(url, headers={"Authorization": f"Bearer {token}"}) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            return (await session.call_tool("echo", {"text": "hi"})).content[0].text

    with serve_auth_server(AuthConfig(transport="sse", mcp_path="/sse")) as auth:
        assert httpx.get(auth.mcp_url).status_code == 401
        assert anyio.run(echo, auth.mcp_url, auth.mint()["access_token"]) == "hi"
        assert any(seen.path.startswith("/messages/") and seen.authorization for seen in auth.seen)


def test_resource_metadata_at_a_path_of_its_own_and_a_published_origin_resource() -> None:
    with serve_auth_server(AuthConfig(prm_at="/custom/metadata/location.json")) as auth:
        auth.config.prm_resource = auth.origin  # the conformance suite's root PRM names the origin
        challenge = httpx.post(auth.mcp_url, json=INITIALIZE, headers=MCP_HEADERS).headers["www-authenticate"]
        assert f'resource_metadata="{auth.origin}/custom/metadata/location.json"' in challenge
        assert httpx.get(auth.prm_url).json()["resource"] == auth.origin
        client = register(auth, "http://127.0.0.1:9/cb")
        assert authorize(auth, client["client_id"], "http://127.0.0.1:9/cb", "v" * 43, resource=auth.origin)["code"]
        assert authorize(auth, client["client_id"], "http://127.0.0.1:9/cb", "v" * 43)["error"] == ["invalid_request"]


def test_client_credentials_with_a_signed_jwt() -> None:
    client, private_key = pre_registered_jwt()
    with serve_auth_server(AuthConfig(clients=[client])) as auth:
        def assertion(key: str = private_key, jti: str = "") -> dict[str, str]:
            claims = {"iss": client.client_id, "sub": client.client_id, "aud": auth.endpoint("token"),
                      "exp": int(time.time()) + 60, "jti": jti or secrets.token_hex(8)}
            return {"grant_type": "client_credentials", "resource": auth.mcp_url,
                    "client_assertion_type": JWT_BEARER, "client_assertion": jwt.encode(claims, key, "ES256")}

        assert httpx.post(auth.endpoint("token"), data=assertion()).status_code == 200
        assert httpx.post(auth.endpoint("token"), data=assertion(key_pair()[0])).status_code == 401
        assert httpx.post(auth.endpoint("token"), data=assertion(jti="once")).status_code == 200
        assert httpx.post(auth.endpoint("token"), data=assertion(jti="once")).status_code == 401
        # Registered with a JWKS, the client's JWT is checked with that key.
        jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(
            serialization.load_pem_private_key(private_key.encode(), None).public_key()))
        registered = httpx.post(auth.endpoint("register"), json={
            "redirect_uris": ["http://127.0.0.1:9/cb"], "application_type": "native",
            "token_endpoint_auth_method": "private_key_jwt", "jwks": {"keys": [jwk]},
            "grant_types": ["client_credentials"]}).json()
        assert "client_secret" not in registered
        claims = {"iss": registered["client_id"], "sub": registered["client_id"], "aud": auth.issuer,
                  "exp": int(time.time()) + 60}
        answer = httpx.post(auth.endpoint("token"), data={
            "grant_type": "client_credentials", "resource": auth.mcp_url, "client_assertion_type": JWT_BEARER,
            "client_assertion": jwt.encode(claims, private_key, "ES256")})
        assert answer.status_code == 200, answer.text
