"""Tool catalogues the window keeps while the server says they are fresh (``ttlMs``/``cacheScope``).

Selecting a server lists its tools; selecting it again while the catalogue it gave is still
fresh shows that catalogue instead of asking again (the server allowed exactly that). Reload
always asks, and a list change (``notifications/tools/list_changed``) forgets what was kept. Only
the automatic listing on selection reuses: an operation the user asks for is always sent.

Whose catalogue is whose: a ``private`` one (or one whose scope was not said) is kept for one
server entry and its credentials (its address with user info and query, its headers, a command's
environment); editing the entry's credentials, or another entry, never sees it. A ``public`` one
is kept for the address (any entry, any credentials). The credentials are kept only as a hash.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from inspector.mcp import ServerEndpoint, ToolCatalogue

#: A catalogue is never reused for longer than this, whatever the server allows: a window left
#: open for days lists again once a day.
MAX_KEEP_S = 24 * 3600.0


@dataclass(frozen=True)
class KeptCatalogue:
    """A catalogue and when it arrived (the clock's seconds, and the wall time to show)."""

    catalogue: ToolCatalogue
    received: float
    received_at: datetime
    #: Whether it is shown again from the keeper (not just listed).
    reused: bool = False
    #: The server said its tools changed while it was being listed: not kept, shown as stale.
    stale: bool = False

    @classmethod
    def now(cls, catalogue: ToolCatalogue) -> KeptCatalogue:
        """``catalogue``, arrived now (not kept anywhere)."""
        return cls(catalogue, time.monotonic(), datetime.now(timezone.utc))

    def remaining_s(self, now: float) -> float:
        """Seconds it is still fresh (0 when it never was or is no longer)."""
        ttl_s = min((self.catalogue.ttl_ms or 0) / 1000, MAX_KEEP_S)
        return max(0.0, self.received + ttl_s - now)


def _credentials(endpoint: ServerEndpoint) -> str:
    """A hash of what identifies the caller to the server (never kept in the clear)."""
    env = endpoint.command.env if endpoint.command is not None else {}
    text = json.dumps([endpoint.url, sorted(endpoint.headers.items()), sorted(dict(env or {}).items())])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class CatalogueKeeper:
    """The catalogues still fresh, by entry and credentials (private) or by address (public)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._kept: dict[tuple[str, ...], KeptCatalogue] = {}
        #: How many list changes each address (its URL without credentials) has announced.
        self._changes: dict[str, int] = {}

    def changes(self, address: str) -> int:
        """The count of list changes of ``address`` so far (taken when a listing starts)."""
        return self._changes.get(address, 0)

    def keep(self, entry: str, endpoint: ServerEndpoint, catalogue: ToolCatalogue,
             changes: int | None = None) -> KeptCatalogue:
        """Keep what ``entry`` (the server entry's URL) listed, if the server lets it be kept and
        did not say its tools changed since the listing started (``changes`` then)."""
        stale = changes is not None and changes != self.changes(endpoint.key)
        kept = KeptCatalogue(catalogue, self._clock(), datetime.now(timezone.utc), stale=stale)
        self._drop(endpoint.key)
        if not stale and kept.remaining_s(kept.received) > 0:
            self._kept[self._key(entry, endpoint, catalogue.cache_scope)] = kept
        return kept

    def fresh(self, entry: str, endpoint: ServerEndpoint) -> KeptCatalogue | None:
        """A catalogue still fresh for ``entry`` with these credentials (its own first), else ``None``."""
        now = self._clock()
        for scope in ("private", "public"):
            key = self._key(entry, endpoint, scope)
            kept = self._kept.get(key)
            if kept is None:
                continue
            if kept.remaining_s(now) > 0:
                return KeptCatalogue(kept.catalogue, kept.received, kept.received_at, reused=True)
            del self._kept[key]
        return None

    def forget(self, address: str) -> None:
        """The server at ``address`` (its URL without credentials) said its tools changed."""
        self._changes[address] = self.changes(address) + 1
        self._drop(address)

    def _drop(self, address: str) -> None:
        for key in [key for key in self._kept if key[1] == address]:
            del self._kept[key]

    @staticmethod
    def _key(entry: str, endpoint: ServerEndpoint, scope: Any) -> tuple[str, ...]:
        if scope == "public":
            return ("public", endpoint.key)
        return ("private", endpoint.key, entry, _credentials(endpoint))
