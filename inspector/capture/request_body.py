"""Reading the receiver's request bodies with bounded memory and time, whatever the clients do.

One request's body is bounded (:data:`~.otlp_body.MAX_BODY_BYTES`, unpacked
:data:`~.otlp_body.MAX_UNPACKED_BYTES`), but every connection has a thread of its own: without a
bound on how many bodies are held at once, clients sending many bodies together (or slowly, one
byte now and then) would make the receiver hold them all. So a :class:`BodyGate` lets
:data:`READERS` requests read their bodies at once (one more waits up to :data:`READER_WAIT_S`, then
is answered 503, which OTLP exporters retry), each body must arrive whole within
:data:`BODY_DEADLINE_S` (else 408), and one request at a time is unpacked and decoded: decoding is
where a small body grows (a gzip body of 1 MiB can hold 400,000 spans, hundreds of MB as Python
objects), and it is work for the processor the threads would share anyway.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from inspector.i18n import N_
from inspector.i18n.messages import Message

from . import otlp_body
from .connections import BODY_DEADLINE_S

READERS = 4
"""How many requests may read their bodies at once."""
READER_WAIT_S = 10.0
"""How long a request waits for its turn to read before it is answered 503 (retry later)."""
_PIECE = 256 * 1024


class BodyGate:
    """The receiver's bound on bodies held and decoded at once (see the module's text)."""

    def __init__(self, readers: int = READERS, wait_s: float = READER_WAIT_S,
                 deadline_s: float = BODY_DEADLINE_S) -> None:
        self._readers = threading.BoundedSemaphore(readers)
        self._decoding = threading.Lock()
        self.wait_s = wait_s
        self.deadline_s = deadline_s

    @contextmanager
    def reading(self) -> Iterator[None]:
        """A turn to read and decode a body; :class:`~.otlp_body.BadBody` 503 when none comes in time."""
        if not self._readers.acquire(timeout=self.wait_s):
            raise otlp_body.BadBody(Message(N_("The receiver is reading as many requests as it takes at once; "
                                               "retry later.")), 503)
        try:
            yield
        finally:
            self._readers.release()

    @contextmanager
    def decoding(self) -> Iterator[None]:
        """One body unpacked and decoded at a time."""
        with self._decoding:
            yield


class BodyReader:
    """Reads one request's body from ``rfile`` (the connection ``sock``) before ``deadline_s`` runs out."""

    def __init__(self, rfile: BinaryIO, sock: socket.socket, deadline_s: float) -> None:
        self._rfile = rfile
        self._sock = sock
        self._until = time.monotonic() + deadline_s
        self._deadline_s = deadline_s

    def sized(self, size: int) -> bytes:
        """Exactly ``size`` bytes (the Content-Length); cut short: :class:`~.otlp_body.BadBody` 400."""
        body = bytearray()
        while len(body) < size:
            piece = self._read(min(_PIECE, size - len(body)))
            if not piece:
                raise otlp_body.BadBody(Message(N_("The body ended before its Content-Length.")))
            body += piece
        return bytes(body)

    def chunked(self) -> bytes:
        """A chunked body, at most :data:`~.otlp_body.MAX_BODY_BYTES` of it. Its framing is read as RFC 9112,
        section 7.1 writes it, never guessed at (as a Content-Length is not): a chunk's size in hexadecimal
        digits only, each chunk's data followed by its line's end; else :class:`~.otlp_body.BadBody` 400."""
        body = bytearray()
        while True:
            size = _chunk_size(self._line())
            if size == 0:
                while self._line().strip():  # trailers
                    pass
                return bytes(body)
            if len(body) + size > otlp_body.MAX_BODY_BYTES:
                raise otlp_body.BadBody(too_large(), 413)
            body += self.sized(size)
            if self._line() not in (b"\r\n", b"\n"):
                raise _malformed()

    def _line(self) -> bytes:
        self._allow()
        try:
            return self._rfile.readline(1024)
        except TimeoutError:
            raise self._late() from None

    def _read(self, size: int) -> bytes:
        self._allow()
        try:
            return self._rfile.read1(size) if hasattr(self._rfile, "read1") else self._rfile.read(size)
        except TimeoutError:
            raise self._late() from None

    def _allow(self) -> None:
        left = self._until - time.monotonic()
        if left <= 0:
            raise self._late()
        self._sock.settimeout(left)

    def _late(self) -> otlp_body.BadBody:
        return otlp_body.BadBody(Message(N_("The body did not arrive within {seconds} s and was refused."),
                                         {"seconds": f"{self._deadline_s:g}"}), 408)


_HEX_DIGITS = re.compile(rb"[0-9A-Fa-f]{1,15}")
"""A chunk's size: int() would also read ``0x10``, ``1_0``, ``+10`` or ``-10``, which a proxy in front may read
otherwise (request smuggling), or not at all."""


def _chunk_size(line: bytes) -> int:
    """The size a chunk's line gives (its extensions after ``;`` left aside)."""
    digits = line.split(b";", 1)[0].strip(b" \t\r\n")
    if not _HEX_DIGITS.fullmatch(digits):
        raise _malformed()
    return int(digits, 16)


def _malformed() -> otlp_body.BadBody:
    return otlp_body.BadBody(Message(N_("The chunked body is malformed.")))


def too_large() -> Message:
    return Message(N_("The body is larger than {limit} MiB and was refused; send smaller batches."),
                   {"limit": otlp_body.MAX_BODY_BYTES // 1024 // 1024})


def content_length(fields: list[str]) -> int:
    """The body's length from the request's ``Content-Length`` fields (RFC 9112, section 6.3): none at all
    is :class:`~.otlp_body.BadBody` 411; a value that is not a decimal number, or two different values
    (two fields, or a list in one), make the framing invalid: 400, never a guess at which one holds (a
    proxy in front that took the other would read a different request). The same value repeated is one
    value (RFC 9110, section 8.6)."""
    if not fields:
        raise otlp_body.BadBody(Message(N_("The request has no Content-Length (nor a chunked body).")), 411)
    values = {part.strip(" \t") for field in fields for part in field.split(",")}
    if not all(value.isascii() and value.isdigit() for value in values):
        raise otlp_body.BadBody(Message(N_("The request's Content-Length is not a number of bytes.")))
    if len({int(value) for value in values}) > 1:
        raise otlp_body.BadBody(Message(N_("The request has two different Content-Length values and was refused: "
                                           "its body cannot be told from what follows it.")))
    return int(values.pop())
