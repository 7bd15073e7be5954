"""A command server's stderr: its log, in the Server log and in a Console window per server.

A server started as a command writes its log on stderr (MCP's stdio transport keeps stdout for
messages). The client hands each line, already cut to a bounded length and with the server's
secrets scrubbed, to :class:`ProcessOutput` on the engine's worker thread: it puts one Server log
line (marked "stderr") into the log's feed, and the same line into a feed of its own that hands
the GUI thread paced batches, which :class:`ConsoleBook` keeps per server (the newest
:data:`CONSOLE_LINES`) for the Console windows. A server that floods its stderr costs one batch
per tick, never one signal per line, and memory stays bounded whatever it writes.
"""

from __future__ import annotations

from collections import deque
from datetime import datetime, timezone

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import translate
from inspector.mcp.messages import Message

from ..language import on_language_changed, translated
from ..widgets.plain_text import visible
from .log_entry import LogEntry, kept_data
from .log_feed import LogFeed

#: The most lines a Console keeps per server (older ones are dropped first).
CONSOLE_LINES = 2000


class ProcessOutput(QObject):
    """Takes a command server's stderr lines on any thread; feeds the Server log and the Consoles."""

    #: (server key, its new lines, oldest first), on the GUI thread, in paced batches.
    lines = Signal(str, list)

    def __init__(self, log: LogFeed, names: dict[str, str]) -> None:
        super().__init__()
        self._log = log
        #: How the Server log names a server (by key); the key's command line when not there.
        self._names = names
        self._feed = LogFeed(capacity=CONSOLE_LINES * 4)
        self._feed.entries.connect(self._batch)

    def add(self, key: str, line: str | Message) -> None:
        """One stderr line of the server ``key``, or the client's sentence about its stdout (a
        :class:`Message`: its own line in the Server log, prefixed in the Console), on the worker thread."""
        name = self._names.get(key) or key.removeprefix("stdio:")
        if isinstance(line, Message):
            self._log.add(LogEntry(datetime.now(timezone.utc), None, None, line, name, stderr=True, source=key,
                                   stdout_fault=True))
            said = _("run-inspector: {sentence}").format(sentence=translate(line))
            self._feed.add(LogEntry(datetime.now(timezone.utc), None, None, kept_data(said), name, stderr=True,
                                    source=key))
            return
        entry = LogEntry(datetime.now(timezone.utc), None, None, kept_data(line), name, stderr=True, source=key)
        self._log.add(entry)
        self._feed.add(entry)

    def _batch(self, entries: list[LogEntry], dropped: int) -> None:
        by_key: dict[str, list[str]] = {}
        for entry in entries:
            by_key.setdefault(entry.source or "", []).append(entry.data)
        for key, texts in by_key.items():
            self.lines.emit(key, texts)


class ConsoleBook(QObject):
    """The newest :data:`CONSOLE_LINES` stderr lines of each command server, and its open Consoles."""

    def __init__(self, output: ProcessOutput, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._lines: dict[str, deque[str]] = {}
        self.windows: dict[str, ConsoleWindow] = {}
        output.lines.connect(self.add)

    def add(self, key: str, texts: list[str]) -> None:
        kept = self._lines.setdefault(key, deque(maxlen=CONSOLE_LINES))
        kept.extend(texts)
        window = self.windows.get(key)
        if window is not None:
            window.append(texts[-CONSOLE_LINES:])

    def lines(self, key: str) -> list[str]:
        return list(self._lines.get(key, ()))

    def open(self, key: str, name: str, parent: QWidget | None) -> ConsoleWindow:
        """Show the Console of ``key`` (one per server: an open one is raised)."""
        window = self.windows.get(key)
        if window is None:
            window = self.windows[key] = ConsoleWindow(name, parent)
            window.append(self.lines(key))
            window.cleared.connect(lambda key=key: self._lines.pop(key, None))
        window.show()
        if window.isVisible() and QGuiApplication.platformName() not in ("offscreen", "minimal"):
            window.raise_()  # to the front when already open (a headless platform cannot, and says so)
        window.activateWindow()
        return window

    def forget(self, key: str) -> None:
        """The server went: its lines and its Console go too."""
        self._lines.pop(key, None)
        window = self.windows.pop(key, None)
        if window is not None:
            window.close()
            window.deleteLater()

    def close_all(self) -> None:
        for window in self.windows.values():
            window.close()


class ConsoleWindow(QWidget):
    """A non-modal window with one command server's stderr, plain text, following the newest line."""

    cleared = Signal()

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.name = name
        translated(self, "setWindowTitle", lambda: _("Console — {server}").format(server=visible(name)[:120]))
        self.header = QLabel()
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        self.header.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setMaximumBlockCount(CONSOLE_LINES)  # bounded on screen as in memory
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        font = self.text.font()
        font.setFamily("monospace")
        font.setStyleHint(font.StyleHint.Monospace)
        self.text.setFont(font)
        translated(self.text, "setAccessibleName", lambda: _("Server stderr"))
        clear = translated(QPushButton(), "setText", lambda: _("Clear"))
        translated(clear, "setAccessibleName", lambda: _("Clear the console"))
        clear.clicked.connect(self.clear)
        row = QHBoxLayout()
        row.addWidget(self.header, 1)
        row.addWidget(clear)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.text, 1)
        self.resize(720, 420)
        self._say()
        on_language_changed(self, self._say)

    def _say(self) -> None:
        self.header.setText(_("What {server} writes on stderr (its log), the newest {count} lines.").format(
            server=visible(self.name)[:200], count=format_number(CONSOLE_LINES)))

    def append(self, texts: list[str]) -> None:
        """Add lines (plain text, controls made visible) and follow the newest."""
        if not texts:
            return
        self.text.appendPlainText("\n".join(visible(text) for text in texts))
        self.text.moveCursor(QTextCursor.MoveOperation.End)
        bar = self.text.verticalScrollBar()
        bar.setValue(bar.maximum())

    def line_count(self) -> int:
        return self.text.document().blockCount() if self.text.toPlainText() else 0

    def clear(self) -> None:
        self.text.clear()
        self.cleared.emit()


__all__ = ["CONSOLE_LINES", "ConsoleBook", "ConsoleWindow", "ProcessOutput"]
