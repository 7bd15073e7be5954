"""A wrapped plain-text label that never shows half a line: when its text needs more lines than its
height holds (a long error under a short list), the last line that fits ends in "…" and the whole
text is the label's tooltip (and stays its text, for a screen reader and for copying)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent, QTextLayout, QTextOption
from PySide6.QtWidgets import QLabel, QWidget

from .plain_text import plain_tooltip

#: The most characters of one word that set the label's least width: a longer word (an address with a
#: token in it) is broken anywhere, as the label draws it, and never widens the window.
LONGEST_WORD_CHARS = 24


class FittedLabel(QLabel):
    """A word-wrapped label whose text is cut at a whole line, with "…", where it does not fit."""

    def __init__(self, text: str = "", parent: QWidget | None = None, *, max_lines: int | None = None) -> None:
        """``max_lines``: never taller than that many lines (of the label's font, also after a zoom)."""
        super().__init__(parent)
        self._max_lines = max_lines
        #: A tip of the label's own (why it says what it says): shown always, after the whole text when cut.
        self._note = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._cap()
        self.setText(text)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._cap()
            self._fit()

    def _cap(self) -> None:
        if self._max_lines is not None:
            margins = self.contentsMargins()
            self.setMaximumHeight(self._max_lines * self.fontMetrics().lineSpacing() + margins.top()
                                  + margins.bottom())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """QLabel's least size, its width at most :data:`LONGEST_WORD_CHARS` characters' (an address of
        195 characters in a sentence made the window 1,500 px wide at least)."""
        hint = super().minimumSizeHint()
        margins = self.contentsMargins()
        most = self.fontMetrics().averageCharWidth() * LONGEST_WORD_CHARS + margins.left() + margins.right()
        return QSize(min(hint.width(), most), hint.height())

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's spelling
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit()

    def shown_lines(self) -> list[str]:
        """The lines drawn: all of them when they fit, else those that fit, the last one cut with "…"."""
        lines, room = self._lines(), self._room()
        if len(lines) <= room:
            return lines
        rest = " ".join(" ".join(lines[room - 1:]).split())
        return [*lines[:room - 1], self.fontMetrics().elidedText(rest + " …", Qt.TextElideMode.ElideRight,
                                                                  self.contentsRect().width())]

    @property
    def cut(self) -> bool:
        """True when the text needs more lines than the label's height holds."""
        return len(self._lines()) > self._room()

    def _room(self) -> int:
        return max(1, int(self.contentsRect().height() // self.fontMetrics().lineSpacing()))

    def _lines(self) -> list[str]:
        """The text's lines as they wrap at the label's width."""
        text, width = self.text().replace("\n", "\u2028"), self.contentsRect().width()  # a line break
        layout = QTextLayout(text, self.font())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(option)
        layout.beginLayout()
        lines = []
        while (line := layout.createLine()).isValid():
            line.setLineWidth(max(width, 1))
            lines.append(text[line.textStart():line.textStart() + line.textLength()].rstrip("\u2028"))
        layout.endLayout()
        return lines

    def set_note(self, note: str) -> None:
        """Give the label a tip of its own, kept whether or not the text is cut (then after the whole text)."""
        self._note = note
        self._fit()

    def _fit(self) -> None:
        tip = "\n\n".join(part for part in (self.text() if self.cut else "", self._note) if part)
        self.setToolTip(plain_tooltip(tip) if tip else "")

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802
        """Drawn line by line (as :meth:`shown_lines` says), so what is measured is what is drawn."""
        rect = self.contentsRect()
        spacing = self.fontMetrics().lineSpacing()
        painter = QPainter(self)
        for number, line in enumerate(self.shown_lines()):
            self.style().drawItemText(painter, QRect(rect.left(), rect.top() + number * spacing, rect.width(), spacing),
                                      int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), self.palette(),
                                      self.isEnabled(), line, self.foregroundRole())
        painter.end()


__all__ = ["FittedLabel"]
