"""An address split as ``urllib`` splits it, or nothing where it cannot be read: ``urlsplit`` raises on an
unclosed ``[`` of an IPv6 host, and its ``port`` on a port that is no number or out of range, as a request
made to such an address later would (httpx's ``InvalidURL``): checked where the address is taken."""

from __future__ import annotations

from urllib.parse import SplitResult, urlsplit


def readable_parts(address: str) -> SplitResult:
    """The parts of ``address``; those of ``""`` (no scheme, no host) where it cannot be read."""
    try:
        parts = urlsplit(address)
        parts.port  # noqa: B018 - raises on a port that is not a number in range
    except ValueError:
        return urlsplit("")
    return parts


__all__ = ["readable_parts"]
