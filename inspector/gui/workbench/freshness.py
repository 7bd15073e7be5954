"""The line under the tool list that says how long the catalogue is fresh, counting down.

"Fresh for 59 min." while the server's ``ttlMs`` runs, "This list is not kept" when it is 0, "Stale"
once the server said its tools changed, nothing for a server that said nothing (the handshake
era). The tooltip says who may share it (``cacheScope``). Minutes are counted down whole (rounded
up, so "fresh for 1 min" is never already over); the last minute in seconds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_duration, format_number, format_time

from ..language import on_language_changed
from .catalogue_cache import KeptCatalogue


def format_remaining(seconds: float) -> str:
    """A countdown: whole minutes (rounded up) from a minute on, whole seconds below."""
    if seconds >= 60:
        return format_duration(math.ceil(seconds / 60) * 60)
    return _("{seconds} s").format(seconds=format_number(math.ceil(seconds)))


def freshness_sentence(kept: KeptCatalogue, remaining_s: float) -> str:
    """What the line says of ``kept`` with ``remaining_s`` left."""
    if not kept.catalogue.ttl_ms:
        # A sentence, not "Not to be kept:", which read as an order to the user rather than what the window does.
        return _("This list is not kept: the server asks for its tools to be listed again each time.")
    if remaining_s <= 0:
        return _("No longer fresh: the tools are listed again when the server is selected.")
    if kept.reused:
        return _("Kept from {time}; fresh for {remaining}.").format(
            time=format_time(kept.received_at, "short"), remaining=format_remaining(remaining_s))
    return _("Fresh for {remaining}.").format(remaining=format_remaining(remaining_s))


def scope_sentence(kept: KeptCatalogue) -> str:
    if kept.catalogue.cache_scope == "public":
        return _("The server lets this list be kept for anyone using its address (public); selecting the "
                 "server again shows it without asking while it is fresh. Reload asks now.")
    return _("The server lets this list be kept for these credentials only (private); selecting this entry "
             "again shows it without asking while it is fresh. Reload asks now.")


class FreshnessLabel(QLabel):
    """Counts a catalogue's freshness down; hidden when the server said nothing of it."""

    def __init__(self, parent: QWidget | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self._clock = clock
        self.kept: KeptCatalogue | None = None
        self.stale = False
        self._timer = QTimer(self)
        self._timer.setInterval(1000)
        self._timer.timeout.connect(self._tick)
        on_language_changed(self, self._tick)
        self.hide()

    def show_catalogue(self, kept: KeptCatalogue) -> None:
        """Count ``kept`` down (nothing shown when the server said nothing of its freshness)."""
        self.kept, self.stale = kept, kept.stale
        if kept.catalogue.ttl_ms is None:
            self.clear_catalogue()
            return
        self.show()
        self._tick()

    def mark_stale(self) -> None:
        """The server said its tools changed: what is shown is no longer the list."""
        if self.kept is None or self.kept.catalogue.ttl_ms is None:
            return
        self.stale = True
        self._tick()

    def clear_catalogue(self) -> None:
        self.kept, self.stale = None, False
        self._timer.stop()
        self.setText("")
        self.setToolTip("")
        self.hide()

    def _tick(self) -> None:
        kept = self.kept
        if kept is None or kept.catalogue.ttl_ms is None:
            return
        remaining = kept.remaining_s(self._clock())
        if self.stale:
            self.setText(_("Stale: the server said its tools changed."))
            self.setToolTip("")
        else:
            self.setText(freshness_sentence(kept, remaining))
            self.setToolTip(scope_sentence(kept) if kept.catalogue.ttl_ms else "")
        if remaining > 0 and not self.stale:
            self._timer.start()
        else:
            self._timer.stop()
