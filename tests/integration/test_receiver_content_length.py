"""The body's framing on a real receiver on 127.0.0.1 (a real socket, a real SQLite file): a request with two
different Content-Length values is refused (RFC 9112, section 6.3), not read by the first."""

from __future__ import annotations

import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.capture import ReceiverOptions, TraceReceiver

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.2)) as running:
        yield running


def _send(receiver: TraceReceiver, lengths: list[bytes], body: bytes) -> str:
    """The whole answer to a POST of ``body`` with a Content-Length field per item of ``lengths``, read
    until the receiver closes the connection."""
    head = b"POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
    head += b"".join(b"Content-Length: " + length + b"\r\n" for length in lengths)
    with socket.create_connection(receiver.address, timeout=10) as connection:
        connection.sendall(head + b"\r\n" + body)
        answer = b""
        while chunk := connection.recv(4096):
            answer += chunk
    return answer.decode()


def _runs(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM runs").fetchone()[0]


def test_two_different_content_lengths_are_refused_and_nothing_is_stored(receiver: TraceReceiver) -> None:
    body = FIXTURE.read_text(encoding="utf-8").splitlines()[0].encode()
    size = str(len(body)).encode()
    for lengths in ([size, b"2"], [b"2", size], [size + b", 2"]):
        answer = _send(receiver, lengths, body)
        assert answer.startswith("HTTP/1.1 400 "), answer
        assert "two different Content-Length values" in answer
    assert _send(receiver, [b"0x10"], body).startswith("HTTP/1.1 400 ")
    assert _send(receiver, [b"1_0"], body).startswith("HTTP/1.1 400 ")  # int() would read 10
    assert _send(receiver, [], body).startswith("HTTP/1.1 411 ")
    assert _runs(receiver.db_path) == 0
    # The same value twice is one value (RFC 9110, section 8.6): taken.
    assert _send(receiver, [size, size], body).startswith("HTTP/1.1 200 ")
    assert _runs(receiver.db_path) == 1


def test_chunked_with_a_content_length_is_refused_and_the_connection_closed(receiver: TraceReceiver) -> None:
    """RFC 9112, section 6.1: a request framed both ways may be refused; read as chunked, a proxy in front
    that framed it by the Content-Length would see another request in it (request smuggling)."""
    body = FIXTURE.read_text(encoding="utf-8").splitlines()[0].encode()
    chunked = f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"
    head = (b"POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n")  # no Connection: close: the receiver closes it itself
    for length in (len(chunked), len(body), 0):
        with socket.create_connection(receiver.address, timeout=10) as connection:
            connection.sendall(head + f"Content-Length: {length}\r\n\r\n".encode() + chunked)
            answer = b""
            while chunk := connection.recv(4096):  # ends only when the receiver closes the connection
                answer += chunk
        said = answer.decode()
        assert said.startswith("HTTP/1.1 400 "), said
        assert "both Transfer-Encoding: chunked and a Content-Length" in said
    assert _runs(receiver.db_path) == 0
    # Chunked alone is still taken, on a connection kept open for the next request.
    with socket.create_connection(receiver.address, timeout=10) as connection:
        connection.sendall(head + b"\r\n" + chunked)
        answer = connection.recv(4096).decode()
    assert answer.startswith("HTTP/1.1 200 "), answer
    assert _runs(receiver.db_path) == 1


def test_a_chunk_size_int_would_read_is_refused_unless_it_is_hexadecimal_digits(receiver: TraceReceiver) -> None:
    """RFC 9112, section 7.1: a chunk's size is hexadecimal digits. int() read "0x2", "+2", "2_0" too (and "-2"
    as no data): a request a proxy in front would frame otherwise was taken, as the Content-Length's "0x10" is not.
    So was data running past its chunk's size, up to the next line's end."""
    body = FIXTURE.read_text(encoding="utf-8").splitlines()[0].encode()
    head = (b"POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    size = f"{len(body):x}".encode()
    for framed in (b"0x" + size + b"\r\n" + body, b"+" + size + b"\r\n" + body, b"0_" + size + b"\r\n" + body,
                   b"-" + size + b"\r\n" + body, f"{len(body) - 2:x}\r\n".encode() + body):
        with socket.create_connection(receiver.address, timeout=10) as connection:
            connection.sendall(head + framed + b"\r\n0\r\n\r\n")
            answer = b""
            while chunk := connection.recv(4096):
                answer += chunk
        said = answer.decode()
        assert said.startswith("HTTP/1.1 400 "), (framed[:8], said)
        assert "The chunked body is malformed." in said
    assert _runs(receiver.db_path) == 0
    with socket.create_connection(receiver.address, timeout=10) as connection:  # digits with an extension: taken
        connection.sendall(head + size.upper() + b" ;name=value\r\n" + body + b"\r\n0\r\n\r\n")
        assert connection.recv(4096).decode().startswith("HTTP/1.1 200 ")
    assert _runs(receiver.db_path) == 1
