"""What a screen reader hears where Qt's defaults say too little: a label for every combo box, a
name for a line edit's clear button, and a change it should say without being asked (an operation
ended: ok, failed or cancelled).

On Linux (AT-SPI) Qt names a combo box by its current value ("debug", "Every outcome") whatever
its ``accessibleName`` says; the label is read from the combo's *labelled-by* relation, which Qt
builds from a sibling :class:`QLabel` whose buddy is the combo. :func:`label_combo` makes sure that
relation exists (a visible label if the layout has one, else a hidden label kept beside the combo)
and also sets the accessible name, which Windows and macOS read instead.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QAction
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QToolButton, QWidget

from ..language import call_on_language_change, translated
from .hints import PROBLEM_STYLE

#: Qt's object name for the action behind a line edit's clear button.
CLEAR_ACTION = "_q_qlineeditclearaction"


class _ComboLabel(QLabel):
    """A hidden label whose buddy is a combo box: its text is the combo's label for a screen reader.

    Qt looks for labels among the combo's siblings, so this one follows the combo to every new parent.
    """

    def __init__(self, combo: QComboBox) -> None:
        super().__init__(combo)
        self.setObjectName("combo-label")
        self.setBuddy(combo)
        self.hide()
        self._combo = combo
        combo.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self._combo and event.type() == QEvent.Type.ParentChange:
            self._follow()
        return False

    def _follow(self) -> None:
        parent = self._combo.parentWidget()
        if parent is not None and self.parentWidget() is not parent:
            self.setParent(parent)
            self.hide()


def label_combo(combo: QComboBox, message: Callable[[], str], label: QLabel | None = None) -> QLabel:
    """Give ``combo`` the name ``message()`` (said again after a switch of language).

    ``label``, a visible label beside the combo (a sibling once laid out), becomes its buddy;
    without one a hidden label carries the name. Returns the label.
    """
    translated(combo, "setAccessibleName", message)
    if label is not None:
        label.setBuddy(combo)
        return label
    hidden = _ComboLabel(combo)
    translated(hidden, "setText", message)
    hidden._follow()
    return hidden


def name_clear_button(edit: QLineEdit, message: Callable[[], str]) -> QLineEdit:
    """Turn on ``edit``'s clear button and name it ``message()`` (Qt's own has no name)."""
    edit.setClearButtonEnabled(True)

    def apply(edit: QLineEdit) -> None:
        text = message()
        for action in edit.findChildren(QAction):
            if action.objectName() == CLEAR_ACTION:
                action.setText(text)
                action.setToolTip(text)
        for button in edit.findChildren(QToolButton):
            button.setAccessibleName(text)
            button.setToolTip(text)

    apply(edit)
    call_on_language_change(edit, apply)
    return edit


def announce(widget: QWidget, message: str) -> None:
    """Have a screen reader say ``message`` after what it is saying, wherever the focus is (``widget``
    is where it comes from). A label's new text is heard only when the label is visited: the status
    line said "cancelled" to nobody. (Qt 6.8 brought the announcement: the oldest Qt the project allows.)"""
    QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(widget, message))


def say_problems(dialog: QWidget) -> None:
    """Say the problems ``dialog`` shows (its labels in :data:`PROBLEM_STYLE`), once its OK was refused:
    they appear beside their fields, where a screen reader does not look, and OK seemed to do nothing."""
    shown = [label.text().strip() for label in dialog.findChildren(QLabel)
             if label.styleSheet() == PROBLEM_STYLE and label.isVisibleTo(dialog) and label.text().strip()]
    if shown:
        announce(dialog, " ".join(shown))


__all__ = ["announce", "label_combo", "name_clear_button", "say_problems"]
