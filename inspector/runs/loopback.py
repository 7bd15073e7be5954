"""Whether a host names this machine only: the one test the receiver, the proxy and its gate share, and the
Runs list (an imported run at such a host ran on the machine that recorded it, not on this one)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit


def is_loopback(host: str) -> bool:
    """Does ``host`` name this machine only (127.0.0.0/8, ::1, localhost; an IPv6 address may be bracketed)?"""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def names_this_machine(url: str) -> bool:
    """Does the address ``url`` name this machine only (its host a loopback one)?"""
    return is_loopback(urlsplit(url).hostname or "")


def recorded_elsewhere(server: str, imported: bool) -> bool:
    """Whether runs at ``server`` were made against a server of another machine: imported, and the
    address names the machine it is read on only (127.0.0.1, localhost)."""
    return imported and names_this_machine(server)


__all__ = ["is_loopback", "names_this_machine", "recorded_elsewhere"]
