"""A server whose event stream says ``Content-Encoding: gzip`` but is not gzip: the listening session's
standalone stream, the stateless era's subscription stream and the older transport's event stream say
so in words of ours, as a pull, the agent and a sign-in say it, not in httpx's ("… broke: Error -3 while
decompressing data: invalid stored block lengths", "… failed: DecodingError"). A small misbehaving server on
127.0.0.1 (:mod:`tests.support.fault_server`)."""

from __future__ import annotations

import httpx
import pytest

from inspector.i18n import current_language, set_language
from inspector.i18n.messages import translate
from inspector.mcp import ServerEndpoint
from inspector.mcp.channels.http_client import new_http_client
from inspector.mcp.channels.sse_legacy import LegacySseChannel
from inspector.mcp.channels.stdio import ChannelError
from inspector.mcp.listen_stateless import StatelessListening
from inspector.mcp.listen_stream import ListeningStream, StreamClosed
from inspector.mcp.listening import ServerListener
from inspector.mcp.sse import EventStreamParser
from tests.support.fault_server import Exchange, FaultServer, default_work
from tests.support.hostile_streams import run_bounded

#: gzip's magic number, then bytes no gzip reader takes.
NOT_GZIP = b"\x1f\x8b\x08\x00" + b"event: message\ndata: {}\n\n" * 20
BOTCHED = "but its {} stream cannot be unpacked as its Content-Encoding header says (the stream is damaged, or a " \
          "proxy changed it)"


def botched_stream(exchange: Exchange) -> None:
    exchange.send(200, NOT_GZIP, content_type="text/event-stream", headers={"Content-Encoding": "gzip"})


def _ours(text: str) -> None:
    assert "Error -3" not in text and "DecodingError" not in text and "decompressing" not in text, text


def test_the_standalone_stream_of_a_session_says_it_cannot_be_unpacked() -> None:
    """Before: "The standalone stream of … broke: Error -3 while decompressing data: invalid stored block lengths"."""
    async def go() -> StreamClosed:
        listener = ServerListener(ServerEndpoint(server.url))
        listener._http = new_http_client()
        try:
            await listener._start_session()  # the real handshake, then the stream as the listener reads it
            with pytest.raises(StreamClosed) as closed:
                await ListeningStream(listener).read(EventStreamParser())
            return closed.value
        finally:
            await listener._http.aclose()

    with FaultServer("session", get=botched_stream) as server:
        closed = run_bounded(go, 20)
    said = str(closed.error)
    assert said == f"The server {server.url} answered, {BOTCHED.format('standalone')}.", said
    _ours(said)


def test_the_subscription_stream_of_the_stateless_era_says_it_cannot_be_unpacked() -> None:
    """Before: "The subscription stream of … broke: Error -3 while decompressing data: invalid stored block lengths"."""
    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "subscriptions/listen":
            botched_stream(exchange)
        else:
            default_work(exchange)

    async def go() -> object:
        listener = ServerListener(ServerEndpoint(server.url, era="stateless"))
        listener._http = new_http_client()
        try:
            return await StatelessListening(listener)._listen_once(EventStreamParser())
        finally:
            await listener._http.aclose()

    with FaultServer("stateless", work=work) as server:
        outcome = run_bounded(go, 20)
    assert outcome.how == "dropped"  # listened to again after the usual wait, as a stream that broke
    said = str(outcome.error)
    assert said == f"The server {server.url} answered, {BOTCHED.format('subscription')}.", said
    _ours(said)


def test_the_older_transports_event_stream_says_it_cannot_be_unpacked() -> None:
    """Before: "the event stream of … failed: DecodingError"; in German too."""
    async def go() -> ChannelError:
        async with httpx.AsyncClient() as http:
            with pytest.raises(ChannelError) as raised:
                await LegacySseChannel.open(http, ServerEndpoint(server.url), wait_s=10)
            return raised.value

    with FaultServer("session", get=botched_stream) as server:
        error = run_bounded(go, 20)
    said = str(error.sentence)
    assert said == f"{server.url} answered, {BOTCHED.format('event')}", said
    _ours(said)
    before = current_language()
    set_language("de")
    try:
        german = translate(error.sentence)
    finally:
        set_language(before)
    assert german.startswith(f"{server.url} hat geantwortet, aber der Ereignisstrom lässt sich nicht"), german
    _ours(german)
