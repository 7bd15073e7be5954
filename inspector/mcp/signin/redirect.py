"""The loopback redirect (RFC 8252 §7.3): a one-page HTTP listener on 127.0.0.1 that receives the
authorization response from the browser.

It answers only ``GET /callback`` whose ``state`` is the attempt's own (anything else gets a 404
or a 400 and the listener keeps waiting: another program on the machine cannot end the sign-in);
it reads at most a few kilobytes of a request and closes every connection after one answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from urllib.parse import parse_qsl, urlsplit

CALLBACK_PATH = "/callback"
#: The most of one request read (request line and headers).
MAX_REQUEST_BYTES = 16 * 1024
#: How long one connection may take to send its request.
READ_WAIT_S = 5.0
_PAGE = ("<!doctype html><meta charset=utf-8><title>Run Inspector</title>"
         "<p>{text}</p><p>You can close this tab and return to Run Inspector.</p>")


class LoopbackRedirect:
    """Listens on ``127.0.0.1`` (a free port, or ``port``) for one authorization response."""

    def __init__(self, state: str, port: int = 0) -> None:
        self._state = state
        self._port = port
        self._server: asyncio.Server | None = None
        self._answer: asyncio.Future[dict[str, str]] | None = None

    @property
    def redirect_uri(self) -> str:
        assert self._server is not None, "start() first"
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}{CALLBACK_PATH}"

    async def start(self) -> None:
        self._answer = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self._port)

    async def wait(self) -> dict[str, str]:
        """The authorization response's parameters (form-decoded, nothing else normalised)."""
        assert self._answer is not None, "start() first"
        return await asyncio.shield(self._answer)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 1.0)
            self._server = None
        if self._answer is not None and not self._answer.done():
            self._answer.cancel()

    async def __aenter__(self) -> LoopbackRedirect:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(READ_WAIT_S):
                head = await reader.readuntil(b"\r\n\r\n")
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        status, text = self._consider(head[:MAX_REQUEST_BYTES])
        body = _PAGE.format(text=text).encode()
        writer.write(f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
                     "Cache-Control: no-store\r\nConnection: close\r\n\r\n".encode() + body)
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        writer.close()

    def _consider(self, head: bytes) -> tuple[str, str]:
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != "GET":
            return "405 Method Not Allowed", "This address only takes the sign-in's answer."
        target = urlsplit(parts[1])
        if target.path != CALLBACK_PATH:
            return "404 Not Found", "This address only takes the sign-in's answer."
        params: dict[str, str] = {}
        for name, value in parse_qsl(target.query, keep_blank_values=True):
            params.setdefault(name, value)
        if not hmac.compare_digest(params.get("state", "").encode(), self._state.encode()):
            return "400 Bad Request", "This answer does not belong to the sign-in in progress."
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(params)
        if "error" in params:
            return "200 OK", "The sign-in was not completed."
        return "200 OK", "Signed in."
