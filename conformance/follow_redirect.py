#!/usr/bin/env python3
"""A "browser" for signing in without a person: ``follow_redirect.py URL``.

It GETs the authorization URL without following redirects, reads ``Location`` (the authorization
server's answer, back to the client's loopback redirect URI) and GETs that — what the MCP
conformance suite's reference client does. Give it as ``BROWSER``: Python's ``webbrowser`` runs
``$BROWSER URL`` (the value, when it holds no ``%s``, must be this file's path alone; with ``%s``
it is a command line and ``%s`` becomes the URL). Standard library only, so any ``python3`` runs it.

Exit status 0 when the redirect was followed and the client's listener answered below 400.
"""

from __future__ import annotations

import http.client
import sys
from urllib.parse import urljoin, urlsplit

TIMEOUT_S = 10.0


def get(url: str) -> tuple[int, str | None]:
    """GET ``url`` once (no redirects followed): the status and the ``Location`` header."""
    parts = urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname or "", parts.port, timeout=TIMEOUT_S)
    try:
        connection.request("GET", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""))
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location")
    finally:
        connection.close()


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: follow_redirect.py URL", file=sys.stderr)
        return 2
    try:
        status, location = get(argv[1])
        if location is None or not 300 <= status < 400:
            print(f"follow_redirect: the authorization server answered {status} without a redirect",
                  file=sys.stderr)
            return 1
        status, _ = get(urljoin(argv[1], location))
    except (OSError, http.client.HTTPException) as exc:
        print(f"follow_redirect: {exc}", file=sys.stderr)
        return 1
    return 0 if status < 400 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
