"""Sign-in documents from a server that is not ours: too large, too deep, pointing elsewhere,
answering the loopback redirect with someone else's state. Each stops the sign-in with a sentence
that names what happened, and nothing is sent where it must not go."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from inspector.mcp import McpClient, ServerEndpoint
from inspector.mcp.errors import ErrorKind, McpTransportError
from inspector.mcp.signin.flow import STEP_CLIENT, STEP_RESOURCE, STEP_SERVER
from inspector.mcp.signin.model import MemoryVault
from inspector.mcp.signin.redirect import LoopbackRedirect
from tests.support.asgi_server import serve_asgi

pytestmark = pytest.mark.timeout(60)


def hostile(prm: object, metadata: object = None, registration: Response | None = None) -> Starlette:
    """A protected server whose resource metadata (and authorization server metadata) is ``prm``
    (and ``metadata``): bytes as they are, anything else as JSON; ``/register`` answers
    ``registration`` (else 404)."""
    def answer(body: object) -> Response:
        if isinstance(body, bytes):
            return Response(body, media_type="application/json")
        return JSONResponse(body)

    async def mcp(request):
        return Response(status_code=401, headers={"WWW-Authenticate": 'Bearer scope="x"'})

    async def resource(request):
        return answer(prm)

    async def server(request):
        return answer(metadata) if metadata is not None else Response(status_code=404)

    async def register(request):
        return registration or Response(status_code=404)

    return Starlette(routes=[Route("/mcp", mcp, methods=["POST"]),
                             Route("/.well-known/oauth-protected-resource/mcp", resource),
                             Route("/.well-known/oauth-authorization-server", server),
                             Route("/register", register, methods=["POST"])])


def failed_at(app: Starlette) -> McpTransportError:
    with serve_asgi(app) as url:
        client = McpClient(signin_vault=MemoryVault())
        with pytest.raises(McpTransportError) as raised:
            asyncio.run(client.sign_in(ServerEndpoint(url), budget_s=10, browser=_never_called))
    return raised.value


async def _never_called(url: str) -> bool:
    raise AssertionError("the browser must not be opened")


def test_a_resource_metadata_document_larger_than_the_bound_is_refused():
    error = failed_at(hostile(b'{"authorization_servers": ["' + b"a" * 300_000 + b'"]}'))
    assert error.kind is ErrorKind.SIGNIN_FAILED and error.signin_step == STEP_RESOURCE
    assert "larger than 256 KiB" in error.message


@pytest.mark.parametrize("document", ["resource", "registration"])
def test_a_document_not_packed_as_it_says_is_said_so_not_as_a_server_out_of_reach(document):
    # Before: "… could not be reached (DecodingError)": the server had answered.
    unpacked = Response(b'{"client_id": "c"}', status_code=201, media_type="application/json",
                        headers={"Content-Encoding": "gzip"})
    app = hostile(b"", registration=unpacked)  # no metadata: the server's origin registers at /register
    if document == "resource":
        app = hostile({})
        app.router.routes[1] = Route("/.well-known/oauth-protected-resource/mcp", lambda request: Response(
            b"{}", media_type="application/json", headers={"Content-Encoding": "gzip"}))
    error = failed_at(app)
    assert error.signin_step == (STEP_RESOURCE if document == "resource" else STEP_CLIENT)
    assert "answered, but its answer cannot be unpacked as its Content-Encoding header says" in error.message
    assert "DecodingError" not in error.message


def test_a_deeply_nested_document_is_no_document_and_the_root_is_tried_next():
    error = failed_at(hostile(b"[" * 100_000 + b"]" * 100_000))
    # Neither the path-aware nor the root address gave a document: the server's origin is taken as
    # its authorization server (the 2025-03-26 way), whose default registration address is not there.
    assert error.signin_step == STEP_CLIENT and "refused to register" in error.message


def test_a_registration_refused_without_a_word_ends_at_the_status_not_at_a_dash():
    # A server that asks for no sign-in, signed in to anyway (the Sign in button of the demo server):
    # no metadata, the default registration address answers a bare 404.
    error = failed_at(hostile(b"[" * 100_000 + b"]" * 100_000))
    assert error.signin_step == STEP_CLIENT
    assert "refused to register this client (HTTP status 404)" in error.message
    assert "404): -" not in error.message and not error.message.rstrip(".").endswith("-")


def test_a_registration_answer_larger_than_the_bound_is_refused_not_read_whole():
    async def large():
        for _ in range(512):  # 32 MiB of padding, read whole before: "registered ... but gave no client id"
            yield b" " * 65536

    # No metadata anywhere: the server's origin is its own authorization server, registering at /register.
    error = failed_at(hostile(b"", registration=StreamingResponse(large(), status_code=201,
                                                                  media_type="application/json")))
    assert error.signin_step == STEP_CLIENT and "/register is larger than 256 KiB" in error.message


def test_a_registration_answered_with_a_web_page_says_so_not_that_no_client_id_came():
    error = failed_at(hostile(b"", registration=HTMLResponse("<html><body>Sign in</body></html>")))
    assert error.signin_step == STEP_CLIENT
    assert "answered the registration (HTTP status 200) with something that is not a JSON object" in error.message


@pytest.mark.parametrize("named", ["http://10.1.2.3/issuer", "file:///etc/passwd", "https://user:pw@as.example"])
def test_an_authorization_server_that_is_not_https_or_carries_credentials_is_not_fetched(named):
    error = failed_at(hostile({"resource": "placeholder", "authorization_servers": [named]}))
    assert error.signin_step in (STEP_RESOURCE, STEP_SERVER)
    assert "neither https nor on this machine" in error.message or "is for" in error.message


def test_endpoints_elsewhere_over_plain_http_are_refused_before_anything_is_sent():
    prm: dict = {}
    metadata: dict = {}
    with serve_asgi(hostile(prm, metadata)) as url:
        origin = url.rsplit("/", 1)[0]  # its own authorization server: known once it listens
        prm.update(authorization_servers=[origin])
        metadata.update(issuer=origin, authorization_endpoint="http://attacker.example/authorize",
                        token_endpoint=f"{origin}/token", code_challenge_methods_supported=["S256"])
        client = McpClient(signin_vault=MemoryVault())
        with pytest.raises(McpTransportError) as raised:
            asyncio.run(client.sign_in(ServerEndpoint(url), budget_s=10, browser=_never_called))
    assert raised.value.signin_step == STEP_SERVER and "attacker.example" in raised.value.message
    assert "neither https nor on this machine" in raised.value.message


def test_the_loopback_redirect_takes_only_its_own_state_and_bounds_what_it_reads():
    async def scenario():
        listener = LoopbackRedirect("the-right-state-1234")
        await listener.start()
        try:
            async with httpx.AsyncClient() as http:
                wrong = await http.get(listener.redirect_uri, params={"code": "stolen", "state": "guess"})
                elsewhere = await http.get(listener.redirect_uri.replace("/callback", "/other"))
                posted = await http.post(listener.redirect_uri, content=b"x")
                huge = await http.get(listener.redirect_uri, headers={"X-Big": "a" * 40_000})
                waiting = not listener._answer.done()
                right = await http.get(listener.redirect_uri, params={"code": "c-1", "state": "the-right-state-1234"})
            return wrong.status_code, elsewhere.status_code, posted.status_code, huge.status_code, waiting, \
                right.status_code, await listener.wait()
        finally:
            await listener.close()

    wrong, elsewhere, posted, huge, waiting, right, answer = asyncio.run(scenario())
    assert (wrong, elsewhere, posted) == (400, 404, 405) and huge >= 400
    assert waiting and right == 200 and answer["code"] == "c-1"
    assert json.dumps(answer).count("stolen") == 0
