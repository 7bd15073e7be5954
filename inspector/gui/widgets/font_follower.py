"""Something laid out for a font, laid out again when the font changes (View › Zoom sets the window's
font; every widget that inherits it hears a FontChange); and how much bigger a widget's font is than the
one pixel sizes were chosen for (a line :data:`EM_PX` high)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

#: The line height of the font that pixel sizes are chosen for (the window's at 100 %).
EM_PX = 14


def font_scale(widget: QWidget) -> float:
    """``widget``'s line height in :data:`EM_PX` (1.5 at a zoom of 150 %): pixel sizes chosen at 100 %
    are multiplied by it, as the words they make room for grow."""
    return max(widget.fontMetrics().height(), 1) / EM_PX


class FontFollower(QObject):
    """Calls ``fit`` after each change of ``widget``'s font (a child of the widget: it lives as long)."""

    def __init__(self, widget: QWidget, fit: Callable[[], object]) -> None:
        super().__init__(widget)
        self._fit = fit
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.FontChange:
            self._fit()
        return False


__all__ = ["EM_PX", "FontFollower", "font_scale"]
