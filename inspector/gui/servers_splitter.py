"""The window's main splitter: the Servers panel beside the tabs. The panel is a sixth of the window's width, between
its least and :data:`SERVERS_MOST_PX` (more where the selected server's address needs it to read "https://host/…/mcp"),
following the window, and the panel where it says it wants another width (another server selected, one added or
edited), until its width is set otherwise (a drag, a layout restored, a program's ``setSizes``): at 1,024 px it kept
230 px, and the Runs list cut a scenario run's server ("Demo-Server …") and said "fehlgeschlagen" for
"Zeitüberschreitung"; a server with a long address selected read "https://mcp.example.inv…" until the window was
resized."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSplitter, QWidget

#: The Servers panel's width in a wide window; narrower ones give it their share (:data:`SERVERS_SHARE`).
SERVERS_MOST_PX = 230
SERVERS_SHARE = 1 / 6


class ServersSplitter(QSplitter):
    """``servers`` beside ``tabs``, the tabs taking the width the window gains; the servers' width follows the
    window's (:data:`SERVERS_SHARE`, at most :data:`SERVERS_MOST_PX`) until it is set otherwise."""

    def __init__(self, servers: QWidget, tabs: QWidget) -> None:
        super().__init__(Qt.Orientation.Horizontal)
        self.setObjectName("splitter-main")
        self.addWidget(servers)
        self.addWidget(tabs)
        self.setStretchFactor(1, 1)
        super().setSizes([SERVERS_MOST_PX, 970])
        #: Whether the servers' width follows the window's (until it is dragged, restored or set).
        self.following = True
        self.splitterMoved.connect(self._stop_following)
        wants = getattr(servers, "wanted_width_changed", None)
        if wants is not None:
            wants.connect(self._follow_servers)

    def _stop_following(self) -> None:
        self.following = False

    def setSizes(self, sizes: Sequence[int]) -> None:  # noqa: N802 - Qt's name
        self.following = False
        super().setSizes(sizes)

    def saveState(self) -> QByteArray:  # noqa: N802 - Qt's name
        """The layout to restore at the next launch: none while the servers' width follows (the window saves its
        splitters as it closes; restored, a width never dragged stopped following the window and the selected
        server for good: a window first opened at 1,920 px kept 230 px of a 1,024 px one)."""
        return QByteArray() if self.following else super().saveState()

    def restoreState(self, state: QByteArray | bytes) -> bool:  # noqa: N802 - Qt's name
        restored = super().restoreState(state)
        self.following = self.following and not restored
        return restored

    def servers_width(self, width: int) -> int:
        """The Servers panel's width in a splitter ``width`` wide: its share, or what it wants to show the
        selected server's address with only its middle shortened (at most :data:`SERVERS_MOST_PX`), never less
        than its least."""
        panel = self.widget(0)
        wanted = max(round(width * SERVERS_SHARE), getattr(panel, "wanted_width", lambda: 0)())
        return max(panel.minimumSizeHint().width(), min(SERVERS_MOST_PX, wanted))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit(event.size().width())

    def _follow_servers(self) -> None:
        if self.isVisible():  # else its first resize fits it
            self._fit(self.width())

    def _fit(self, width: int) -> None:
        """The servers' width in a splitter ``width`` wide (:meth:`servers_width`), where it follows."""
        wanted = self.servers_width(width)
        if self.following and wanted != self.sizes()[0]:
            super().setSizes([wanted, width - wanted - self.handleWidth()])


__all__ = ["SERVERS_MOST_PX", "SERVERS_SHARE", "ServersSplitter"]
