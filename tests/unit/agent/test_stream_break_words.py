"""Why a model's answer stream broke off, in our words: never httpx's class names."""

from __future__ import annotations

import errno

import httpx
import pytest

from inspector.agent.chat_stream import _why_it_broke


@pytest.mark.parametrize(("error", "said"), [
    (httpx.RemoteProtocolError("peer closed connection without sending complete message body (incomplete chunked "
                               "read)"), "the server closed it"),
    (httpx.RemoteProtocolError("Server disconnected without sending a response."), "the server closed it"),
    (httpx.RemoteProtocolError("illegal chunk header"), "what came was not valid HTTP"),
    (httpx.ReadError("reset"), "ReadError"),  # no reason of the system's in it: its kind, as before
])
def test_a_broken_stream_is_worded(error: httpx.HTTPError, said: str) -> None:
    assert str(_why_it_broke(error)) == said


def test_the_systems_reason_comes_first() -> None:
    error = httpx.ReadError("reset")
    error.__cause__ = ConnectionResetError(errno.ECONNRESET, "Connection reset by peer")
    assert str(_why_it_broke(error)) == "the connection was reset by the other side"
