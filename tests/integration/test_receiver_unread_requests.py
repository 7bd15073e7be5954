"""Requests the receiver's HTTP server cannot read (their first line, an HTTP version, a method, a line or
headers too long) and a JSON body with a whole number past Python's 4,300 digits: answered in the receiver's
words, an OTLP Status in JSON with its status line, as its other refusals are; never Python's HTML error page
nor its advice to call ``sys.set_int_max_str_digits()``. Real sockets to a real receiver on 127.0.0.1; an
import of such a number says it in the same words."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver
from tests.support.cli_process import cli

BODY = (b'{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":'
        b'"b7ad6b7169203331","name":"n","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"n",'
        b'"value":{"intValue":' + b"7" * 5000 + b'}}]}]}]}]}')
DIGITS = "more than 4,300 digits in a row (a whole number too long to read)"


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4)) as running:
        yield running


def _sent(receiver: TraceReceiver, raw: bytes) -> tuple[str, dict[str, str], bytes]:
    """The answer to ``raw`` (its status line, headers and body) once the receiver closed the connection."""
    with socket.create_connection(receiver.address, timeout=10) as connection:
        connection.sendall(raw)
        answer = b""
        while piece := connection.recv(65536):
            answer += piece
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    return status, {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}, body


@pytest.mark.parametrize(("raw", "status", "message"), [
    (b"GARBAGE\r\n\r\n", "400",
     "The request's first line 'GARBAGE' is not an HTTP/1.1 request line and was refused: send POST /v1/traces."),
    (b"POST /v1/traces HTTP/1.1 x\r\nHost: h\r\n\r\n", "400",
     "The request's first line 'POST /v1/traces HTTP/1.1 x' is not an HTTP/1.1 request line and was refused: "
     "send POST /v1/traces."),
    (b"POST /v1/traces HTTP/2.0\r\nHost: h\r\n\r\n", "505",
     "The request's first line 'POST /v1/traces HTTP/2.0' is not an HTTP/1.1 request line and was refused: "
     "send POST /v1/traces."),
    (b"HEAD /v1/traces HTTP/1.1\r\nHost: h\r\n\r\n", "501", "The method 'HEAD' is not served here: send POST "
     "/v1/traces."),
    (b"POST /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n", "414",
     "The request's first line is longer than 64 KiB and was refused."),
    (b"POST /v1/traces HTTP/1.1\r\n" + b"X-Many: y\r\n" * 101 + b"\r\n", "431",
     "The request's headers are too many (more than 100) or one is too long, and were refused."),
    (b"POST /v1/traces HTTP/1.1\r\nX-Long: " + b"y" * 70_000 + b"\r\n\r\n", "431",
     "The request's headers are too many (more than 100) or one is too long, and were refused."),
])
def test_a_request_it_cannot_read_is_answered_in_its_words(receiver: TraceReceiver, raw: bytes, status: str,
                                                           message: str) -> None:
    line, headers, body = _sent(receiver, raw)
    assert line.startswith(f"HTTP/1.1 {status} "), line
    assert headers["content-type"] == "application/json" and headers["connection"] == "close", headers
    assert int(headers["content-length"]) == len(body)
    assert json.loads(body) == {"code": 3, "message": message}
    # and it goes on serving
    assert httpx.post(receiver.url, content=b'{"resourceSpans": []}',
                      headers={"Content-Type": "application/json"}).status_code == 200


def test_a_whole_number_past_4300_digits_is_refused_in_its_words(tmp_path: Path) -> None:
    said: list[str] = []
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4),
                       on_refused=lambda sentence: said.append(str(sentence))) as receiver:
        answer = httpx.post(receiver.url, content=BODY, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400
    assert answer.json() == {"code": 3, "message": f"The body is not valid JSON ({DIGITS})."}
    assert said == [f"A request was refused: The body is not valid JSON ({DIGITS})."], said


def test_an_import_of_such_a_number_says_it_in_the_same_words(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(BODY)
    done = cli("import", str(path), "--db", str(tmp_path / "runs.db"))
    assert done.returncode == 2, done.stderr
    assert DIGITS in done.stderr and "set_int_max_str_digits" not in done.stderr, done.stderr
