"""The server dialog's Era row: which era of MCP to speak to the server, with one line saying what
the choice does (the line follows the choice and the language)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout, QWidget

from inspector.i18n import _
from inspector.mcp.eras import AUTO, ERAS, HANDSHAKE, STATELESS

from ..language import on_language_changed, translated_item
from ..widgets.accessibility import label_combo
from ..widgets.hints import mark_hint


def _explanation(era: str) -> str:
    if era == HANDSHAKE:
        return _("Opens a session with initialize, as servers of 2025-11-25 and older expect.")
    if era == STATELESS:
        return _("No handshake: each request carries its protocol version and capabilities.")
    return _("Asks once (server/discover) and remembers it; else the handshake.")


class EraField(QWidget):
    """A choice of :data:`inspector.mcp.eras.ERAS` and its explanation; :attr:`era` is the choice."""

    def __init__(self, era: str = AUTO, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox()
        translated_item(self.combo, lambda: _("Automatic"), AUTO)
        translated_item(self.combo, lambda: _("Handshake (2025-11-25 and older)"), HANDSHAKE)
        translated_item(self.combo, lambda: _("Stateless (2026-07-28)"), STATELESS)
        self.combo.setCurrentIndex(ERAS.index(era) if era in ERAS else 0)
        self.label = QLabel()
        label_combo(self.combo, lambda: _("Protocol era"), self.label)
        self.explanation = QLabel()
        self.explanation.setWordWrap(True)
        mark_hint(self.explanation)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        layout.addWidget(self.explanation)
        self._say()
        self.combo.currentIndexChanged.connect(self._say)
        on_language_changed(self, self._say)

    @property
    def era(self) -> str:
        return self.combo.currentData() or AUTO

    def _say(self) -> None:
        self.label.setText(_("Protocol era"))
        self.explanation.setText(_explanation(self.era))


__all__ = ["EraField"]
