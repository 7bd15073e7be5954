"""The test authorization server and protected MCP server (tests/support/auth_server.py) behave as
the sign-in tests assume: its documents, a code + PKCE round trip by hand, registration, refresh,
the 401/403 challenges, and the "browser" program that follows the redirect."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from urllib.parse import parse_qs, urlencode

import httpx
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.support.auth_config import (
    PRE_REGISTERED_ID,
    PRE_REGISTERED_SECRET,
    READ_SCOPE,
    WRITE_SCOPE,
    AuthConfig,
    pre_registered,
)
from tests.support.auth_endpoints import s256
from tests.support.auth_flow import (
    FOLLOW_REDIRECT,
    INITIALIZE,
    MCP_HEADERS,
    authorize,
    redirect_listener,
    register,
    sign_in,
)
from tests.support.auth_server import serve_auth_server


def test_documents_point_from_the_challenge_to_the_endpoints() -> None:
    with serve_auth_server(AuthConfig(issuer_path="/tenant1")) as auth:
        refused = httpx.post(auth.mcp_url, json=INITIALIZE, headers=MCP_HEADERS)
        assert refused.status_code == 401
        challenge = refused.headers["www-authenticate"]
        assert challenge.startswith("Bearer ") and f'scope="{READ_SCOPE}"' in challenge
        assert f'resource_metadata="{auth.origin}/.well-known/oauth-protected-resource/mcp"' in challenge
        prm = httpx.get(auth.prm_url).json()
        assert prm["resource"] == auth.mcp_url and prm["authorization_servers"] == [f"{auth.origin}/tenant1"]
        assert httpx.get(f"{auth.origin}/.well-known/oauth-protected-resource").status_code == 404
        metadata = httpx.get(f"{auth.origin}/.well-known/oauth-authorization-server/tenant1").json()
        assert metadata["issuer"] == auth.issuer
        assert metadata["authorization_endpoint"] == f"{auth.origin}/tenant1/authorize"
        assert metadata["code_challenge_methods_supported"] == ["S256"]
        assert metadata["authorization_response_iss_parameter_supported"] is True
        assert metadata["registration_endpoint"] == f"{auth.origin}/tenant1/register"


def test_code_with_pkce_gives_a_token_the_mcp_server_accepts() -> None:
    with serve_auth_server() as auth:
        tokens = sign_in(auth)
        assert tokens["token_type"] == "Bearer" and tokens["scope"] == READ_SCOPE and tokens["refresh_token"]
        answer = httpx.post(auth.mcp_url, json=INITIALIZE,
                            headers=dict(MCP_HEADERS, Authorization=f"Bearer {tokens['access_token']}"))
        assert answer.status_code == 200
        authorization = auth.requests("authorize")[0]
        assert authorization.params["resource"] == auth.mcp_url
        exchange = auth.requests("token")[0]
        assert exchange.form is not None and exchange.form["code_verifier"] and exchange.form["resource"]
        assert auth.secrets_in_urls() == []  # a token never travels in a URL
        assert auth.requests("/mcp")[0].authorization == f"Bearer {tokens['access_token']}"
        assert tokens["access_token"] in auth.secrets()
        httpx.get(auth.mcp_url, params={"access_token": tokens["access_token"]})  # what a leaky client does
        assert [seen.path for seen in auth.secrets_in_urls()] == ["/mcp"]


def test_the_authorization_response_names_the_issuer_and_the_state() -> None:
    with serve_auth_server() as auth:
        client = register(auth, "http://127.0.0.1:1000/cb")
        # Any loopback port matches the registered loopback redirect (RFC 8252).
        back = authorize(auth, client["client_id"], "http://127.0.0.1:2000/cb", "v" * 43)
        assert back["state"] == ["st-1"] and back["iss"] == [auth.issuer] and back["code"]
    with serve_auth_server(AuthConfig(send_iss=False)) as auth:
        client = register(auth, "http://127.0.0.1:1000/cb")
        assert "iss" not in authorize(auth, client["client_id"], "http://127.0.0.1:1000/cb", "v" * 43)


def test_a_wrong_verifier_or_resource_is_refused() -> None:
    with serve_auth_server() as auth:
        client = register(auth, "http://127.0.0.1:1000/cb")
        code = authorize(auth, client["client_id"], "http://127.0.0.1:1000/cb", "right" * 9)["code"][0]
        answer = httpx.post(auth.endpoint("token"), data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": "http://127.0.0.1:1000/cb",
            "code_verifier": "wrong" * 9, "client_id": client["client_id"], "resource": auth.mcp_url})
        assert answer.status_code == 400 and answer.json()["error"] == "invalid_grant"
        back = authorize(auth, client["client_id"], "http://127.0.0.1:1000/cb", "v" * 43, resource="http://x/mcp")
        assert back["error"] == ["invalid_request"]


def test_registration_records_the_application_type_and_refuses_web_loopback() -> None:
    with serve_auth_server() as auth:
        client = register(auth, "http://127.0.0.1:1000/cb", token_endpoint_auth_method="client_secret_basic")
        assert client["client_secret"] and client["application_type"] == "native"
        assert auth.endpoints.clients[client["client_id"]].application_type == "native"
        web = httpx.post(auth.endpoint("register"), json={"redirect_uris": ["http://127.0.0.1:1000/cb"],
                                                          "application_type": "web"})
        assert web.status_code == 400 and web.json()["error"] == "invalid_redirect_uri"
        assert auth.requests("register")[0].json["application_type"] == "native"


def test_refresh_rotates_and_the_old_refresh_token_stops_working() -> None:
    with serve_auth_server() as auth:
        tokens = sign_in(auth)
        form = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
                "client_id": tokens["client_id"], "resource": auth.mcp_url}
        renewed = httpx.post(auth.endpoint("token"), data=form)
        assert renewed.status_code == 200 and renewed.json()["refresh_token"] != tokens["refresh_token"]
        again = httpx.post(auth.endpoint("token"), data=form)
        assert again.status_code == 400 and again.json()["error"] == "invalid_grant"


def test_client_credentials_with_basic_and_the_method_is_enforced() -> None:
    with serve_auth_server(AuthConfig(clients=[pre_registered("client_secret_basic")])) as auth:
        form = {"grant_type": "client_credentials", "resource": auth.mcp_url, "scope": READ_SCOPE}
        basic = httpx.post(auth.endpoint("token"), data=form, auth=(PRE_REGISTERED_ID, PRE_REGISTERED_SECRET))
        assert basic.status_code == 200 and basic.json()["access_token"]
        posted = httpx.post(auth.endpoint("token"), data=dict(
            form, client_id=PRE_REGISTERED_ID, client_secret=PRE_REGISTERED_SECRET))
        assert posted.status_code == 401 and posted.json()["error"] == "invalid_client"


def test_a_token_without_the_larger_scope_gets_403_insufficient_scope() -> None:
    async def call(token: str) -> str:
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers) as http, \
                streamable_http_client(auth.mcp_url, http_client=http) as (read, write, *_), \
                ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("echo", {"text": "hi"})
            return result.content[0].text

    import anyio

    with serve_auth_server() as auth:
        read_only = auth.mint(READ_SCOPE)["access_token"]
        assert anyio.run(call, read_only) == "hi"
        step_up = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                   "params": {"name": "write_note", "arguments": {"text": "x"}}}
        refused = httpx.post(auth.mcp_url, json=step_up, headers=dict(MCP_HEADERS, Authorization=f"Bearer {read_only}"))
        assert refused.status_code == 403
        assert 'error="insufficient_scope"' in refused.headers["www-authenticate"]
        assert f'scope="{READ_SCOPE} {WRITE_SCOPE}"' in refused.headers["www-authenticate"]
        expired = auth.mint(READ_SCOPE, expires_in=0)["access_token"]
        answer = httpx.post(auth.mcp_url, json=INITIALIZE, headers=dict(MCP_HEADERS, Authorization=f"Bearer {expired}"))
        assert answer.status_code == 401 and 'error="invalid_token"' in answer.headers["www-authenticate"]
        assert any(seen.authorization == f"Bearer {read_only}" for seen in auth.requests("/mcp"))


@pytest.mark.parametrize("browser", [str(FOLLOW_REDIRECT), f"{sys.executable} {FOLLOW_REDIRECT} %s"])
def test_webbrowser_with_browser_set_completes_the_flow(browser: str) -> None:
    """``BROWSER`` as a lone path (the URL is appended) or as a command line with ``%s``."""
    with serve_auth_server() as auth, redirect_listener() as (redirect_uri, got):
        client = register(auth, redirect_uri)
        url = auth.endpoint("authorize") + "?" + urlencode({
            "response_type": "code", "client_id": client["client_id"], "redirect_uri": redirect_uri,
            "code_challenge": s256("v" * 43), "code_challenge_method": "S256", "state": "s",
            "resource": auth.mcp_url})
        script = f"import webbrowser, sys; sys.exit(0 if webbrowser.open({json.dumps(url)}) else 1)"
        subprocess.run([sys.executable, "-c", script], env=dict(os.environ, BROWSER=browser), check=True,
                       timeout=30)
        assert len(got) == 1 and parse_qs(got[0])["code"] and parse_qs(got[0])["iss"] == [auth.issuer]
