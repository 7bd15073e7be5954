"""Removing a configured server signs out of it: its sign-in's tokens are its credentials as much as
its secret headers are, and a user who removes a server expects none of them left in the keyring.

The tokens are kept per canonical resource (``signin tokens <resource>``), so they stay while another
configured server is at the same resource (``https://h/mcp`` and ``https://h/mcp/``): it uses them.
The client registered with the authorization server stays (it is the issuer's, holds no one's
sign-in, and is shared by every resource the issuer protects).
"""

from __future__ import annotations

from inspector.mcp.signin.discovery import canonical_resource
from inspector.store import ServerRegistry


def resource_to_sign_out(registry: ServerRegistry, url: str, transport: str) -> str | None:
    """The canonical resource whose tokens go with the removed server ``url`` (call it once the
    server is removed); ``None`` for a command server, or when another configured server uses them."""
    if transport == "stdio":
        return None
    resource = canonical_resource(url)
    others = (other for other in registry.configured_urls() if other != url)
    return None if any(canonical_resource(other) == resource for other in others) else resource


__all__ = ["resource_to_sign_out"]
