"""A form generated from a JSON schema: one field per property, nested as the schema nests.

It edits a tool's arguments, and answers a server's question (elicitation, labelled by the
properties' titles). Strings, numbers and integers are line edits (empty means "not given"),
booleans check boxes, enums combo boxes showing their titles (``oneOf``/``const``, ``enumNames``),
arrays of enum values a column of check boxes, other arrays a list of item fields with Add/Remove,
objects a nested group. A required field is marked, its description and its rule (range, format,
how many to choose) are the hint under it, its default pre-fills it. Text typed into a number
field that is not a number is a :class:`FieldError`, shown at the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.mcp.elicitation import FORMAT_EXAMPLES, schema_choices

from ..language import translated
from .arguments import Path, resolved, simple_type
from .choice_fields import EnumField, MultiChoiceField
from .form_base import MISSING, Field, FieldError, field_name, plain_label, summary_label
from .hints import readable_placeholder
from .plain_text import cell_text, visible
from .tab_stops import chain_after

#: Labels longer than this (characters) wrap; shorter ones keep to one line.
LABEL_WRAP = 40
#: The longest text a field holds: as long as Qt lets a line edit hold (its maximum length is an int).
LONGEST_TEXT = 2**31 - 1

__all__ = ["MISSING", "ArrayField", "BoolField", "EnumField", "Field", "FieldError", "MultiChoiceField",
           "ObjectField", "SchemaForm", "TextField", "make_field"]


class TextField(Field):
    """A string, number or integer (or any JSON, for a type the form cannot draw)."""

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool, kind: str) -> None:
        super().__init__(schema, path, required)
        self.kind = kind
        # A value given as text with controls in it (a server's default): the box shows them
        # visibly, and as long as the box still shows that picture, the value is the text itself.
        self.given: tuple[str, str] | None = None
        self.edit = QLineEdit()
        # Qt's default (32,767 characters) cut a longer text silently, and the cut text was sent: a document
        # pasted into a field, or long arguments used before and filled in again.
        self.edit.setMaxLength(LONGEST_TEXT)
        self.named()
        placeholder = {"number": _("a number"), "integer": _("a whole number"),
                       "json": _("any JSON value")}.get(kind, "")
        example = FORMAT_EXAMPLES.get(str(schema.get("format"))) if kind == "string" else None
        if example:  # the format's shape, e.g. a date as 2026-12-01
            placeholder = _("e.g. {example}").format(example=example)
        self.edit.setPlaceholderText(placeholder)
        readable_placeholder(self.edit)
        self.edit.textEdited.connect(lambda _text: self.changed.emit())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit)
        layout.addWidget(self.error)

    def named(self) -> None:
        self.edit.setAccessibleName(self.name())

    def tab_stops(self) -> list[QWidget]:
        return [self.edit]

    def value(self) -> Any:
        text = self.edit.text()
        if text == "":
            return MISSING
        if self.given is not None and text == self.given[0]:
            text = self.given[1]  # an empty string, if wanted, is typed in the JSON editor
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
            text = ""
        elif self.kind == "string" and isinstance(value, str):
            text = value
        else:
            text = json.dumps(value, ensure_ascii=False)
        shown = visible(text)
        self.given = (shown, text) if shown != text else None
        self.edit.setText(shown)


class BoolField(Field):
    """A check box; sent when required, when the schema has a default, or once touched."""

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool) -> None:
        super().__init__(schema, path, required)
        # The form row already names it; the name is kept for screen readers.
        self.box = QCheckBox()
        self.named()
        self.touched = required or "default" in schema
        self.box.toggled.connect(self._toggled)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box)
        layout.addWidget(self.error)

    def named(self) -> None:
        self.box.setAccessibleName(self.name())

    def tab_stops(self) -> list[QWidget]:
        return [self.box]

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
        self.named()
        self.add_button.clicked.connect(lambda: (self.add_item(), self.changed.emit()))
        self.touched = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.rows)
        layout.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.error)

    def named(self) -> None:
        self.add_button.setAccessibleName(_("Add an item to {name}").format(name=self.name()))
        for index, item in enumerate(self.items):
            item.path = self.path + (index,)
            item.set_title(field_name(item.path))
            button = self.remove_buttons.get(id(item))
            if button is not None:
                button.setAccessibleName(_("Remove item {number} of {name}").format(number=index + 1,
                                                                                    name=self.name()))

    def tab_stops(self) -> list[QWidget]:
        stops: list[QWidget] = []
        for item in self.items:
            stops += item.tab_stops()
            remove = self.remove_buttons.get(id(item))
            if remove is not None:
                stops.append(remove)
        return [*stops, self.add_button]

    def buddy(self) -> QWidget:
        return self.add_button  # there always, whichever items come and go

    def add_item(self, value: Any = MISSING) -> Field:
        self.touched = True
        field = make_field(self.item_schema, self.path + (len(self.items),), True)
        field.changed.connect(self.changed)
        field.grew.connect(self.grew)
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
        self.grew.emit()
        return field

    def _remove(self, field: Field, row: QWidget) -> None:
        self.items.remove(field)
        self.remove_buttons.pop(id(field), None)
        self.rows.removeWidget(row)
        row.deleteLater()
        self.named()  # the items after it moved up: their names say their new positions
        self.changed.emit()

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
    """A nested object: a form row per property (label with required mark, field, hint).

    With ``titles`` a property is labelled by the schema's ``title`` (a question to a person)
    rather than its key (a tool's argument names, which the developer wants to see)."""

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool, *, top: bool = False,
                 titles: bool = False, quiet: bool = False) -> None:
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
            field.grew.connect(self.grew)
            self.fields[name] = field
            shown = sub.get("title") if titles else None
            if isinstance(shown, str) and shown.strip():
                field.set_title(shown.strip())
            title = _("{name} *").format(name=field.title) if is_required else field.title
            label = plain_label(title)
            label.setWordWrap(len(title) > LABEL_WRAP)  # a short label stays on one line
            label.setBuddy(field.buddy())  # the control itself: a field hands focus to no proxy
            if is_required:
                translated(label, "setToolTip", lambda: _("required"))
            column = QWidget()
            stack = QVBoxLayout(column)
            stack.setContentsMargins(0, 0, 0, 0)
            stack.setSpacing(1)
            stack.addWidget(field)
            description, summary = _hint(sub, field, person=titles)
            if description:  # the server's words, as sent, in a paragraph of their own
                stack.addWidget(plain_label(description, hint=True))
            if summary:  # the window's words (a rule, the type, the default): set apart in italics
                stack.addWidget(summary_label(summary))
            form.addRow(label, column)
        if not properties and top and not titles and not quiet:  # quiet: no tool is chosen
            form.addRow(plain_label(_("This tool takes no arguments."), hint=True))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if top:
            layout.addLayout(form)
        else:
            self.box = QGroupBox(cell_text(self.name(), 200))
            self.box.setLayout(form)
            layout.addWidget(self.box)
        layout.addWidget(self.error)
        self.set_value(MISSING)

    def named(self) -> None:
        """An item that moved in its array: its box and its fields' paths follow the new position."""
        if self.box is not None:
            self.box.setTitle(cell_text(self.name(), 200))
        for name, field in self.fields.items():
            field.path = self.path + (name,)

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

    def tab_stops(self) -> list[QWidget]:
        return [stop for field in self.fields.values() for stop in field.tab_stops()]

    def buddy(self) -> QWidget:
        return self  # its box (titled with its name) holds its fields

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


def _hint(schema: Mapping[str, Any], field: Field, *, person: bool = False) -> tuple[str, str]:
    """The server's description (as sent, stripped), and the window's summary: the rule (a range, how
    many to choose) and, for a tool's developer (not ``person``, who sees the default filled in), the
    type and the default. Either may be empty."""
    description = schema.get("description")
    description = description.strip() if isinstance(description, str) else ""
    schema = field.schema  # the alternative the field edits: its limits and default
    parts = [_rule(schema, field)]
    kind = simple_type(schema)
    if person or isinstance(field, MultiChoiceField):
        pass
    elif isinstance(field, EnumField):
        if "default" in schema:
            titles = {json.dumps(choice.value): choice.title for choice in field.options}
            default = json.dumps(schema["default"])
            parts.append(_("(default {default})").format(default=titles.get(default, default)))
    elif "default" in schema:
        parts.append(_("({type}, default {default})").format(
            type=kind or _("value"), default=json.dumps(schema["default"], ensure_ascii=False)))
    elif kind in ("integer", "number"):
        parts.append(_("({type})").format(type=kind))
    return description, " ".join(part for part in parts if part)


def _rule(schema: Mapping[str, Any], field: Field) -> str:
    """What the field accepts beyond its type: a number's range, a choice's count."""
    if isinstance(field, MultiChoiceField):
        return field.rule() if field.min_items is not None or field.max_items is not None else ""
    if isinstance(field, TextField) and field.kind in ("integer", "number"):
        low, high = (schema.get(k) for k in ("minimum", "maximum"))
        low, high = (v if isinstance(v, (int, float)) and not isinstance(v, bool) else None for v in (low, high))
        if low is not None and high is not None:
            return _("From {minimum} to {maximum}.").format(minimum=low, maximum=high)
        if low is not None:
            return _("At least {limit}.").format(limit=low)
        if high is not None:
            return _("At most {limit}.").format(limit=high)
    return ""


#: The deepest level the form draws: a value below it is one box of JSON text (a server's schema nested
#: 400 deep built widgets until Python's recursion limit broke the window's choice of the tool).
MAX_FORM_DEPTH = 12


def make_field(schema: Mapping[str, Any], path: Path, required: bool) -> Field:
    """The field for a schema: an enum (titled or not) is a choice; an array of enum values is
    a multi-select; otherwise the type decides; below :data:`MAX_FORM_DEPTH`, JSON text."""
    if len(path) >= MAX_FORM_DEPTH:
        return TextField(schema, path, required, "json")
    choices = schema_choices(schema)
    if choices is None:
        schema = resolved(schema)  # a nullable value edits its one real alternative
        choices = schema_choices(schema)
    if choices is not None:
        return EnumField(schema, path, required, choices)
    kind = simple_type(schema)
    if kind == "boolean":
        return BoolField(schema, path, required)
    if kind == "array":
        item_choices = schema_choices(schema.get("items"))
        if item_choices is not None:
            return MultiChoiceField(schema, path, required, item_choices)
        return ArrayField(schema, path, required)
    if kind == "object":
        return ObjectField(schema, path, required)
    if kind in ("string", "number", "integer"):
        return TextField(schema, path, required, kind)
    return TextField(schema, path, required, "json")


class SchemaForm(QFrame):
    """The whole form: a tool's arguments, or (``titles``) the answer to a server's question."""

    changed = Signal()

    def __init__(self, schema: Mapping[str, Any] | None = None, parent: QWidget | None = None, *,
                 titles: bool = False) -> None:
        super().__init__(parent)
        self.titles = titles
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.root: ObjectField | None = None
        #: The control Tab goes from to the first field (e.g. the tab bar above the form); ``None``:
        #: the fields keep the order they joined the window in.
        self.tab_after: QWidget | None = None
        self._holding = False
        self.set_schema(schema or {})

    def set_schema(self, schema: Mapping[str, Any] | None) -> None:
        """The form of ``schema``; ``None``: no tool is chosen (an empty form that says nothing)."""
        if self.root is not None:
            self._layout.removeWidget(self.root)
            self.root.hide()  # gone at once, not only when the deferred delete comes round
            self.root.deleteLater()
        root_schema = schema if isinstance(schema, Mapping) else {}
        self.root = ObjectField(root_schema, (), True, top=True, titles=self.titles, quiet=schema is None)
        self.root.changed.connect(self.changed)
        self.root.grew.connect(self.order_tabs)
        self._layout.addWidget(self.root)
        self.order_tabs()

    def order_tabs(self) -> None:
        """Put the fields' controls right after :attr:`tab_after` in the Tab order, in the order
        shown. Fields built after the window joined its Tab order last (after the Server log)."""
        if self.tab_after is not None and self.root is not None and not self._holding:
            chain_after(self.tab_after, self.root.tab_stops())

    def value(self) -> dict[str, Any]:
        """The arguments, or :class:`FieldError` for text that cannot be its field's type."""
        assert self.root is not None
        value = self.root.value()
        return value if isinstance(value, dict) else {}

    def set_value(self, value: Mapping[str, Any]) -> None:
        assert self.root is not None
        self._holding = True  # an array given many items is put in order once
        try:
            self.root.set_value(dict(value))
        finally:
            self._holding = False
        self.order_tabs()

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
