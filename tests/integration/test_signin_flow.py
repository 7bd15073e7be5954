"""Signing in to a protected server end to end, against a real authorization server on loopback
(tests/support/auth_server.py): discovery, registration, PKCE, the loopback redirect, the token,
the token on later requests, a refresh as a leg, step-up, and each failing step named.

The "browser" is tests/support/follow_redirect.py run in a thread: it GETs the authorization URL
and follows the one redirect to the client's loopback listener, as a person's browser would."""

from __future__ import annotations

import asyncio
import threading
import time
from urllib.parse import parse_qsl, urlsplit

import pytest
from starlette.responses import PlainTextResponse

from inspector.i18n.messages import translate
from inspector.mcp import CancelSignal, McpClient, OperationRecorder, ServerEndpoint
from inspector.mcp.errors import ErrorKind, McpTransportError
from inspector.mcp.signin.flow import (
    STEP_BROWSER,
    STEP_REFRESH,
    STEP_RESOURCE,
    STEP_SERVER,
    STEP_WORDS,
    STEPS,
    SignInStep,
)
from inspector.mcp.signin.model import MemoryVault
from tests.support.asgi_server import serve_asgi
from tests.support.auth_config import READ_SCOPE, WRITE_SCOPE, AuthConfig
from tests.support.auth_server import MESSAGES, AuthServer, serve_auth_server
from tests.support.follow_redirect import main as follow_redirect

pytestmark = pytest.mark.timeout(60)


async def follow(url: str) -> bool:
    """A browser that follows the authorization server's redirect (in a thread, as a browser is)."""
    done = asyncio.get_running_loop().create_future()

    def run() -> None:
        status = follow_redirect(["follow_redirect.py", url])
        done.get_loop().call_soon_threadsafe(lambda: done.done() or done.set_result(status == 0))

    threading.Thread(target=run, daemon=True).start()
    return await done


class Steps(OperationRecorder):
    """Records the sign-in's legs and the steps it says it did."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[SignInStep] = []

    def signin_step(self, step: SignInStep) -> None:
        self.said.append(step)


def sign_in(client: McpClient, server: ServerEndpoint, observer: Steps | None = None, **options):
    return asyncio.run(client.sign_in(server, browser=options.pop("browser", follow), observer=observer,
                                      budget_s=options.pop("budget_s", 30), **options))


def failed_signin(config: AuthConfig) -> tuple[McpTransportError, Steps, object]:
    with serve_auth_server(config) as auth:
        client, steps = McpClient(signin_vault=MemoryVault()), Steps()
        with pytest.raises(McpTransportError) as raised:
            sign_in(client, ServerEndpoint(auth.mcp_url), steps)
        return raised.value, steps, auth


def test_a_protected_server_asks_for_a_sign_in_and_no_headers_are_blamed():
    with serve_auth_server() as auth:
        client = McpClient(signin_vault=MemoryVault())
        with pytest.raises(McpTransportError) as raised:
            asyncio.run(client.list_tools(ServerEndpoint(auth.mcp_url), budget_s=10))
    error = raised.value
    assert error.kind is ErrorKind.SIGNIN_REQUIRED and error.code == 1013 and error.http_status == 401
    assert error.challenge is not None and error.challenge.scope == READ_SCOPE
    assert "needs a sign-in" in error.message and "headers" not in error.message


def test_signing_in_goes_through_every_step_as_legs_and_the_call_then_carries_the_token():
    with serve_auth_server() as auth:
        vault = MemoryVault()
        client, steps = McpClient(signin_vault=vault), Steps()
        server = ServerEndpoint(auth.mcp_url)
        signed = sign_in(client, server, steps)
        result = asyncio.run(client.call_tool(server, "echo", {"text": "hi"}, budget_s=10))
        authorize = auth.requests("/authorize")[0].params
        token = auth.requests("/token")[0].form
        registered = auth.requests("/register")[0].json
        mcp = [seen for seen in auth.requests(auth.config.mcp_path) if seen.method == "POST"]
    assert [leg.method for leg in steps.legs] == list(STEPS)
    assert all(leg.outcome.value == "ok" for leg in steps.legs)
    assert [said.step for said in steps.said].count(STEP_BROWSER) == 2  # the address, then the code
    assert steps.finished is not None and steps.finished.operation == "sign-in" and steps.finished.outcome == "ok"
    assert not result.is_error
    assert signed.tokens.issuer == auth.issuer and vault.tokens(auth.mcp_url) == signed.tokens
    assert authorize["code_challenge_method"] == "S256" and authorize["resource"] == auth.mcp_url
    assert authorize["scope"].split()[0] == READ_SCOPE and urlsplit(authorize["redirect_uri"]).hostname == "127.0.0.1"
    assert token["grant_type"] == "authorization_code" and token["resource"] == auth.mcp_url
    assert len(token["code_verifier"]) >= 43
    assert registered["application_type"] == "native" and registered["redirect_uris"] == [authorize["redirect_uri"]]
    assert mcp and all(seen.authorization == f"Bearer {signed.tokens.access_token}" for seen in mcp)
    assert not any(signed.tokens.access_token in seen.url for seen in auth.requests())


def test_a_refresh_before_expiry_is_a_leg_of_the_operation_and_rotates_the_token():
    with serve_auth_server(AuthConfig(expires_in=30)) as auth:
        vault = MemoryVault()
        client, recorder = McpClient(signin_vault=vault), OperationRecorder()
        server = ServerEndpoint(auth.mcp_url)
        first = sign_in(client, server).tokens
        asyncio.run(client.call_tool(server, "echo", {"text": "hi"}, budget_s=10, observer=recorder))
        refreshed = [seen.form for seen in auth.requests("/token") if seen.form["grant_type"] == "refresh_token"]
    assert recorder.legs[0].method == STEP_REFRESH and recorder.legs[0].outcome.value == "ok"
    assert refreshed and refreshed[0]["resource"] == auth.mcp_url
    kept = vault.tokens(auth.mcp_url)
    assert kept.access_token != first.access_token and kept.refresh_token != first.refresh_token


def test_a_server_of_the_2025_03_26_revision_without_any_metadata_is_refreshed_at_its_default_token_endpoint():
    # Signed in at the origin's default endpoints (/authorize, /token, /register): refreshed there too,
    # not "no metadata was found" at every later call.
    config = AuthConfig(prm_at="none", challenge_resource_metadata=False, metadata_at=(), expires_in=30)
    with serve_auth_server(config) as auth:
        vault = MemoryVault()
        client, recorder = McpClient(signin_vault=vault), OperationRecorder()
        server = ServerEndpoint(auth.mcp_url)
        first = sign_in(client, server).tokens
        result = asyncio.run(client.call_tool(server, "echo", {"text": "hi"}, budget_s=10, observer=recorder))
        refreshed = [seen.form for seen in auth.requests("/token") if seen.form["grant_type"] == "refresh_token"]
    assert not result.is_error and first.issuer == auth.origin
    assert recorder.legs[0].method == STEP_REFRESH and recorder.legs[0].outcome.value == "ok"
    assert len(refreshed) == 1 and vault.tokens(auth.mcp_url).access_token != first.access_token


def test_a_refused_refresh_forgets_the_tokens_and_asks_for_a_sign_in():
    with serve_auth_server(AuthConfig(expires_in=30, refuse_refresh=True)) as auth:
        vault = MemoryVault()
        client = McpClient(signin_vault=vault)
        server = ServerEndpoint(auth.mcp_url)
        sign_in(client, server)
        result = asyncio.run(client.call_tool(server, "echo", {"text": "hi"}, budget_s=10))
    # The token still worked (it had not expired): the refused refresh only made it the last use.
    assert not result.is_error and vault.tokens(auth.mcp_url) is None


def test_a_refresh_the_authorization_server_is_too_slow_for_names_it_not_the_server(german):
    # It was the authorization server that did not answer, and the leg's English name ("sign-in:
    # refresh") is no part of the sentence, in any language.
    with serve_auth_server(AuthConfig(expires_in=30)) as auth:
        client, recorder = McpClient(signin_vault=MemoryVault()), OperationRecorder()
        server = ServerEndpoint(auth.mcp_url)
        sign_in(client, server)
        auth.config.token_delay = 3
        with pytest.raises(McpTransportError) as raised:
            asyncio.run(client.call_tool(server, "echo", {"text": "hi"}, budget_s=1, observer=recorder))
    error = raised.value
    assert error.kind is ErrorKind.TIMED_OUT and error.method == STEP_REFRESH
    assert recorder.legs[-1].method == STEP_REFRESH and recorder.legs[-1].error_kind == "timed_out"
    assert error.message.startswith(f"The authorization server {auth.issuer} did not finish answering the refresh "
                                    f"of the sign-in to the server {auth.mcp_url} within the 1 s granted")
    said = translate(error)
    assert said.startswith(f"Der Autorisierungsserver {auth.issuer} hat die Erneuerung der Anmeldung beim Server "
                           f"{auth.mcp_url} nicht innerhalb der ihm gewährten 1 s beantwortet")
    assert STEP_REFRESH not in said and STEP_REFRESH not in error.message


def test_a_refresh_ahead_of_the_tokens_end_that_fails_leaves_the_call_on_the_token_that_still_works():
    with serve_auth_server(AuthConfig(expires_in=30, fail_refresh_status=500)) as auth:
        vault = MemoryVault()
        client, recorder = McpClient(signin_vault=vault), OperationRecorder()
        server = ServerEndpoint(auth.mcp_url)
        first = sign_in(client, server).tokens
        result = asyncio.run(client.call_tool(server, "echo", {"text": "hi"}, budget_s=10, observer=recorder))
    assert not result.is_error
    assert recorder.legs[0].method == STEP_REFRESH and recorder.legs[0].outcome.value == "failed"
    assert vault.tokens(auth.mcp_url) == first  # kept: the next operation tries the refresh again


def test_a_refresh_that_fails_after_the_tokens_end_says_the_sign_in_is_kept_and_how_to_sign_in_again():
    with serve_auth_server(AuthConfig(expires_in=1, fail_refresh_status=500)) as auth:
        vault = MemoryVault()
        client = McpClient(signin_vault=vault)
        server = ServerEndpoint(auth.mcp_url)
        first = sign_in(client, server).tokens
        while not first.expires_within(0):
            time.sleep(0.05)
        with pytest.raises(McpTransportError) as raised:
            asyncio.run(client.call_tool(server, "echo", {"text": "hi"}, budget_s=10))
    error = raised.value
    assert error.kind is ErrorKind.SIGNIN_FAILED and error.signin_step == STEP_REFRESH
    assert "answered HTTP 500" in error.message
    assert error.message.endswith("The sign-in is kept, and the next operation tries to refresh it again; if this "
                                  "keeps failing, sign in again (the window's Sign in, or: run-inspector signin "
                                  f"\"{auth.mcp_url}\").")
    assert vault.tokens(auth.mcp_url) == first


@pytest.mark.parametrize("transport", ["http", "sse"])
def test_a_larger_scope_is_asked_for_with_the_one_granted_before(transport):
    # Over the older HTTP+SSE transport the 403 answers a posted message (the event stream was let
    # in): a step-up all the same, not a server that stopped answering.
    config = AuthConfig(transport="sse", mcp_path="/sse") if transport == "sse" else AuthConfig()
    with serve_auth_server(config) as auth:
        client = McpClient(signin_vault=MemoryVault())
        server = ServerEndpoint(auth.mcp_url, transport=transport)
        with pytest.raises(McpTransportError) as asked:
            asyncio.run(client.call_tool(server, "write_note", {"text": "x"}, budget_s=10))
        first = sign_in(client, server, challenge=asked.value.challenge).tokens  # the challenge's scope only
        with pytest.raises(McpTransportError) as raised:
            asyncio.run(client.call_tool(server, "write_note", {"text": "x"}, budget_s=10))
        error = raised.value
        assert error.kind is ErrorKind.SIGNIN_REQUIRED and error.http_status == 403 and error.method == "tools/call"
        assert error.challenge.insufficient_scope and WRITE_SCOPE in error.challenge.scope.split()
        sign_in(client, server, challenge=error.challenge, previous_scope=first.scope)
        result = asyncio.run(client.call_tool(server, "write_note", {"text": "x"}, budget_s=10))
        scopes = dict(parse_qsl(urlsplit(auth.requests("/authorize")[-1].url).query))["scope"].split()
    assert not result.is_error
    assert READ_SCOPE in scopes and WRITE_SCOPE in scopes


@pytest.mark.parametrize(("config", "step", "words"), [
    (AuthConfig(iss_value="https://elsewhere.example"), STEP_BROWSER, "not from the authorization server"),
    (AuthConfig(send_iss=False), STEP_BROWSER, "does not name its authorization server"),
    (AuthConfig(code_challenge_methods=None), STEP_SERVER, "PKCE"),
    (AuthConfig(code_challenge_methods=("plain",)), STEP_SERVER, "PKCE"),
    (AuthConfig(metadata_issuer="https://other.example"), STEP_SERVER, "names another issuer"),
    (AuthConfig(prm_resource="https://other.example/mcp"), STEP_RESOURCE, "not for this server"),
    (AuthConfig(deny=True), STEP_BROWSER, "said no"),
])
def test_a_failing_step_is_named_and_nothing_is_exchanged_after_it(config, step, words):
    error, steps, auth = failed_signin(config)
    assert error.kind is ErrorKind.SIGNIN_FAILED and error.code == 1014 and error.signin_step == step
    assert f"failed at the step “{STEP_WORDS[step]}”" in error.message and words in error.message
    assert steps.legs[-1].method == step and steps.legs[-1].outcome.value == "failed"
    assert not auth.requests("/token")  # no code was exchanged after the failing step


def test_resource_metadata_is_looked_for_path_first_then_at_the_root():
    with serve_auth_server(AuthConfig(prm_at="root", challenge_resource_metadata=False)) as auth:
        client = McpClient(signin_vault=MemoryVault())
        sign_in(client, ServerEndpoint(auth.mcp_url))
        looked = [seen.path for seen in auth.requests() if "oauth-protected-resource" in seen.path]
    assert looked == ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]


def test_a_challenge_naming_its_metadata_by_a_relative_address_is_read_on_the_servers_origin():
    # RFC 9728 wants a whole URL; a browser would resolve "/custom/prm.json" against the address it came from.
    config = AuthConfig(prm_at="/custom/prm.json", challenge_relative_metadata=True)
    with serve_auth_server(config) as auth:
        client, server = McpClient(signin_vault=MemoryVault()), ServerEndpoint(auth.mcp_url)
        with pytest.raises(McpTransportError) as asked:
            asyncio.run(client.list_tools(server, budget_s=10))
        assert asked.value.challenge.resource_metadata == "/custom/prm.json"
        sign_in(client, server, challenge=asked.value.challenge)
        listed = asyncio.run(client.list_tools(server, budget_s=10))
        looked = [seen.path for seen in auth.requests() if seen.path.endswith("prm.json")]
    assert looked == ["/custom/prm.json"] and listed.tools


def test_a_sign_in_waiting_on_the_browser_is_cancelled_not_failed():
    async def never(url: str) -> bool:
        return True  # a browser that opened, and a person who never signs in

    with serve_auth_server() as auth:
        client, steps, cancel = McpClient(signin_vault=MemoryVault()), Steps(), CancelSignal()

        async def scenario():
            task = asyncio.ensure_future(client.sign_in(ServerEndpoint(auth.mcp_url), browser=never, cancel=cancel,
                                                        observer=steps, budget_s=30))
            while not any(said.address for said in steps.said):
                await asyncio.sleep(0.01)
            cancel.fire()
            return await asyncio.gather(task, return_exceptions=True)

        (error,) = asyncio.run(scenario())
    assert isinstance(error, McpTransportError) and error.is_cancellation
    assert steps.finished.outcome == "cancelled" and steps.legs[-1].method == STEP_BROWSER
    assert steps.legs[-1].outcome.value == "cancelled"


def test_the_older_sse_transport_asks_for_a_sign_in_and_carries_the_token_after_it():
    with serve_auth_server(AuthConfig(transport="sse", mcp_path="/sse")) as auth:
        client = McpClient(signin_vault=MemoryVault())
        server = ServerEndpoint(auth.mcp_url, transport="sse")
        with pytest.raises(McpTransportError) as raised:
            asyncio.run(client.list_tools(server, budget_s=10))
        assert raised.value.kind is ErrorKind.SIGNIN_REQUIRED and raised.value.http_status == 401
        sign_in(client, server, challenge=raised.value.challenge)
        catalogue = asyncio.run(client.list_tools(server, budget_s=10))
    assert "echo" in catalogue.names


def test_a_token_refused_on_a_message_of_the_older_sse_transport_is_refreshed_and_the_call_runs_again():
    """The token ran out between the event stream and a message: refreshed once, as a leg, and the
    operation starts again (not "the server stopped answering")."""
    auth, armed = AuthServer(AuthConfig(transport="sse", mcp_path="/sse")), []

    async def refuse_one_message(scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"].startswith(MESSAGES) and armed:
            armed.clear()
            expired = PlainTextResponse("expired", 401, headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
            await expired(scope, receive, send)
            return
        await auth(scope, receive, send)

    with serve_asgi(refuse_one_message, path="") as origin:
        auth.origin = origin
        client, recorder = McpClient(signin_vault=MemoryVault()), OperationRecorder()
        server = ServerEndpoint(auth.mcp_url, transport="sse")
        sign_in(client, server)
        armed.append(True)
        result = asyncio.run(client.call_tool(server, "echo", {"text": "hi"}, budget_s=10, observer=recorder))
    assert not result.is_error and not armed
    assert [leg.outcome.value for leg in recorder.legs if leg.method == STEP_REFRESH] == ["ok"]


def test_a_server_whose_authorization_server_moved_is_signed_in_to_anew_with_a_new_registration():
    with serve_auth_server() as auth, serve_auth_server() as elsewhere:
        vault = MemoryVault()
        client = McpClient(signin_vault=vault)
        server = ServerEndpoint(auth.mcp_url)
        first = sign_in(client, server)
        auth.migrate_to(elsewhere)
        with pytest.raises(McpTransportError) as raised:  # the old token is refused now; it has no refresh
            asyncio.run(client.list_tools(server, budget_s=10))
        assert raised.value.kind is ErrorKind.SIGNIN_REQUIRED
        second = sign_in(client, server, challenge=raised.value.challenge)
        asyncio.run(client.list_tools(server, budget_s=10))
        registered_there = elsewhere.requests("/register")
        sent_there = [seen.form.get("client_id") for seen in elsewhere.requests("/token")]
    assert second.tokens.issuer == elsewhere.issuer != first.tokens.issuer
    assert registered_there and second.client.client_id != first.client.client_id
    assert first.client.client_id not in sent_there and first.client.client_id not in str(elsewhere.seen)
    assert vault.client(auth.issuer) == first.client and vault.client(elsewhere.issuer) == second.client


def test_a_registered_client_the_authorization_server_forgot_is_registered_anew():
    """An authorization server restarted with an empty memory: the kept client is unknown there
    (invalid_client on the refresh), so it is forgotten with the tokens and the next sign-in registers."""
    from inspector.mcp.signin.model import REGISTERED, ClientIdentity, TokenSet

    with serve_auth_server(AuthConfig(expires_in=30)) as auth:
        vault = MemoryVault()
        ghost = ClientIdentity("ghost-client-0000", auth.issuer, REGISTERED, "ghost-secret-0000", "client_secret_post")
        vault.keep_client(ghost)
        vault.keep_tokens(TokenSet("at-ghost-0000", auth.issuer, auth.mcp_url, refresh_token="rt-ghost-0000",
                                   expires_at=0))
        client = McpClient(signin_vault=vault)
        server = ServerEndpoint(auth.mcp_url)
        with pytest.raises(McpTransportError) as raised:
            asyncio.run(client.list_tools(server, budget_s=10))
        assert raised.value.kind is ErrorKind.SIGNIN_REQUIRED
        assert vault.client(auth.issuer) is None and vault.tokens(auth.mcp_url) is None
        signed = sign_in(client, server, challenge=raised.value.challenge)
    assert signed.client.client_id != ghost.client_id and len(auth.requests("/register")) == 1


def test_a_browser_that_never_comes_back_ends_the_sign_in_when_its_budget_is_spent():
    async def never(url: str) -> bool:
        return True

    error, steps, _auth = None, Steps(), None
    with serve_auth_server() as auth:
        client = McpClient(signin_vault=MemoryVault())
        with pytest.raises(McpTransportError) as raised:
            sign_in(client, ServerEndpoint(auth.mcp_url), steps, browser=never, budget_s=1.5)
        error = raised.value
    assert error.kind is ErrorKind.SIGNIN_FAILED and error.signin_step == STEP_BROWSER
    assert "did not finish within the sign-in's budget of 1.5 s" in error.message
    assert steps.legs[-1].method == STEP_BROWSER and steps.legs[-1].error_kind == "timed_out"
