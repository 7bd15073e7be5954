"""A query typed or pasted into a server's URL field (``https://host/mcp?api_key=…``) is taken out of
the address once the field is left, and kept as the server's secret (sent with every call, never
shown); the field then shows the address without it. A note says so, with a button to forget it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from inspector.i18n import _
from inspector.mcp.address_query import address_query, without_query

from ..language import translated
from ..widgets.hints import mark_hint


class UrlQuery:
    """Watches ``url``: once it is left (or the dialog checks it), its query becomes the secret ``query``.

    ``kept``: the query kept for the server being edited (its value is never shown)."""

    def __init__(self, url: QLineEdit, kept: str | None = None) -> None:
        self.url = url
        #: The query to keep for the server (``None``: none).
        self.query = kept
        self._taken = False
        self.note = translated(QLabel(), "setText", self.said)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        mark_hint(self.note)
        self.forget = translated(QPushButton(), "setText", lambda: _("Forget the query"))
        translated(self.forget, "setToolTip", self.forget_tip)
        self.forget.clicked.connect(self._forget)
        #: The note and its button, shown while a query is kept.
        self.row = QWidget()
        layout = QHBoxLayout(self.row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note, 1)
        layout.addWidget(self.forget, 0, Qt.AlignmentFlag.AlignTop)
        self.row.setVisible(kept is not None)
        url.editingFinished.connect(self.move)

    def move(self) -> None:
        """Take the address's query, if it has one, out of the field: it becomes the query kept."""
        text = self.url.text().strip()
        query = address_query(text)
        if query is None:
            return
        self.url.setText(without_query(text))
        self.query, self._taken = query, True
        self.note.setText(self.said())
        self.row.show()

    def said(self) -> str:
        """The note: that the query is kept, and whether it was just taken out of the address."""
        if self._taken:
            return _("The query was taken out of the address: it is kept as a secret and sent with every call.")
        return _("The address's query is kept as a secret and sent with every call.")

    def forget_tip(self) -> str:
        return _("Calls are then sent to the address without a query")

    def _forget(self) -> None:
        self.query = None
        self.row.hide()


class CollectorQuery(UrlQuery):
    """The same for the team collector's address (Settings): its query is sent with every run pushed."""

    def said(self) -> str:
        if self._taken:
            return _("The query was taken out of the address: it is kept as a secret and sent with every run.")
        return _("The address's query is kept as a secret and sent with every run.")

    def forget_tip(self) -> str:
        return _("Runs are then sent to the address without a query")


class ServiceQuery(UrlQuery):
    """The same for the team's trace query service (Settings, File › Open trace by id…)."""

    def said(self) -> str:
        if self._taken:
            return _("The query was taken out of the address: it is kept as a secret and sent with every trace "
                     "asked for.")
        return _("The address's query is kept as a secret and sent with every trace asked for.")

    def forget_tip(self) -> str:
        return _("Traces are then asked for at the address without a query")


def kept_query(value: str | None, kept: bool) -> str | None:
    """What a dialog holds of a query the settings keep: its value, ``""`` when it is kept but the
    keyring has not given it, ``None`` when none is kept."""
    return value if value is not None or not kept else ""


__all__ = ["CollectorQuery", "ServiceQuery", "UrlQuery", "kept_query"]
