"""The settings' cap on a sampled answer (tokens), with the limits on how often servers may ask."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from inspector.agent.sampling import LARGEST_MAX_TOKENS
from inspector.i18n import _
from inspector.mcp.sampling_limits import PER_OPERATION, PER_SERVER_PER_MINUTE

from ..language import translated
from ..widgets.hints import mark_hint


class SamplingTokensField(QWidget):
    """"Longest answer: [N] tokens", and a note on the rate limits the window applies."""

    def __init__(self, tokens: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tokens = QSpinBox()
        self.tokens.setRange(1, LARGEST_MAX_TOKENS)
        self.tokens.setValue(tokens)
        self.tokens.setGroupSeparatorShown(True)
        translated(self.tokens, "setAccessibleName", lambda: _("The longest answer the model may give, in tokens"))
        label = translated(QLabel(), "setText", lambda: _("Longest answer:"))
        label.setBuddy(self.tokens)
        unit = translated(QLabel(), "setText", lambda: _("tokens"))
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(label)
        row.addWidget(self.tokens)
        row.addWidget(unit)
        row.addStretch(1)
        note = translated(QLabel(), "setText", lambda: _(
            "The model is asked for at most this many tokens, or the server's maxTokens when that is smaller. "
            "A server may ask for the model at most {per_operation} times per operation and {per_minute} times "
            "a minute; further requests are refused and named in the Server log.").format(
                per_operation=PER_OPERATION, per_minute=PER_SERVER_PER_MINUTE))
        note.setWordWrap(True)
        mark_hint(note)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(row)
        column.addWidget(note)
