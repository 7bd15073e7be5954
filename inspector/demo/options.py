"""How the demo server behaves: the modes a demo (or a test) chooses when starting it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from inspector.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES

#: How many extra tools the catalogue mode adds when nothing else is asked for.
DEFAULT_CATALOGUE_SIZE = 120
#: The most extra tools the catalogue mode offers: ten thousand take seconds to build; 10^8 of them
#: ended in a MemoryError after a minute, and a client walks 50 pages at most.
MAX_CATALOGUE_SIZE = 10_000


class InvalidDemoOptionsError(ValueError):
    """An option of the demo server is out of range; the message names it."""


@dataclass(frozen=True)
class DemoOptions:
    """The demo server's modes.

    ``page_size`` turns on the catalogue mode: ``catalogue_size`` extra tools join the demo
    tools and ``tools/list`` answers them ``page_size`` at a time. ``handshake_delay_s`` is
    waited before answering ``initialize`` and again before accepting
    ``notifications/initialized``. ``json_response`` answers with plain JSON instead of event
    streams; ``stateless`` issues no session id. ``port`` 0 takes a free port. ``language``: the
    language of the server's own texts ("en" or "de"; its tools' and arguments' names stay).
    """

    port: int = 0
    handshake_delay_s: float = 0.0
    page_size: int | None = None
    catalogue_size: int = DEFAULT_CATALOGUE_SIZE
    json_response: bool = False
    stateless: bool = False
    #: How often ``demo://clock`` ticks (an update to its subscribers), in seconds.
    update_interval_s: float = 2.0
    language: str = DEFAULT_LANGUAGE

    def __post_init__(self) -> None:
        if isinstance(self.port, bool) or not isinstance(self.port, int) or not 0 <= self.port <= 65535:
            raise InvalidDemoOptionsError(f"The port must be a whole number from 0 to 65535, not {self.port!r}.")
        delay = self.handshake_delay_s
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not math.isfinite(delay) or delay < 0:
            raise InvalidDemoOptionsError(
                f"The handshake delay must be zero or a positive number of seconds, not {delay!r}.")
        interval = self.update_interval_s
        if isinstance(interval, bool) or not isinstance(interval, (int, float)) or not math.isfinite(interval) \
                or interval <= 0:
            raise InvalidDemoOptionsError(
                f"The update interval must be a positive number of seconds, not {interval!r}.")
        if self.page_size is not None and (isinstance(self.page_size, bool) or not isinstance(self.page_size, int)
                                           or self.page_size < 1):
            raise InvalidDemoOptionsError(
                f"The page size must be a whole number of at least 1, not {self.page_size!r}.")
        if isinstance(self.catalogue_size, bool) or not isinstance(self.catalogue_size, int) \
                or not 0 <= self.catalogue_size <= MAX_CATALOGUE_SIZE:
            raise InvalidDemoOptionsError(f"The catalogue size must be a whole number from 0 to {MAX_CATALOGUE_SIZE}, "
                                          f"not {self.catalogue_size!r}.")

        if self.language not in LANGUAGES:
            raise InvalidDemoOptionsError(
                f"The language must be one of {', '.join(LANGUAGES)}, not {self.language!r}.")

    @property
    def pages_catalogue(self) -> bool:
        """Whether ``tools/list`` is paged and the extra catalogue tools are offered."""
        return self.page_size is not None
