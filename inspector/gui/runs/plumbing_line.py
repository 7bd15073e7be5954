"""The Runs list's line about the plumbing traces: runs read from a trace whose every span is an instrumentation's
plumbing (:mod:`inspector.store.plumbing_traces`; OpenLIT's ``mcp session/init``, the ``mcp`` SDK's notifications
outside a request). The list leaves them out, as ``runs list`` does, and this line over its rows says how many the
filters left out, with "Show plumbing traces" to list them too (as "Show plumbing" does in the timeline); ticked,
it says how many of the runs listed are plumbing traces. Hidden while the filters select none."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QWidget

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.store.plumbing_traces import plumbing_traces_among, without_plumbing_traces

from ..language import on_language_changed, translated


class PlumbingTracesLine(QWidget):
    """How many plumbing traces the filters select, left out or listed; :attr:`toggled` when the reader ticks or
    unticks "Show plumbing traces"."""

    toggled = Signal(bool)
    #: The line was shown or hidden: the list's room above its rows changed.
    shown_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.count = 0
        self.words = QLabel()
        self.words.setTextFormat(Qt.TextFormat.PlainText)
        self.words.setWordWrap(True)
        self.toggle = translated(QCheckBox(), "setText", lambda: _("Show plumbing traces"))
        translated(self.toggle, "setToolTip", lambda: _(
            "List the runs read from a trace of a session's plumbing alone (its set-up, a notification outside a "
            "request) too, as `runs list --all` does"))
        self.toggle.toggled.connect(self._toggled)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 0, 2, 0)
        layout.addWidget(self.words, 1)
        layout.addWidget(self.toggle)
        on_language_changed(self, self._say)
        self.hide()

    @property
    def listing(self) -> bool:
        """Are the plumbing traces listed (ticked)?"""
        return self.toggle.isChecked()

    def listed_of(self, conn: sqlite3.Connection, run_ids: Sequence[int]) -> list[int]:
        """Of these runs (an import's), those the list lists: not the plumbing traces, unless they are listed or the
        runs are nothing else (a file of plumbing traces alone: they are selected, and so listed)."""
        return list(run_ids) if self.listing else without_plumbing_traces(conn, run_ids)[0] or list(run_ids)

    def list_asked(self, conn: sqlite3.Connection, run_ids: Sequence[int]) -> bool:
        """Tick it (without saying :attr:`toggled`) where the plumbing traces are left out and some of these runs,
        asked for, are such; whether it was ticked."""
        if self.listing or not plumbing_traces_among(conn, run_ids):
            return False
        self.toggle.blockSignals(True)
        self.toggle.setChecked(True)
        self.toggle.blockSignals(False)
        self._say()
        return True

    def show_count(self, count: int) -> None:
        """The filters select ``count`` plumbing traces (listed or not)."""
        self.count = count
        self._say()

    def _toggled(self, listing: bool) -> None:
        self._say()
        self.toggled.emit(listing)

    def _say(self) -> None:
        self.words.setText(plumbing_words(self.count, self.listing) if self.count else "")
        self.words.setAccessibleName(self.words.text())
        if self.isHidden() == (self.count > 0):
            self.setVisible(self.count > 0)
            self.shown_changed.emit()


def plumbing_words(count: int, listed: bool) -> str:
    """The line's words for ``count`` plumbing traces the filters select, ``listed`` or left out."""
    if listed:
        return ngettext("Listed too: {count} plumbing trace (a trace of a session's plumbing alone: its set-up, a "
                        "notification outside a request).",
                        "Listed too: {count} plumbing traces (traces of a session's plumbing alone: its set-up, "
                        "notifications outside a request).", count).format(count=format_number(count))
    return ngettext("Not listed: {count} plumbing trace (a trace of a session's plumbing alone: its set-up, a "
                    "notification outside a request).",
                    "Not listed: {count} plumbing traces (traces of a session's plumbing alone: its set-up, "
                    "notifications outside a request).", count).format(count=format_number(count))


def imported_words(count: int, runs: int) -> str:
    """After the window's import of ``runs`` runs: how many of them are plumbing traces (as the command line's
    ``import`` says it), which the list leaves out unless "Show plumbing traces" is ticked (ticked when they are all
    the file holds: its runs are selected)."""
    words = ngettext(  # all of them: they are listed, the line ticked to select them
        "The run is a plumbing trace (a session's plumbing alone), listed with “Show plumbing traces” ticked.",
        "All {count} runs are plumbing traces (a session's plumbing alone), listed with “Show plumbing traces” "
        "ticked.", count) if count == runs else ngettext(
        "{count} of them is a plumbing trace (a session's plumbing alone), which the list leaves out unless “Show "
        "plumbing traces” is ticked.",
        "{count} of them are plumbing traces (a session's plumbing alone), which the list leaves out unless “Show "
        "plumbing traces” is ticked.", count)
    return words.format(count=format_number(count))

__all__ = ["PlumbingTracesLine", "imported_words", "plumbing_words"]
