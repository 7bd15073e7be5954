"""A hostile OpenAI-compatible model server on 127.0.0.1: every request is refused with an error
that repeats the request's ``Authorization`` header, as some real model servers do
("Incorrect API key provided: Bearer sk-...").

``shape`` says how the error is written: ``openai`` (a JSON ``{"error": {"message": ...}}`` body
whose message quotes the key, with a long padding after it), or ``text`` (a plain-text body that
names the header, then echoes every request header, one per line, then 5,000 characters of padding).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: The key the tests give the client: long and shaped like a real OpenAI project key.
API_KEY = "sk-proj-Zq7wX2mK9vB4nR8tY1uJ6hG3fD5sA0pL-abcdefghijklmnopqrstuvwx"


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet test output
        pass

    def do_POST(self) -> None:  # noqa: N802 - the http.server spelling
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        authorization = self.headers.get("Authorization", "")
        self.server.seen.append(authorization)
        if self.server.shape == "text":
            lines = "".join(f"{name}: {value}\n" for name, value in self.headers.items())
            body = (f"Unauthorized: {authorization}\nYour request was:\n{lines}" + "x" * 5000).encode()
            content_type = "text/plain"
        else:
            body = json.dumps({"error": {
                "message": f"Incorrect API key provided: {authorization}. You can find your API key at "
                           "https://platform.example/account/api-keys. " + "Padding. " * 600,
                "type": "invalid_request_error", "param": None, "code": "invalid_api_key"}}).encode()
            content_type = "application/json"
        self.send_response(401)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, shape: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.shape = shape
        self.seen: list[str] = []


class HostileModel:
    """Use as a context manager; ``url`` is the base URL to give as the model URL (``.../v1``)."""

    def __init__(self, shape: str = "openai") -> None:
        self._server = _Server(shape)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="hostile-model", daemon=True)

    @property
    def seen(self) -> list[str]:
        """The ``Authorization`` header of every request (to check the key was really sent)."""
        return self._server.seen

    def __enter__(self) -> HostileModel:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def key_parts(key: str = API_KEY, size: int = 12) -> list[str]:
    """Every run of ``size`` characters of the key: none may appear anywhere ("no part of the key")."""
    return [key[i:i + size] for i in range(0, len(key) - size + 1)]


def leaks(text: str, key: str = API_KEY) -> list[str]:
    """The parts of ``key`` found in ``text`` (empty when nothing leaked)."""
    return [part for part in key_parts(key) if part in text]
