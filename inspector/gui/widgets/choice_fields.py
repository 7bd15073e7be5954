"""Fields for enums: one value from a combo box, several from a column of check boxes.

The options come from :func:`inspector.mcp.elicitation.schema_choices`: an ``enum`` (titled by
the legacy ``enumNames``) or a ``oneOf``/``anyOf`` of ``const`` values with titles. The user sees
the titles; the form answers the values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QVBoxLayout, QWidget

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.mcp.elicitation import Choice, count_limit, items_rule

from ..language import translated_item
from .accessibility import label_combo
from .arguments import Path
from .form_base import MISSING, Field
from .plain_text import cell_text


def _mnemonic_free(text: str) -> str:
    return text.replace("&", "&&")  # a server's "&" is a character, not a keyboard shortcut


class EnumField(Field):
    """One of the schema's values, shown by its title; "not set" first unless required."""

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool, choices: list[Choice]) -> None:
        super().__init__(schema, path, required)
        self.options = choices
        self.choices = [choice.value for choice in choices]
        self.combo = QComboBox()
        # Its width is the form's, not its longest title's: a server's long title cannot widen the form.
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(12)
        # Named by its field, not by the value it shows (the form row's label is not its sibling).
        self.combo_label = label_combo(self.combo, self.name)
        self.offset = 0 if required else 1
        if not required:
            translated_item(self.combo, lambda: _("(not set)"), None)
        for choice in choices:
            self.combo.addItem(cell_text(choice.title, 200))
        self.combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.named()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        layout.addWidget(self.error)

    def named(self) -> None:
        self.combo.setAccessibleName(self.name())
        self.combo_label.setText(self.name())

    def tab_stops(self) -> list[QWidget]:
        return [self.combo]

    def value(self) -> Any:
        index = self.combo.currentIndex() - self.offset
        return self.choices[index] if 0 <= index < len(self.choices) else MISSING

    def set_value(self, value: Any) -> None:
        index = self.choices.index(value) + self.offset if value in self.choices else 0
        self.combo.setCurrentIndex(index)


class MultiChoiceField(Field):
    """Several of the schema's values (an array of enum items): a check box per option.

    At ``maxItems`` the options not chosen are disabled; the hint says how many to choose.
    Nothing chosen is "not given" unless the field is required."""

    def __init__(self, schema: Mapping[str, Any], path: Path, required: bool, choices: list[Choice]) -> None:
        super().__init__(schema, path, required)
        self.options = choices
        self.min_items = count_limit(schema.get("minItems"))
        self.max_items = count_limit(schema.get("maxItems"))
        self.boxes: list[QCheckBox] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        for choice in choices:
            box = QCheckBox(_mnemonic_free(cell_text(choice.title, 200)))
            box.toggled.connect(self._toggled)
            layout.addWidget(box)
            self.boxes.append(box)
        layout.addWidget(self.error)
        self.named()

    def rule(self) -> str:
        """How many options to choose, as a sentence."""
        return translate(items_rule(self.min_items, self.max_items))

    def named(self) -> None:
        for box, choice in zip(self.boxes, self.options, strict=True):
            box.setAccessibleName(choice.title)
            box.setAccessibleDescription(_("{field}: {rule}").format(field=self.name(), rule=self.rule()))

    def tab_stops(self) -> list[QWidget]:
        return list(self.boxes)

    def _toggled(self, _checked: bool) -> None:
        self._limit()
        self.changed.emit()

    def _limit(self) -> None:
        full = self.max_items is not None and len(self.chosen()) >= self.max_items
        for box in self.boxes:
            box.setEnabled(box.isChecked() or not full)

    def chosen(self) -> list[Any]:
        """The values ticked, in the options' order."""
        return [choice.value for box, choice in zip(self.boxes, self.options, strict=True) if box.isChecked()]

    def value(self) -> Any:
        chosen = self.chosen()
        return chosen if chosen or self.required else MISSING

    def set_value(self, value: Any) -> None:
        wanted = value if isinstance(value, list) else []
        for box, choice in zip(self.boxes, self.options, strict=True):
            box.blockSignals(True)
            box.setChecked(choice.value in wanted)
            box.blockSignals(False)
        self._limit()
