"""The address of an MCP server as the user configured it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_HEADER_VALUE = re.compile(r"^[\t\x20-\x7e]*$")


class InvalidServerError(ValueError):
    """The server address cannot be used (not an absolute http(s) URL)."""


@dataclass(frozen=True)
class ServerEndpoint:
    """A server: its URL, optional extra headers (e.g. ``Authorization``) and a display name.

    Header values may be credentials: they are sent, never shown. ``label`` is what every
    message names the server by.
    """

    url: str
    headers: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    name: str | None = None

    def __post_init__(self) -> None:
        parts = urlsplit(self.url)
        try:
            parts.port  # noqa: B018 - raises on a port that is not a number in range
        except ValueError:
            parts = parts._replace(netloc="")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise InvalidServerError(
                f"'{_clip(self.url)}' is not a server address: use an absolute http:// or https:// URL"
            )
        for name, value in self.headers.items():
            # Only the name is ever quoted: the value may be a credential.
            if not _HEADER_NAME.match(name):
                raise InvalidServerError(f"the header name {_clip(name, 40)!r} is not a valid HTTP header name")
            if not _HEADER_VALUE.match(value):
                raise InvalidServerError(f"the value of the header {name} must be printable ASCII on one line")

    @property
    def label(self) -> str:
        """The name to show: the display name, else the URL without user info or query."""
        if self.name:
            return self.name
        return public_url(self.url)


def public_url(url: str) -> str:
    """The URL with user info, query and fragment removed: safe to show and to store."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
