"""A server's ``WWW-Authenticate`` challenge (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1).

A 401 or 403 from an MCP server names, in a ``Bearer`` challenge, where its Protected Resource
Metadata is (``resource_metadata``), which scope it wants (``scope``) and, for a runtime lack of
scope, ``error="insufficient_scope"``. The header comes from a server that is not ours: it is read
with bounds (length, number of parameters) and never raises; what cannot be read is left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import httpx

from ..errors import McpTransportError

#: The most of a header value read (a hostile server may send megabytes).
MAX_HEADER_CHARS = 8192
#: The most parameters kept per challenge.
MAX_PARAMS = 32
_TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
_TOKEN68 = r"[A-Za-z0-9\-._~+/]+=*"
_SCHEME = re.compile(rf"\s*({_TOKEN})")
_PARAM = re.compile(rf"\s*({_TOKEN})\s*=\s*(?:\"((?:[^\"\\]|\\.)*)\"|({_TOKEN}))\s*")
_TOKEN68_ONLY = re.compile(rf"\s*{_TOKEN68}\s*(?=,|$)")


@dataclass(frozen=True)
class Challenge:
    """One challenge: its scheme (lower case) and parameters (names lower case, values as sent)."""

    scheme: str
    params: dict[str, str] = field(default_factory=dict)

    @property
    def resource_metadata(self) -> str | None:
        return self.params.get("resource_metadata")

    @property
    def scope(self) -> str | None:
        return self.params.get("scope")

    @property
    def error(self) -> str | None:
        return self.params.get("error")

    @property
    def insufficient_scope(self) -> bool:
        return self.error == "insufficient_scope"


def parse_challenges(header: str) -> list[Challenge]:
    """Every challenge in a ``WWW-Authenticate`` value, in order; an unreadable rest is dropped."""
    text = header[:MAX_HEADER_CHARS]
    challenges: list[Challenge] = []
    position = 0
    while position < len(text):
        scheme = _SCHEME.match(text, position)
        if scheme is None:
            break
        params: dict[str, str] = {}
        position = scheme.end()
        token68 = _TOKEN68_ONLY.match(text, position)
        if token68 is not None and "=" not in text[position:token68.end()].rstrip("="):
            position = token68.end()
        else:
            while len(params) < MAX_PARAMS:
                param = _PARAM.match(text, position)
                if param is None:
                    break
                name = param.group(1).lower()
                quoted, plain = param.group(2), param.group(3)
                value = re.sub(r"\\(.)", r"\1", quoted) if quoted is not None else plain
                params.setdefault(name, value)  # the first of a repeated parameter counts
                position = param.end()
                if not text.startswith(",", position):
                    break
                position += 1
        challenges.append(Challenge(scheme.group(1).lower(), params))
        # Skip to the next challenge (separators, or whatever could not be read).
        rest = text[position:].lstrip(" ,\t")
        if rest == text[position:] and rest:
            break  # nothing consumed: not a header we can read further
        position = len(text) - len(rest)
    return challenges


#: The schemes that carry an OAuth access token (RFC 6750, RFC 9449), in the order preferred.
TOKEN_SCHEMES = ("bearer", "dpop")


def bearer_challenge(header: str | None) -> Challenge | None:
    """The OAuth challenge of a ``WWW-Authenticate`` value (``Bearer``, else ``DPoP``), if it has one."""
    if not header:
        return None
    challenges = parse_challenges(header)
    for scheme in TOKEN_SCHEMES:
        found = next((challenge for challenge in challenges if challenge.scheme == scheme), None)
        if found is not None:
            return found
    return None


def signin_refusal(label: str, method: str, response: httpx.Response, sent: Mapping[str, str],
                   signed_in: bool = True, unkept: frozenset[str] = frozenset()) -> McpTransportError | None:
    """A 401 (or a 403 asking for a larger scope) that calls for a sign-in (OAuth ``Bearer``, or no
    challenge at all: the well-known metadata addresses are then the way to find out how); ``None``
    for any other answer, such as a ``Basic`` challenge, or a refusal of an ``Authorization`` header
    the user configured (``signed_in`` False): that header is what to check. A 401 without an OAuth
    challenge to a request that lacked secret headers no keyring kept (``unkept``) wants them, not a
    sign-in: said so (an HTTP status error)."""
    if response.status_code not in (401, 403):
        return None
    if not signed_in and any(name.lower() == "authorization" for name in sent):
        return None
    header = response.headers.get("www-authenticate")
    challenge = bearer_challenge(header)
    if response.status_code == 401 and challenge is None and unkept:
        return McpTransportError.unkept_secrets(label, method, 401, sorted(unkept))
    if response.status_code == 403 and (challenge is None or not challenge.insufficient_scope):
        return None
    if response.status_code == 401 and challenge is None and header:
        return None
    sent_token = any(name.lower() == "authorization" for name in sent)
    return McpTransportError.signin_required(label, method, response.status_code, challenge, sent_token=sent_token)
