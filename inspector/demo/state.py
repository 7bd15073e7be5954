"""What the demo server remembers while it runs: notes, call counts, and what it saw.

Tests and the window read it to answer "did the server see the cancel?" and "did the write
land?" without parsing logs.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .log_messages import SessionLevels
from .words import ENGLISH, DemoWords

LOGGER = logging.getLogger("inspector.demo")


@dataclass
class DemoState:
    """Shared by every session of one demo server (thread-safe: tests read it from other threads)."""

    notes: list[dict[str, Any]] = field(default_factory=list)
    calls: Counter[str] = field(default_factory=Counter)
    log: list[str] = field(default_factory=list)
    hang_started: threading.Event = field(default_factory=threading.Event)
    hang_cancelled: threading.Event = field(default_factory=threading.Event)
    #: The log level each session asked for (``logging/setLevel``).
    log_levels: SessionLevels = field(default_factory=SessionLevels)
    #: The clock resource's ticker (:mod:`.subscriptions`), once the server is built.
    ticker: Any = None
    #: The language the server speaks (its texts, its log lines), set when the server is built.
    words: DemoWords = ENGLISH
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def count_call(self, tool: str) -> int:
        """Count a call of ``tool``; return how many there have been, this one included."""
        with self._lock:
            self.calls[tool] += 1
            return self.calls[tool]

    def add_note(self, note: dict[str, Any]) -> int:
        """Keep a note; return how many notes there are now."""
        with self._lock:
            self.notes.append(note)
            return len(self.notes)

    def notes_snapshot(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(note) for note in self.notes]

    def say(self, message: str) -> None:
        """Write a line to the server's log (and keep it for whoever watches)."""
        with self._lock:
            self.log.append(message)
        LOGGER.info("%s", message)

    def log_lines(self) -> list[str]:
        with self._lock:
            return list(self.log)
