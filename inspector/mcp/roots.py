"""Roots the user configures for a server: folders, offered to the server as ``file://`` URIs.

A root is given as a folder path (made absolute) or as a ``file://`` URI (kept as it is). Stored
and sent as its URI; its name is the folder's last part.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .server_requests import Root


class RootNotUsable(ValueError):
    """Text that is neither a folder path nor a ``file://`` URI."""


def parse_root(text: str) -> Root:
    """A root from a folder path (made absolute) or a ``file://`` URI; raises :class:`RootNotUsable`."""
    text = text.strip()
    if not text:
        raise RootNotUsable("empty")
    if urlsplit(text).scheme == "file":
        return root_from_uri(text)
    if "://" in text:
        raise RootNotUsable(text)
    path = Path(text).expanduser().resolve()
    return Root(path.as_uri(), path.name or None)


def root_from_uri(uri: str) -> Root:
    """A stored ``file://`` URI as a root, named after its last part."""
    name = unquote(urlsplit(uri).path.rstrip("/").rsplit("/", 1)[-1])
    return Root(uri, name or None)


def roots_from_uris(uris: Iterable[str]) -> tuple[Root, ...] | None:
    """Stored URIs as roots; ``None`` (roots not offered) when there are none."""
    roots = tuple(root_from_uri(uri) for uri in uris)
    return roots or None


def root_as_text(uri: str) -> str:
    """How a stored root is shown for editing: a local folder path, else the URI."""
    parts = urlsplit(uri)
    if parts.scheme == "file" and parts.netloc in ("", "localhost"):
        return unquote(parts.path)
    return uri
