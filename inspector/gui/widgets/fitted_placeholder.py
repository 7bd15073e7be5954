"""A search field's placeholder that is never cut: the whole sentence where the field has the room for
it, else a short word ("Search…"), and the field never narrower than that word (unless told otherwise).
The tooltip always says what the field searches.

Qt cuts a placeholder that does not fit to its first letters ("T…", "Such…"), which says nothing."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLineEdit

from ..language import on_language_changed

#: What a line edit takes beside its placeholder: the frame, the margins and the clear button's place
#: (measured: 33 px with Qt's Fusion style at every zoom, its clear button named; a few more for other styles).
PLACEHOLDER_CHROME_PX = 36


def placeholder_room(edit: QLineEdit, text: str) -> int:
    """The width ``edit`` needs to show ``text`` whole as its placeholder."""
    return edit.fontMetrics().horizontalAdvance(text) + PLACEHOLDER_CHROME_PX


class FittedPlaceholder(QObject):
    """Keeps ``edit``'s placeholder to ``whole()`` or, where that does not fit, ``short()``."""

    def __init__(self, edit: QLineEdit, whole: Callable[[], str], short: Callable[[], str],
                 tip: Callable[[], str] | None = None, *, keep_room: bool = True) -> None:
        super().__init__(edit)
        self._edit, self._whole, self._short, self._keep_room = edit, whole, short, keep_room
        self._tip = tip or (lambda: self._whole().rstrip("…"))
        edit.installEventFilter(self)
        on_language_changed(self, self.fit)
        self.fit()

    def keep_room(self, keep: bool) -> None:
        """From now on the field keeps the room of the short word (or not: as narrow as its layout needs)."""
        self._keep_room = keep
        self.fit()

    def short_room(self) -> int:
        """The width the field needs to show the short word whole."""
        return placeholder_room(self._edit, self._short())

    def fit(self) -> None:
        edit, whole = self._edit, self._whole()
        edit.setMinimumWidth(self.short_room() if self._keep_room else 0)
        edit.setToolTip(self._tip())
        shown = whole if placeholder_room(edit, whole) <= edit.width() else self._short()
        if edit.placeholderText() != shown:
            edit.setPlaceholderText(shown)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() in (QEvent.Type.Resize, QEvent.Type.FontChange):
            self.fit()
        return False


def fitted_placeholder(edit: QLineEdit, whole: Callable[[], str], short: Callable[[], str],
                       tip: Callable[[], str] | None = None, *, keep_room: bool = True) -> QLineEdit:
    """Give ``edit`` a placeholder that shows whole (see :class:`FittedPlaceholder`) and the tooltip
    ``tip()`` (else the whole placeholder without its "…"); return ``edit``. Without ``keep_room`` the
    field may still become narrower than the short word (where its least width decides a layout)."""
    FittedPlaceholder(edit, whole, short, tip, keep_room=keep_room)
    return edit


__all__ = ["PLACEHOLDER_CHROME_PX", "FittedPlaceholder", "fitted_placeholder", "placeholder_room"]
