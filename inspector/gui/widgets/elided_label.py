"""A one-line label that ends in "…" where its text does not fit, and then shows the whole text as
its tip: a long run title is cut readably, never mid-letter, and never widens the window.

A part of the text may be named the one to shorten first (a run's title in a heading that goes on
with its counts), and others after it (why a run is failed): they give up their room, in turn,
before anything after them is cut. Briefer texts may stand in for the whole where it does not fit even
with its first part shortened (a heading without its least needed clause, then without its counts),
the last shortened the same way; a briefer text may be cut at its end, its first part shortened, down to
a tail it names (a heading's counts kept to their numbers) before the next stands in: what the next
drops is worth more than its first part, which would have its room back there. Or each briefer text stands
in only whole, and the last has its parts shortened (a heading whose title is worth more than its counts).
The tip still has the whole."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontMetrics, QHelpEvent, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QToolTip, QWidget

from .plain_text import plain_tooltip


class ElidedLabel(QLabel):
    """Plain text on one line; ``text()`` is always the whole text (for readers and screen readers)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setMinimumWidth(1)
        #: Where the parts shortened first are, in their order: (start, end) in the text each, or None.
        self._squeezed: list[tuple[int, int]] | None = None
        #: The texts shown in place of the whole where it does not fit, each briefer than the one before,
        #: and their parts shortened first.
        self._briefer: list[tuple[str, list[tuple[int, int]] | None]] = []
        #: How many characters at the end of the text, and of each briefer one, may be cut before the next stands in.
        self._tails: list[int] = []
        #: The text a neighbour gives room to, whole (:meth:`set_text_giving_way`), or None.
        self._least: str | None = None

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._squeezed, self._briefer, self._tails, self._least = None, [], [], None
        super().setText(text)
        self._tip()

    def set_text_shortening(self, text: str, start: int, end: int, *more: tuple[int, int],
                            briefer: Sequence[tuple[str, Sequence[tuple[int, int]]]] = (),
                            tails: Sequence[int] = ()) -> None:
        """Show ``text``; where it does not fit, ``text[start:end]`` is shortened (to its start and "…")
        before the rest is cut at the end; ``more`` parts (start, end), apart from it and each other,
        are shortened after it, in their order, before that. ``briefer``: texts and their parts, each
        briefer than the one before: where a text does not fit with its first part shortened, the next
        stands in for it; the last is shortened as ``text`` would be. ``tails``: for ``text`` and each briefer
        text but the last, how many of its last characters may be cut ("…" in their place), its first part
        shortened, before the next stands in (none where not given)."""
        self._squeezed = _checked(text, [(start, end), *more])
        self._briefer = [(brief, _checked(brief, list(parts))) for brief, parts in briefer]
        self._tails, self._least = list(tails), None
        super().setText(text)
        self._tip()

    def set_text_giving_way(self, text: str, briefer: Sequence[tuple[str, Sequence[tuple[int, int]]]]) -> None:
        """Show ``text`` where it fits whole; else the first of the ``briefer`` texts that fits whole, and
        where none does, the last with its parts (start, end) shortened in their order before it is cut at
        its end. What it needs before it gives way further (:meth:`least_width`): the last text whole."""
        self._squeezed, self._tails = None, []
        self._briefer = [(brief, _checked(brief, list(parts))) for brief, parts in briefer]
        self._least = self._briefer[-1][0] if self._briefer else None
        super().setText(text)
        self._tip()

    def shown_text(self) -> str:
        """The text as painted: the whole text, or (the parts named shortened first) their starts and "…";
        where there are briefer texts, the first that fits with its first part shortened, else the last
        so shortened."""
        text, width, metrics = self.text(), self.contentsRect().width(), self.fontMetrics()
        if metrics.horizontalAdvance(text) <= width:
            return text
        parts = self._squeezed
        for index, (brief, brief_parts) in enumerate(self._briefer):
            first = _squeezed(text, (parts or [])[:1], width, metrics)
            if metrics.horizontalAdvance(first) <= width:
                return first
            cut = _cut_tail(first, self._tails[index] if index < len(self._tails) else 0, width, metrics)
            if cut is not None:
                return cut
            text, parts = brief, brief_parts
        squeezed = _squeezed(text, parts or [], width, metrics)
        if metrics.horizontalAdvance(squeezed) <= width:  # Qt's eliding cuts a text as wide as the room
            return squeezed
        return metrics.elidedText(squeezed, Qt.TextElideMode.ElideRight, width)

    def least_width(self) -> int:
        """The width that shows the text (the first briefer one, where there is one) with only the part
        named first shortened (to "…"), the rest whole (set by :meth:`set_text_giving_way`: its last text
        whole): what a neighbour gives room to before the text is made briefer still or the parts after
        that one (why a run failed) are shortened."""
        text, squeezed = self._briefer[0] if self._briefer else (self.text(), self._squeezed)
        if self._least is not None:
            text, squeezed = self._least, None
        metrics = self.fontMetrics()
        if squeezed:
            start, end = squeezed[0]
            text = text[:start] + "…" + text[end:]
        margins = self.contentsMargins()
        return metrics.horizontalAdvance(text) + margins.left() + margins.right()

    def is_cut(self) -> bool:
        return self.shown_text() != self.text()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._tip()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        self.style().drawItemText(painter, self.contentsRect(), int(self.alignment()), self.palette(),
                                  self.isEnabled(), self.shown_text(), self.foregroundRole())

    def event(self, event: QEvent) -> bool:  # noqa: D102 - Qt's
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent) and self.toolTip():
            # Shown as its characters: Qt takes a tip that looks like markup for markup (a trace's "<b>").
            QToolTip.showText(event.globalPos(), plain_tooltip(self.toolTip()), self)
            return True
        return super().event(event)

    def _tip(self) -> None:
        self.setToolTip(self.text() if self.is_cut() else "")


def _squeezed(text: str, parts: list[tuple[int, int]], width: int, metrics: QFontMetrics) -> str:
    """``text`` with ``parts`` shortened, in their order, each to its start and "…" (or "…" alone),
    until it is ``width`` px wide or all are shortened."""
    if not parts or metrics.horizontalAdvance(text) <= width:
        return text
    bounds = sorted({0, len(text), *(edge for part in parts for edge in part)})
    pieces = {(first, last): text[first:last] for first, last in zip(bounds, bounds[1:], strict=False)}
    for part in parts:
        if metrics.horizontalAdvance("".join(pieces.values())) <= width:
            break
        others = "".join(piece for key, piece in pieces.items() if key != part)
        room = width - metrics.horizontalAdvance(others)
        pieces[part] = metrics.elidedText(text[part[0]:part[1]], Qt.TextElideMode.ElideRight, max(room, 0)) or "…"
    return "".join(pieces.values())


def _cut_tail(text: str, tail: int, width: int, metrics: QFontMetrics) -> str | None:
    """``text`` cut at its end to ``width`` px, "…" in place of at most its last ``tail`` characters; ``None``
    where that is not enough (or ``tail`` is 0)."""
    if tail <= 0 or tail >= len(text):
        return None
    cut = metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    return cut if cut.startswith(text[:len(text) - tail]) and metrics.horizontalAdvance(cut) <= width else None


def _checked(text: str, parts: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """``parts`` where each is within ``text`` and apart from the others; else ``None`` (none is shortened)."""
    valid = all(0 <= first < last <= len(text) for first, last in parts)
    apart = all(a[1] <= b[0] or b[1] <= a[0] for i, a in enumerate(parts) for b in parts[i + 1:])
    return parts if valid and apart else None


__all__ = ["ElidedLabel"]
