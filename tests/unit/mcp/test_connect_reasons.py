"""Why a connection failed, in words of ours: the operating system's reason found under what httpx raises
(a real socket on loopback: a port where nothing listens), said in German too."""

from __future__ import annotations

import errno
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from inspector import i18n
from inspector.i18n.messages import translate
from inspector.mcp.connect_reasons import CONNECTION_REASONS, connection_reason


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the block ends: nothing listens there


def chained(*layers: BaseException) -> BaseException:
    """``layers[0]``, raised from ``layers[1]``, raised from ``layers[2]``…"""
    for outer, inner in zip(layers, layers[1:], strict=False):
        outer.__cause__ = inner
    return layers[0]


def test_a_refused_connection_is_said_as_refused_in_either_language() -> None:
    with pytest.raises(httpx.ConnectError) as raised:
        httpx.get(f"http://127.0.0.1:{closed_port()}/mcp", timeout=5)
    reason = connection_reason(raised.value)
    assert reason is not None and str(reason) != str(raised.value)
    assert str(reason) == "the connection was refused, which means nothing listens at that address and port"
    assert i18n.set_language("de") == "de", "the German catalogue is not compiled (make translations)"
    try:
        assert "abgewiesen" in translate(reason)
    finally:
        i18n.set_language("en")


def test_the_reason_is_found_however_it_is_wrapped() -> None:
    no_route = chained(RuntimeError("a"), OSError("All connection attempts failed"),
                       OSError(errno.EHOSTUNREACH, "no route"))
    assert str(connection_reason(no_route)) == "there is no route to the host"
    grouped = chained(OSError("w"), BaseExceptionGroup("all", [ValueError("x"),
                                                               socket.gaierror(-2, "Name or service not known")]))
    assert "host name could not be resolved" in str(connection_reason(grouped))
    context = OSError("outer")
    context.__context__ = ConnectionResetError(errno.ECONNRESET, "reset")
    assert str(connection_reason(context)) == "the connection was reset by the other side"


def test_an_https_address_answered_in_plain_http_is_said_as_such_in_either_language() -> None:
    """An https:// collector or query address of a server that speaks plain HTTP was said as OpenSSL says it:
    "[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)". A real plain HTTP server on loopback."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with pytest.raises(httpx.ConnectError) as raised:
            httpx.get(f"https://127.0.0.1:{server.server_address[1]}/v1/traces", timeout=5)
    finally:
        server.shutdown()
        server.server_close()
    reason = connection_reason(raised.value)
    assert str(reason) == ("the other side answered without TLS, which an https:// address needs: perhaps the "
                           "address is http://"), raised.value
    assert str(reason) in CONNECTION_REASONS  # a stored reason is said in the reader's language
    i18n.set_language("de")
    try:
        assert "ohne TLS" in translate(reason)
    finally:
        i18n.set_language("en")


def test_what_it_does_not_word_is_left_to_the_caller() -> None:
    assert connection_reason(OSError(errno.ENOENT, "no such file")) is None
    assert connection_reason(ValueError("nothing of the system")) is None
    assert connection_reason(OSError("All connection attempts failed")) is None


def test_a_chain_that_loops_or_runs_deep_ends() -> None:
    first, second = OSError("a"), OSError("b")
    first.__cause__, second.__cause__ = second, first
    assert connection_reason(first) is None
    deep: BaseException = OSError(errno.ECONNREFUSED, "refused")
    for _ in range(1000):
        deep = chained(RuntimeError("layer"), deep)
    assert connection_reason(deep) is None  # 1,000 layers down: not searched
