"""A form generated from a tool's input schema: one field per property, nested as the schema nests.

Strings, numbers and integers are line edits (empty means "not given"), booleans check boxes,
enums combo boxes, arrays a list of item fields with Add/Remove, objects a nested group. A
required field is marked, its description is the hint under it, its default pre-fills it.
Text typed into a number field that is not a number is a :class:`FieldError`, shown at the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _

from ..language import translated, translated_item
from .accessibility import label_combo
from .arguments import Path, resolved, simple_type
from .hints import mark_hint, readable_placeholder


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


def _plain_label(text: str, *, hint: bool = False) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # schema text comes from the server
    label.setWordWrap(True)
    if hint:
        mark_hint(label)
    return label


class Field(QWidget):
    """One value of the arguments. ``value()`` is :data:`MISSING` when nothing is given."""

    changed = Signal()

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool) -> None:
        super().__init__()
        self.schema = schema
        self.path = path
        self.required = required
        self.error = _plain_label("")
        self.error.setStyleSheet("color: #B84A00;")
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
        return field_name(self.path)

    def rename(self) -> None:
        """Say the name again after the field moved (an item above it was removed)."""


def field_name(path: Path) -> str:
    """What a screen reader calls the field at ``path``: a property by its name, an array item by
    its array and position ("tags, item 2"), never by a bare index."""
    if not path:
        return _("arguments")
    last = path[-1]
    if isinstance(last, int):
        return _("{name}, item {number}").format(name=field_name(path[:-1]), number=last + 1)
    return str(last)


class TextField(Field):
    """A string, number or integer (or any JSON, for a type the form cannot draw)."""

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool, kind: str) -> None:
        super().__init__(schema, path, required)
        self.kind = kind
        self.edit = QLineEdit()
        self.edit.setAccessibleName(self.name())
        placeholder = {"number": _("a number"), "integer": _("a whole number"),
                       "json": _("any JSON value")}.get(kind, "")
        self.edit.setPlaceholderText(placeholder)
        readable_placeholder(self.edit)
        self.edit.textEdited.connect(lambda _text: self.changed.emit())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit)
        layout.addWidget(self.error)

    def rename(self) -> None:
        self.edit.setAccessibleName(self.name())

    def value(self) -> Any:
        text = self.edit.text()
        if text == "":
            return MISSING  # an empty string, if wanted, is typed in the JSON editor
        if self.kind == "string":
            return text
        if self.kind == "integer":
            try:
                return int(text.strip())
            except ValueError:
                raise FieldError(self.path, _("Enter a whole number, e.g. 3.")) from None
        if self.kind == "number":
            try:
                number = json.loads(text.strip())
            except ValueError:
                number = None
            if isinstance(number, bool) or not isinstance(number, (int, float)):
                raise FieldError(self.path, _("Enter a number, e.g. 2.5.")) from None
            return number
        try:
            return json.loads(text)
        except ValueError:
            raise FieldError(self.path, _("Enter a JSON value, e.g. \"text\" or 3.")) from None

    def set_value(self, value: Any) -> None:
        if value is MISSING or value is None:
            self.edit.setText("")
        elif self.kind == "string" and isinstance(value, str):
            self.edit.setText(value)
        else:
            self.edit.setText(json.dumps(value, ensure_ascii=False))


class BoolField(Field):
    """A check box; sent when required, when the schema has a default, or once touched."""

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool) -> None:
        super().__init__(schema, path, required)
        # The form row already names it; the name is kept for screen readers.
        self.box = QCheckBox()
        self.box.setAccessibleName(self.name())
        self.touched = required or "default" in schema
        self.box.toggled.connect(self._toggled)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box)
        layout.addWidget(self.error)

    def rename(self) -> None:
        self.box.setAccessibleName(self.name())

    def _toggled(self, _checked: bool) -> None:
        self.touched = True
        self.changed.emit()

    def value(self) -> Any:
        return self.box.isChecked() if self.touched else MISSING

    def set_value(self, value: Any) -> None:
        self.box.blockSignals(True)
        self.box.setChecked(value is True)
        self.box.blockSignals(False)
        self.touched = self.required or "default" in self.schema or value is not MISSING


class EnumField(Field):
    """One of the schema's values; "not set" first unless required."""

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool) -> None:
        super().__init__(schema, path, required)
        self.choices = list(schema.get("enum") or [])
        self.combo = QComboBox()
        # Named by its field, not by the value it shows (the form row's label is not its sibling).
        self.combo_label = label_combo(self.combo, self.name)
        self.offset = 0 if required else 1
        if not required:
            translated_item(self.combo, lambda: _("(not set)"), None)
        for choice in self.choices:
            self.combo.addItem(choice if isinstance(choice, str) else json.dumps(choice))
        self.combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        layout.addWidget(self.error)

    def rename(self) -> None:
        self.combo.setAccessibleName(self.name())
        self.combo_label.setText(self.name())

    def value(self) -> Any:
        index = self.combo.currentIndex() - self.offset
        return self.choices[index] if 0 <= index < len(self.choices) else MISSING

    def set_value(self, value: Any) -> None:
        index = self.choices.index(value) + self.offset if value in self.choices else 0
        self.combo.setCurrentIndex(index)


class ArrayField(Field):
    """A list of item fields with Add and Remove."""

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool) -> None:
        super().__init__(schema, path, required)
        items = schema.get("items")
        self.item_schema: Mapping[str, Any] = items if isinstance(items, Mapping) else {}
        self.items: list[Field] = []
        #: Each item's Remove button (named by the item's position).
        self.remove_buttons: dict[int, QPushButton] = {}
        self.rows = QVBoxLayout()
        self.rows.setContentsMargins(0, 0, 0, 0)
        self.add_button = translated(QPushButton(), "setText", lambda: _("Add item"))
        self.add_button.setAccessibleName(_("Add an item to {name}").format(name=self.name()))
        self.add_button.clicked.connect(lambda: (self.add_item(), self.changed.emit()))
        self.touched = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.rows)
        layout.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.error)

    def add_item(self, value: Any = MISSING) -> Field:
        self.touched = True
        field = make_field(self.item_schema, self.path + (len(self.items),), True)
        field.changed.connect(self.changed)
        if value is not MISSING:
            field.set_value(value)
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(field, 1)
        remove = translated(QPushButton(), "setText", lambda: _("Remove"))
        remove.setAccessibleName(_("Remove item {number} of {name}").format(number=len(self.items) + 1,
                                                                            name=self.name()))
        self.remove_buttons[id(field)] = remove
        remove.clicked.connect(lambda: self._remove(field, row))
        line.addWidget(remove, 0, Qt.AlignmentFlag.AlignTop)
        self.rows.addWidget(row)
        self.items.append(field)
        return field

    def _remove(self, field: Field, row: QWidget) -> None:
        self.items.remove(field)
        self.remove_buttons.pop(id(field), None)
        self.rows.removeWidget(row)
        row.deleteLater()
        self.rename()
        self.changed.emit()

    def rename(self) -> None:
        self.add_button.setAccessibleName(_("Add an item to {name}").format(name=self.name()))
        for index, item in enumerate(self.items):
            item.path = self.path + (index,)
            item.rename()
            button = self.remove_buttons.get(id(item))
            if button is not None:
                button.setAccessibleName(_("Remove item {number} of {name}").format(number=index + 1,
                                                                                    name=self.name()))

    def value(self) -> Any:
        if not self.items and not self.touched:
            return MISSING
        values = [item.value() for item in self.items]
        return [v for v in values if v is not MISSING]

    def set_value(self, value: Any) -> None:
        while self.items:
            field = self.items[-1]
            row = field.parentWidget()
            self.items.pop()
            self.remove_buttons.pop(id(field), None)
            self.rows.removeWidget(row)
            row.deleteLater()
        self.touched = False
        if isinstance(value, list):
            for item in value:
                self.add_item(item)
            self.touched = True

    def field_at(self, path: Path) -> Field | None:
        if not path:
            return self
        index = path[0]
        if isinstance(index, int) and 0 <= index < len(self.items):
            return self.items[index].field_at(path[1:])
        return self

    def clear_errors(self) -> None:
        self.set_error(None)
        for item in self.items:
            item.clear_errors()


class ObjectField(Field):
    """A nested object: a form row per property (label with required mark, field, hint)."""

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool, *, top: bool = False) -> None:
        super().__init__(schema, path, required)
        properties = schema.get("properties")
        properties = properties if isinstance(properties, Mapping) else {}
        needed = schema.get("required") if isinstance(schema.get("required"), list) else []
        self.fields: dict[str, Field] = {}
        self.box: QGroupBox | None = None
        self.given = False
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        # Required fields first (what must be filled comes first), otherwise the schema's order.
        ordered = sorted(properties.items(), key=lambda item: item[0] not in needed)
        for name, sub in ordered:
            sub = sub if isinstance(sub, Mapping) else {}
            is_required = name in needed
            field = make_field(sub, path + (name,), is_required)
            field.changed.connect(self.changed)
            field.changed.connect(self._touched)
            self.fields[name] = field
            title = _("{name} *").format(name=name) if is_required else name
            label = _plain_label(title)
            label.setBuddy(field)
            if is_required:
                translated(label, "setToolTip", lambda: _("required"))
            column = QWidget()
            stack = QVBoxLayout(column)
            stack.setContentsMargins(0, 0, 0, 0)
            stack.setSpacing(1)
            stack.addWidget(field)
            hint = _hint(sub)
            if hint:
                stack.addWidget(_plain_label(hint, hint=True))
            form.addRow(label, column)
        if not properties and top:
            form.addRow(_plain_label(_("This tool takes no arguments."), hint=True))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if top:
            layout.addLayout(form)
        else:
            self.box = QGroupBox(self.name())
            self.box.setLayout(form)
            layout.addWidget(self.box)
        layout.addWidget(self.error)
        self.set_value(MISSING)

    def rename(self) -> None:
        if self.box is not None:
            self.box.setTitle(self.name())
        for name, field in self.fields.items():
            field.path = self.path + (name,)
            field.rename()

    def value(self) -> Any:
        result = {}
        for name, field in self.fields.items():
            value = field.value()
            if value is not MISSING:
                result[name] = value
        if not result and not self.required and self.path and not self.given:
            return MISSING
        return result

    def set_value(self, value: Any) -> None:
        given = value if isinstance(value, Mapping) else {}
        #: An object given explicitly (even empty) is sent.
        self.given = isinstance(value, Mapping)
        for name, field in self.fields.items():
            if name in given:
                field.set_value(given[name])
            elif value is MISSING and "default" in field.schema:
                field.set_value(field.schema["default"])
            else:
                field.set_value(MISSING)

    def _touched(self) -> None:
        self.given = True

    def field_at(self, path: Path) -> Field | None:
        if not path:
            return self
        field = self.fields.get(str(path[0]))
        if field is None:
            return self
        return field.field_at(path[1:])

    def clear_errors(self) -> None:
        self.set_error(None)
        for field in self.fields.values():
            field.clear_errors()


def _hint(schema: Mapping[str, Any]) -> str:
    """The description, the type and the default, as the hint under a field."""
    parts = []
    description = schema.get("description")
    if isinstance(description, str) and description.strip():
        parts.append(description.strip())
    kind = simple_type(schema)
    if "default" in schema:
        parts.append(_("({type}, default {default})").format(
            type=kind or _("value"), default=json.dumps(schema["default"], ensure_ascii=False)))
    elif kind in ("integer", "number"):
        parts.append(_("({type})").format(type=kind))
    return " ".join(parts)


def make_field(schema: Mapping[str, Any], path: Path, required: bool) -> Field:
    """The field for a schema."""
    schema = resolved(schema)
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return EnumField(schema, path, required)
    kind = simple_type(schema)
    if kind == "boolean":
        return BoolField(schema, path, required)
    if kind == "array":
        return ArrayField(schema, path, required)
    if kind == "object":
        return ObjectField(schema, path, required)
    if kind in ("string", "number", "integer"):
        return TextField(schema, path, required, kind)
    return TextField(schema, path, required, "json")


class SchemaForm(QFrame):
    """The whole arguments form of one tool."""

    changed = Signal()

    def __init__(self, schema: Mapping[str, Any] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.root: ObjectField | None = None
        self.set_schema(schema or {})

    def set_schema(self, schema: Mapping[str, Any]) -> None:
        if self.root is not None:
            self._layout.removeWidget(self.root)
            self.root.hide()  # gone at once, not only when the deferred delete comes round
            self.root.deleteLater()
        root_schema = schema if isinstance(schema, Mapping) else {}
        self.root = ObjectField(root_schema, (), True, top=True)
        self.root.changed.connect(self.changed)
        self._layout.addWidget(self.root)

    def value(self) -> dict[str, Any]:
        """The arguments, or :class:`FieldError` for text that cannot be its field's type."""
        assert self.root is not None
        value = self.root.value()
        return value if isinstance(value, dict) else {}

    def set_value(self, value: Mapping[str, Any]) -> None:
        assert self.root is not None
        self.root.set_value(dict(value))

    def field_at(self, path: Path) -> Field | None:
        assert self.root is not None
        return self.root.field_at(path)

    def show_errors(self, problems: list[tuple[Path, str]]) -> None:
        assert self.root is not None
        self.root.clear_errors()
        for path, message in problems:
            field = self.field_at(path) or self.root
            field.set_error(message)

    def clear_errors(self) -> None:
        assert self.root is not None
        self.root.clear_errors()
