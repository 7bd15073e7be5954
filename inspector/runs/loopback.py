"""Whether a host names this machine only: the one test the receiver, the proxy and its gate share, and the
Runs list (an imported run at such a host ran on the machine that recorded it, not on this one)."""

from __future__ import annotations

import ipaddress


def is_loopback(host: str) -> bool:
    """Does ``host`` name this machine only (127.0.0.0/8, ::1, localhost; an IPv6 address may be bracketed)?"""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


__all__ = ["is_loopback"]
