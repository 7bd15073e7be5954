"""A list's hint for while it has no rows: what to do, or why nothing is listed, where the rows
would be (a grey line at the top of the view), gone with the first row."""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QAbstractItemView, QLabel, QVBoxLayout

from ..language import on_language_changed
from .hints import mark_hint


class EmptyHint:
    """Shows ``words()`` in ``view`` while its model has no rows; :meth:`refresh` when what the
    words depend on changed (a filter); the language's change says them again."""

    def __init__(self, view: QAbstractItemView, words: Callable[[], str]) -> None:
        self._view, self._words = view, words
        self.label = mark_hint(QLabel())
        self.label.setWordWrap(True)
        # On the list's white, a label would take the Text colour: the hint's grey is its WindowText.
        self.label.setForegroundRole(QPalette.ColorRole.WindowText)
        layout = QVBoxLayout(view.viewport())
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.label)
        layout.addStretch(1)
        model = view.model()
        for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset, model.layoutChanged):
            signal.connect(self.refresh)
        on_language_changed(self.label, self.refresh)
        self.refresh()

    def refresh(self, *_args: object) -> None:
        if not shiboken6.isValid(self._view) or not shiboken6.isValid(self.label):
            return  # a view that is being deleted: its own model (a QListWidget's) says it is emptied
        empty = self._view.model().rowCount() == 0
        if empty:
            self.label.setText(self._words())
        self.label.setVisible(empty)
