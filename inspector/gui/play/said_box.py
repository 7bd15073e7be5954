"""The model's words beside the budget bar of the Play tab: plain text, growing as they arrive.

It asks for the room of a few lines, about the bar's height, not a text editor's usual 192 pixels:
the played run's steps above it take the rest. On a projector's 1280 by 720 at 150 % (853 by 480
logical pixels) it had kept 150 pixels for a sentence and left the steps 70, three rows with a
scrollbar; the splitter still gives it more when dragged, and a long answer scrolls.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from inspector.i18n import _

from ..language import translated
from ..widgets.plain_text import clip_text

#: The lines it asks room for (a scenario's sentences are one or two).
SAID_LINES = 3


class SaidBox(QPlainTextEdit):
    """Read-only plain text of what the model says (its words so far, then its answer)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        translated(self, "setAccessibleName", lambda: _("What the model says"))
        translated(self, "setPlaceholderText", lambda: _("The model's words show here as they arrive."))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(super().sizeHint().width(), self.lines_height(SAID_LINES))

    def lines_height(self, lines: int) -> int:
        """The height that shows ``lines`` lines of text whole, frame and margins included."""
        margin = round(self.document().documentMargin())
        margins = self.contentsMargins()
        return lines * self.fontMetrics().lineSpacing() + 2 * margin + margins.top() + margins.bottom()

    def show_text(self, text: str) -> None:
        """``text`` shown (cut where very long); while words arrive, what is new is added at the end,
        and the view stays where the reader is (at the end, it follows)."""
        text, shown = clip_text(text), self.toPlainText()
        if shown and len(text) > len(shown) and text.startswith(shown):
            bar = self.verticalScrollBar()
            following = bar.value() >= bar.maximum()
            cursor = QTextCursor(self.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(text[len(shown):])
            if following:
                bar.setValue(bar.maximum())
        elif text != shown:
            self.setPlainText(text)
