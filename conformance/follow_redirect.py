#!/usr/bin/env python3
"""A "browser" for signing in without a person: ``follow_redirect.py URL``.

It GETs the authorization URL without following redirects, reads ``Location`` (the authorization
server's answer, back to the client's loopback redirect URI) and GETs that — what the MCP
conformance suite's reference client does — and the next ones when a federating server redirects
again (at most ten). Give it as ``BROWSER``: Python's ``webbrowser`` runs
``$BROWSER URL`` (the value, when it holds no ``%s``, must be this file's path alone; with ``%s``
it is a command line and ``%s`` becomes the URL). Standard library only, so any ``python3`` runs it.

Exit status 0 when the redirect was followed and the client's listener answered below 400.
"""

from __future__ import annotations

import http.client
import sys
from urllib.parse import urljoin, urlsplit

TIMEOUT_S = 10.0
#: The most redirects followed after the authorization server's first.
MAX_HOPS = 10


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
    url = argv[1]
    try:
        status, location = get(url)
        if location is None or not 300 <= status < 400:
            print(f"follow_redirect: the authorization server answered {status} without a redirect",
                  file=sys.stderr)
            return 1
        # A federating server (a proxy in front of another authorization server) redirects more
        # than once before the answer reaches the client's loopback address.
        for _hop in range(MAX_HOPS):
            url = urljoin(url, location)
            status, location = get(url)
            if location is None or not 300 <= status < 400:
                break
    except (OSError, http.client.HTTPException) as exc:
        print(f"follow_redirect: {exc}", file=sys.stderr)
        return 1
    return 0 if status < 400 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
