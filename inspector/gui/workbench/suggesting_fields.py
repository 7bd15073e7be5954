"""Fields a server can complete: a prompt's arguments, a resource template's variables.

One editable field per name, each with Suggest, which asks the server (``completion/complete``, an
operation of its own) for the values that fit what was typed, given the others; the values wait in
the field's list. Nothing is asked before Suggest is pressed. A required field left empty is said
under it, checked and worded as the Tools form does (:meth:`SuggestingFields.problems`). Also: a
URI template (RFC 6570's expressions up to level 3) filled in with the fields' values.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.i18n import _
from inspector.mcp.offerings import Completion

from ..language import translated
from ..widgets.arguments import ArgumentProblem, validate_arguments
from ..widgets.form_base import plain_label
from ..widgets.hints import PROBLEM_STYLE
from ..widgets.plain_text import cell_text
from .operation_task import OperationTask

#: ``submit(operation, params, title)``: the operation started for the selected server (``None``: no server).
Submit = Callable[[str, dict[str, Any], str], OperationTask | None]
_VARIABLE = re.compile(r"\{([+#./;?&]?)([A-Za-z0-9_.%]+(?:,[A-Za-z0-9_.%]+)*)\}")
#: What a reserved expansion ({+var}) leaves as it is (RFC 6570's reserved and unreserved characters).
_RESERVED = ":/?#[]@!$&'()*+,;="


#: A query's expressions ({?var}, {&var}): their variables may be left out (the URI then has no such part).
_OPTIONAL = frozenset("?&")
#: Per operator: what the expansion begins with, what joins its values, whether each is "name=value".
_FORMS = {"": ("", ",", False), "+": ("", ",", False), "#": ("#", ",", False), ".": (".", ".", False),
          "/": ("/", "/", False), ";": (";", ";", True), "?": ("?", "&", True), "&": ("&", "&", True)}


def template_variables(template: str, leaving_out: frozenset[str] = frozenset()) -> list[str]:
    """The variables of a URI template, in order, each once (but those of the expressions whose
    operator is in ``leaving_out``)."""
    names: list[str] = []
    for operator, group in _VARIABLE.findall(template):
        if operator not in leaving_out:
            names += [name for name in group.split(",") if name not in names]
    return names


def required_variables(template: str) -> list[str]:
    """The variables a URI cannot do without: all but a query's (``{?q}``, ``{&page}``)."""
    return template_variables(template, _OPTIONAL)


def expand_template(template: str, values: dict[str, str]) -> str:
    """``template`` with its expressions filled in (RFC 6570 level 3: ``{var}`` percent-encoded,
    ``{+var}`` and ``{#var}`` keeping reserved characters, ``{.var}``, ``{/var}``, ``{;var}``,
    ``{?var}``, ``{&var}``). A query's variable without a value is left out; an expression with
    another variable without a value stays as it is written, so the URI shows what is missing."""
    def fill(match: re.Match[str]) -> str:
        operator, names = match.group(1), match.group(2).split(",")
        given = [name for name in names if values.get(name)]
        if operator not in _OPTIONAL and len(given) < len(names):
            return match.group(0)
        if not given:
            return ""
        first, joint, named = _FORMS[operator]
        safe = _RESERVED if operator in ("+", "#") else ""
        parts = [(f"{name}=" if named else "") + quote(values[name], safe=safe) for name in given]
        return first + joint.join(parts)

    return _VARIABLE.sub(fill, template)


def problem_label() -> QLabel:
    """Where a form says why it sent nothing (hidden until it has to)."""
    label = plain_label("")
    label.setStyleSheet(PROBLEM_STYLE)
    label.hide()
    return label


class SuggestingFields(QWidget):
    """Rows of ``name [value ▾] Suggest``; ``changed`` when a value changes."""

    changed = Signal()

    def __init__(self, submit: Submit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.fields: dict[str, QComboBox] = {}
        #: Under each field, what is wrong with it (hidden while nothing is).
        self.errors: dict[str, QLabel] = {}
        self._required: list[str] = []
        self._ref: dict[str, str] = {}

    def show_fields(self, ref: dict[str, str], fields: list[tuple[str, bool, str]]) -> None:
        """``ref``: what completion names (``ref/prompt`` or ``ref/resource``); ``fields``: each
        field's name, whether it is required, and its description."""
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields, self.errors, self._ref = {}, {}, ref
        self._required = [name for name, required, _description in fields if required]
        for name, required, description in fields:
            field = QComboBox()
            field.setEditable(True)
            field.setAccessibleName(name)
            field.setToolTip(cell_text(description, 500))
            field.editTextChanged.connect(lambda _text, name=name: self._edited(name))
            suggest = translated(QPushButton(), "setText", lambda: _("Suggest"))
            translated(suggest, "setAccessibleName",
                       lambda: _("Ask the server to complete this argument: its values go to the field's list"))
            suggest.clicked.connect(lambda _checked=False, name=name: self.suggest(name))
            row = QHBoxLayout()
            row.addWidget(field, 1)
            row.addWidget(suggest)
            error = plain_label("")
            error.setStyleSheet(PROBLEM_STYLE)
            error.hide()
            column = QVBoxLayout()
            column.addLayout(row)
            column.addWidget(error)
            label = QLabel(cell_text(name + (" *" if required else ""), 60))
            label.setTextFormat(Qt.TextFormat.PlainText)
            self.form.addRow(label, column)
            self.fields[name] = field
            self.errors[name] = error
        self.setVisible(bool(fields))

    def _edited(self, name: str) -> None:
        self.errors[name].hide()
        self.changed.emit()

    def problems(self) -> list[ArgumentProblem]:
        """What keeps the values from being sent (a required field left empty), each said under its
        field; checked as the Tools form checks its arguments."""
        schema = {"type": "object", "properties": {name: {"type": "string"} for name in self.fields},
                  "required": self._required}
        problems = validate_arguments(schema, self.values())
        for name, error in self.errors.items():
            said = [problem.message for problem in problems if problem.path[:1] == (name,)]
            error.setText(" ".join(said))
            error.setVisible(bool(said))
        return problems

    def values(self) -> dict[str, str]:
        return {name: field.currentText() for name, field in self.fields.items() if field.currentText()}

    def suggest(self, name: str) -> OperationTask | None:
        field = self.fields.get(name)
        if field is None or not self._ref:
            return None
        typed = field.currentText()
        others = {other: value for other, value in self.values().items() if other != name}
        task = self._submit("completion/complete", {"ref": dict(self._ref), "argument": name, "value": typed,
                                                     "context": others},
                            _("completion/complete {argument}").format(argument=cell_text(name, 60)))

        def offer(found: Completion) -> None:
            if self.fields.get(name) is field:
                field.clear()
                field.addItems([cell_text(value, 200) for value in found.values])
                field.setEditText(typed)  # the values wait in the field's list (its arrow)

        when_done(task, offer)
        return task


def when_done(task: OperationTask | None, then: Callable[[Any], None]) -> None:
    """Call ``then(result)`` once ``task`` has ended with a result."""
    if task is None:
        return

    def finished(_outcome: object = None) -> None:
        record = task.outcome.record if task.outcome is not None else None
        if record is not None and record.result is not None:
            then(record.result)

    if task.outcome is not None:
        finished()
    else:
        task.finished.connect(finished)


__all__ = ["SuggestingFields", "Submit", "expand_template", "template_variables", "when_done"]
