"""What every field of the schema form shares: the "not given" marker, the field error, the base class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QWidget

from inspector.i18n import _

from .arguments import Path
from .hints import PROBLEM_STYLE, mark_hint
from .plain_text import clip_text, label_text, plain_tooltip


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: A field the user left empty: the key is not sent.
MISSING: Any = _Missing()


class FieldError(ValueError):
    """What was typed cannot be the field's type; the message says what to type instead."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def plain_label(text: str, *, hint: bool = False) -> QLabel:
    """A label for schema text (it comes from the server): plain text, wrapped, its controls shown
    and a flood cut (the whole text is then its tooltip); a hint in a readable grey."""
    shown = label_text(text)
    label = QLabel(shown)
    label.setTextFormat(Qt.TextFormat.PlainText)
    if len(text) > len(shown):
        label.setToolTip(plain_tooltip(clip_text(text, 20_000)))
    label.setWordWrap(True)
    if hint:
        mark_hint(label)
    return label


def summary_label(text: str) -> QLabel:
    """The window's summary of a field (its rule, type and default) under the server's description:
    a hint in italics, so that a reader tells the window's words from the server's."""
    label = plain_label(text, hint=True)
    font = label.font()
    font.setItalic(True)
    label.setFont(font)
    return label


def field_name(path: Path) -> str:
    """What a screen reader calls the field at ``path``: a property by its name, an array item by
    its array and position ("tags, item 2"), never by a bare index."""
    if not path:
        return _("arguments")
    last = path[-1]
    if isinstance(last, int):
        return _("{name}, item {number}").format(name=field_name(path[:-1]), number=last + 1)
    return str(last)


class Field(QWidget):
    """One value of the form. ``value()`` is :data:`MISSING` when nothing is given.

    ``title`` is what the field is called (its key, or the schema's title where the form shows
    titles); subclasses name their controls after it in :meth:`named`."""

    changed = Signal()
    #: Controls were added (an array's item): the form puts them in its Tab order.
    grew = Signal()

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool) -> None:
        super().__init__()
        self.schema = schema
        self.path = path
        self.required = required
        self.title = field_name(path) if path else ""
        self.error = plain_label("")
        self.error.setStyleSheet(PROBLEM_STYLE)
        self.error.hide()

    def value(self) -> Any:
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        raise NotImplementedError

    def field_at(self, path: Path) -> Field | None:
        return self if not path else None

    def set_error(self, message: str | None) -> None:
        self.error.setText(message or "")
        self.error.setVisible(bool(message))

    def clear_errors(self) -> None:
        self.set_error(None)

    def name(self) -> str:
        return self.title or _("arguments")

    def set_title(self, title: str) -> None:
        """Call the field ``title`` (the label the form shows for it)."""
        self.title = title
        self.named()

    def named(self) -> None:
        """Give the controls their accessible names from :meth:`name`."""

    def tab_stops(self) -> list[QWidget]:
        """The controls Tab stops at in this field, in the order they are shown.

        A field is no Tab stop itself and hands focus to no proxy: its controls are the stops, so
        that the form can put them where they are shown in the window's Tab order (Qt's
        ``setTabOrder`` on a widget with a focus proxy moves the proxy, not the widget)."""
        return []

    def buddy(self) -> QWidget:
        """What the field's label is the buddy of: its first control, else the field itself."""
        stops = self.tab_stops()
        return stops[0] if stops else self
