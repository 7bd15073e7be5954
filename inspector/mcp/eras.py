"""Which era of MCP a server speaks, and what the client remembers of it.

The *handshake* era (2024-11-05 … 2025-11-25) opens a session with ``initialize``; the
*stateless* era (2026-07-28 on) has no handshake: every request carries its protocol version and
the client's capabilities in ``_meta``. A server is configured for one of :data:`ERAS`:
``auto`` (the default) probes with ``server/discover`` and falls back to the handshake,
``handshake`` and ``stateless`` pin an era. What ``auto`` found is remembered per server key
(by an :class:`EraMemory`, which the store provides), so the next operation does not probe again.
"""

from __future__ import annotations

from typing import Protocol

AUTO = "auto"
HANDSHAKE = "handshake"
STATELESS = "stateless"
#: The eras a server may be configured for; ``auto`` is the default.
ERAS = (AUTO, HANDSHAKE, STATELESS)
#: The revisions of the stateless era this client speaks, the one it prefers first.
STATELESS_VERSIONS = ("2026-07-28",)


def era_of_version(version: str | None) -> str | None:
    """The era a protocol revision belongs to (``None`` when there is no revision)."""
    if not version:
        return None
    return STATELESS if version >= STATELESS_VERSIONS[-1] else HANDSHAKE


class EraMemory(Protocol):
    """Where the era a server was found to speak is kept between operations (and sessions)."""

    def recall(self, key: str) -> str | None:
        """The era last found for the server ``key`` (``handshake`` or ``stateless``), if any."""

    def remember(self, key: str, era: str | None) -> None:
        """Keep what was found for ``key``; ``None`` forgets it (the server changed its mind)."""


class RememberedEras:
    """An :class:`EraMemory` in memory, for one process (the default of a client without a store)."""

    def __init__(self) -> None:
        self._eras: dict[str, str] = {}

    def recall(self, key: str) -> str | None:
        return self._eras.get(key)

    def remember(self, key: str, era: str | None) -> None:
        if era is None:
            self._eras.pop(key, None)
        else:
            self._eras[key] = era


class LayeredEras:
    """An era memory in memory, in front of a ``backing`` one (the store): read from memory first,
    what is found goes to both. Safe to read from any thread; the backing may be set later, by
    the thread that owns it (a store connection belongs to one thread)."""

    def __init__(self, backing: EraMemory | None = None) -> None:
        self._memory = RememberedEras()
        self.backing = backing

    def recall(self, key: str) -> str | None:
        era = self._memory.recall(key)
        if era is None and self.backing is not None:
            era = self.backing.recall(key)
            if era is not None:
                self._memory.remember(key, era)
        return era

    def remember(self, key: str, era: str | None) -> None:
        self._memory.remember(key, era)
        if self.backing is not None:
            self.backing.remember(key, era)
