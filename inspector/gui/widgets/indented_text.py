"""A read-only view of plain text whose long lines wrap at the view's width, each wrapped part going on
a little further in than its own line, so that an exception's message and a stack trace's frames are
read whole and stay apart (a line cut at the right edge hid "reason: deadl…"). The text is the
characters given, never rich text; copied, it is the text as given."""

from __future__ import annotations

from PySide6.QtGui import QFontMetricsF, QTextBlockFormat, QTextCursor, QTextOption
from PySide6.QtWidgets import QTextEdit, QWidget

#: How many spaces further in than its line a wrapped line's further rows go (not mistaken for a next line).
WRAP_INDENT = 2


class IndentedText(QTextEdit):
    """Shows :meth:`set_text`'s lines wrapped, a wrapped line's further rows :data:`WRAP_INDENT` spaces
    further in than its indent (its leading spaces). Set its font before its text: the indents are
    measured in it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setAcceptRichText(False)
        self.setUndoRedoEnabled(False)
        self.setLineWrapMode(QTextEdit.LineWrapMode.WidgetWidth)
        # A path or a word longer than the view breaks anywhere rather than running past its edge.
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)

    def set_text(self, text: str) -> None:
        """Show ``text`` (plain; "" empties the view)."""
        document = self.document()
        document.clear()
        space = QFontMetricsF(document.defaultFont()).horizontalAdvance(" ")
        cursor = QTextCursor(document)
        cursor.beginEditBlock()
        for number, line in enumerate(text.split("\n")):
            indent = (len(line) - len(line.lstrip(" ")) + WRAP_INDENT) * space
            block = QTextBlockFormat()
            # The first row starts at the edge (its spaces indent it); the rows it wraps into further in.
            block.setLeftMargin(indent)
            block.setTextIndent(-indent)
            if number:
                cursor.insertBlock(block)
            else:
                cursor.setBlockFormat(block)
            cursor.insertText(line)
        cursor.endEditBlock()
        self.moveCursor(QTextCursor.MoveOperation.Start)


__all__ = ["WRAP_INDENT", "IndentedText"]
