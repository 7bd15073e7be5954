"""Which server to replay a step on, when the step cannot say (a step of an imported trace, a
command server not configured here): the configured servers to choose from."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialog, QFormLayout, QLabel, QWidget

from inspector.i18n import _
from inspector.i18n.entry_names import shown_name
from inspector.store import ServerRecord

from ..widgets.plain_text import cell_text
from .form_dialog import finish_form


class ReplayServerDialog(QDialog):
    """Opened with :meth:`open`; :meth:`chosen` is the server picked once it is accepted."""

    def __init__(self, sentence: str, servers: list[ServerRecord], parent: QWidget | None = None, *,
                 call: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Replay on which server?"))
        self._servers = servers
        self.why = QLabel(sentence)
        self.why.setTextFormat(Qt.TextFormat.PlainText)
        self.why.setWordWrap(True)
        #: What is replayed: the tool and its arguments (the step's own text: plain, cut).
        self.call = QLabel(cell_text(call, 300))
        self.call.setTextFormat(Qt.TextFormat.PlainText)
        self.call.setWordWrap(True)
        self.servers = QComboBox()
        self.servers.setAccessibleName(_("Server to replay on"))
        for record in servers:
            shown = f"{shown_name(record.name, record.url)} ({record.url})" if record.name else record.url
            self.servers.addItem(cell_text(shown, 120), record.url)
        form = QFormLayout()
        form.addRow(self.why)
        if call:
            form.addRow(_("Call:"), self.call)
        form.addRow(_("Server:"), self.servers)
        finish_form(self, form)

    def chosen(self) -> ServerRecord | None:
        index = self.servers.currentIndex()
        return self._servers[index] if 0 <= index < len(self._servers) else None


__all__ = ["ReplayServerDialog"]
