"""The configured servers and their health, as a list model for the Servers panel."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from inspector.i18n import _
from inspector.i18n.entry_names import shown_name
from inspector.i18n.words import health_text
from inspector.store import ServerRecord

from ..language import follow_language
from ..widgets.plain_text import number_with_word, plain_tooltip

RecordRole = Qt.ItemDataRole.UserRole + 1
UrlRole = Qt.ItemDataRole.UserRole + 2
Index = QModelIndex | QPersistentModelIndex


def server_label(record: ServerRecord) -> str:
    """The name (the demo entry's in the reader's language), else the URL, else (a command server) its command
    line."""
    return shown_name(record.name, record.url) or record.url.removeprefix("stdio:")


def transport_mark(record: ServerRecord) -> str:
    """A small word after the name for a server that is not reached by Streamable HTTP at a URL."""
    if record.transport == "stdio":
        return _("⌘ command")
    if record.transport == "sse":
        return _("HTTP+SSE")
    return ""


def speaks_stateless(record: ServerRecord) -> bool:
    """Is the server spoken to in the stateless era: pinned so, or found so by ``auto``?"""
    return record.era == "stateless" or (record.era == "auto" and record.found_era == "stateless")


def _named(record: ServerRecord) -> str:
    mark = transport_mark(record)
    if speaks_stateless(record):  # the rarer era is named; the handshake is what most servers speak
        mark = _("{transport} · stateless").format(transport=mark) if mark else _("stateless")
    return _("{name} · {transport}").format(name=server_label(record), transport=mark) if mark else \
        server_label(record)


def era_line(record: ServerRecord) -> str:
    """The tooltip's line on the era: the one configured and, for Automatic, what it found."""
    if record.era == "handshake":
        return _("Protocol era: handshake (2025-11-25 and older)")
    if record.era == "stateless":
        return _("Protocol era: stateless (2026-07-28)")
    if record.found_era == "stateless":
        return _("Protocol era: automatic; the server was found to speak the stateless era")
    if record.found_era == "handshake":
        return _("Protocol era: automatic; the server was found to speak the handshake era")
    return _("Protocol era: automatic; not asked yet")


def _where(record: ServerRecord) -> str:
    """The tooltip: the URL, or the command line with its folder and variables by name only; then the era."""
    command = record.command
    if command is None:
        return f"{record.url}\n{era_line(record)}"
    words = record.url.removeprefix("stdio:")
    lines = [_("Command: {command}").format(command=words)]
    if command.cwd:
        lines.append(_("Folder: {folder}").format(folder=command.cwd))
    if command.env:
        lines.append(_("Environment: {names}").format(names=", ".join(variable.name for variable in command.env)))
    lines.append(era_line(record))
    return "\n".join(lines)


def health_line(record: ServerRecord) -> str:
    """The counts under a server's name: ok, failed (its tool errors named), cancelled (never merged).

    A tool error is contact (the server answered) but a failed operation: it is counted in failed
    and named apart, so a failing tool shows."""
    return health_text(record.ok_count, record.failed_count, record.tool_error_count, record.cancelled_count)


#: The space before a line's last word when that is a sign or two ("Add one with +.").
_SHORT_LAST = re.compile(r" (?=\S{1,2}$)", re.MULTILINE)
#: A hyphen inside a word ("Tool-Fehler"): a word joiner after it, so the word is not split there.
_HYPHEN_IN_WORD = re.compile(r"(?<=\w)-(?=\w)")


def unbroken(text: str) -> str:
    """``text`` for a narrow column that wraps it: a number is never at the end of one line and its
    word or unit at the start of the next ("0 ok · 0 fehlgeschlagen · 0" above "abgebrochen"), a word
    never split at its hyphen ("(2 Tool-" above "Fehler)"), nor a sign or two alone on the last line
    ("+.")."""
    text = _HYPHEN_IN_WORD.sub("-\u2060", number_with_word(text))
    return _SHORT_LAST.sub("\u00a0", text)


def shown_health_line(record: ServerRecord) -> str:
    """:func:`health_line` as the panel shows it (:func:`unbroken`)."""
    return unbroken(health_line(record))


class ServersModel(QAbstractListModel):
    """One row per server: name (or URL) and its counts."""

    def __init__(self) -> None:
        super().__init__()
        self._records: list[ServerRecord] = []
        #: Entries whose server is known not to run here (the demo server's, when it is stopped).
        self._not_running: set[str] = set()
        #: Entries whose server this window is starting (the demo server's, until it listens).
        self._starting: set[str] = set()
        #: A word on each server's sign-in, by URL ("needs sign-in", "signed in"); set by the window.
        self._signin: dict[str, str] = {}
        follow_language(self)

    def set_records(self, records: list[ServerRecord]) -> None:
        self.beginResetModel()
        self._records = list(records)
        self.endResetModel()

    def set_not_running(self, urls: set[str]) -> None:
        """Mark these servers' rows "not running" (a server this window would have to start)."""
        if urls != self._not_running:
            self._not_running = set(urls)
            if self._records:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self._records) - 1, 0))

    def set_starting(self, urls: set[str]) -> None:
        """Mark these servers' rows "starting" (a server this window started, not listening yet)."""
        if urls != self._starting:
            self._starting = set(urls)
            if self._records:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self._records) - 1, 0))

    def set_signin_marks(self, marks: dict[str, str]) -> None:
        """Say each server's sign-in after its name (servers not in ``marks`` say nothing of it)."""
        if marks != self._signin:
            self._signin = dict(marks)
            if self._records:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self._records) - 1, 0))

    def record(self, row: int) -> ServerRecord | None:
        return self._records[row] if 0 <= row < len(self._records) else None

    def row_of(self, url: str) -> int:
        return next((row for row, record in enumerate(self._records) if record.url == url), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._records)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._records) or index.column() != 0:
            return None
        record = self._records[index.row()]
        stopped = record.url in self._not_running
        starting = record.url in self._starting
        if role == Qt.ItemDataRole.DisplayRole:
            if starting:
                return _("{name} — starting…\n{health}").format(name=_named(record),
                                                                 health=shown_health_line(record))
            if stopped:
                return _("{name} — not running\n{health}").format(name=_named(record),
                                                                   health=shown_health_line(record))
            if record.url in self._signin:
                return _("{name} · {signin}\n{health}").format(name=_named(record), signin=self._signin[record.url],
                                                               health=shown_health_line(record))
            return _("{name}\n{health}").format(name=_named(record), health=shown_health_line(record))
        if role == Qt.ItemDataRole.AccessibleTextRole:
            if starting:
                return _("{name}, starting: {health}").format(name=server_label(record), health=health_line(record))
            if stopped:
                return _("{name}, not running: {health}").format(name=server_label(record),
                                                                 health=health_line(record))
            if record.url in self._signin:
                return _("{name}, {signin}: {health}").format(name=_named(record), signin=self._signin[record.url],
                                                              health=health_line(record))
            return _("{name}: {health}").format(name=_named(record), health=health_line(record))
        if role == Qt.ItemDataRole.ForegroundRole and (stopped or starting):
            return QColor("#6E6E6E")
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(_where(record))
        if role == RecordRole:
            return record
        if role == UrlRole:
            return record.url
        return None
