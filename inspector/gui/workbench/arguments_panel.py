"""The arguments of the selected tool: the generated form and a JSON editor, kept in step.

Editing either one updates the other. :meth:`ArgumentsPanel.arguments` gives the arguments to
send, or ``None`` after showing, at the field or under the editor, why nothing can be sent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QScrollArea, QVBoxLayout, QWidget

from inspector.i18n import _

from ..language import on_language_changed, translated, translated_tab
from ..widgets.arguments import parse_json_object, schema_validator, validate_arguments
from ..widgets.hints import PROBLEM_STYLE
from ..widgets.schema_form import FieldError, SchemaForm
from ..widgets.steady_tabs import SteadyTabs

FORM_TAB, JSON_TAB = 0, 1


class ArgumentsPanel(QWidget):
    """Form | JSON tabs over one set of arguments."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.schema: Mapping[str, Any] = {}
        self.tool_shown = True
        self._validator: Any = None
        #: The validator and the arguments (as JSON) it passed last: Run pressed again checks nothing anew.
        self._passed: tuple[Any, str] | None = None
        self._syncing = False
        self.form = SchemaForm()
        self.form.changed.connect(self._form_changed)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no Tab stop without a name: the fields are the stops
        self.editor = QPlainTextEdit()
        translated(self.editor, "setAccessibleName", lambda: _("Arguments as JSON"))
        self.editor.setTabChangesFocus(True)  # Tab leaves for Run, as from the form (JSON needs no tab)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.textChanged.connect(self._json_changed)
        self.json_error = QLabel()
        self.json_error.setTextFormat(Qt.TextFormat.PlainText)
        self.json_error.setWordWrap(True)
        self.json_error.setStyleSheet(PROBLEM_STYLE)
        self.json_error.hide()
        json_page = QWidget()
        json_layout = QVBoxLayout(json_page)
        json_layout.setContentsMargins(0, 0, 0, 0)
        json_layout.addWidget(self.editor)
        json_layout.addWidget(self.json_error)
        self.tabs = SteadyTabs()
        translated_tab(self.tabs, scroll, lambda: _("Form"))
        translated_tab(self.tabs, json_page, lambda: _("JSON"))
        translated(self.tabs, "setAccessibleName", lambda: _("Arguments"))
        self.form.tab_after = self.tabs.tabBar()  # Tab: Form, JSON, Schema, then the fields shown
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.summary.setStyleSheet(PROBLEM_STYLE)
        self.summary.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.summary)
        on_language_changed(self, self.retranslate)

    def set_schema(self, schema: Mapping[str, Any] | None, arguments: Mapping[str, Any] | None = None) -> None:
        """Show the form for a tool; ``arguments`` (e.g. the last ones used) fill it."""
        self.schema = schema if isinstance(schema, Mapping) else {}
        #: Whether a tool is shown (``None``: none is chosen, and the form says nothing).
        self.tool_shown = schema is not None
        self._validator = schema_validator(self.schema)
        self._syncing = True
        try:
            self.form.set_schema(self.schema if self.tool_shown else None)
            if arguments:
                self.form.set_value(arguments)
        finally:
            self._syncing = False
        self._clear_problems()
        self._form_changed()

    def retranslate(self) -> None:
        """Build the form again in the new language (its hints and type words), keeping what was typed."""
        try:
            value = self.form.value()
        except FieldError:
            value = None  # a field that does not parse yet: keep the form as it is
        if value is None:
            return
        self._syncing = True
        try:
            self.form.set_schema(self.schema if self.tool_shown else None)
            self.form.set_value(value)
        finally:
            self._syncing = False

    def set_arguments(self, arguments: Mapping[str, Any]) -> None:
        self._syncing = True
        try:
            self.form.set_value(arguments)
        finally:
            self._syncing = False
        self._form_changed()

    # -- keeping the two in step -----------------------------------------------------------

    def _form_changed(self) -> None:
        if self._syncing:
            return
        self.form.clear_errors()
        self.summary.hide()
        try:
            value = self.form.value()
        except FieldError as error:
            field = self.form.field_at(error.path)
            if field is not None:
                field.set_error(error.message)
            return
        self._syncing = True
        try:
            self.editor.setPlainText(json.dumps(value, indent=2, ensure_ascii=False))
        finally:
            self._syncing = False
        self.json_error.hide()
        self.changed.emit()

    def _json_changed(self) -> None:
        if self._syncing:
            return
        value, problem = parse_json_object(self.editor.toPlainText())
        self.json_error.setText(problem or "")
        self.json_error.setVisible(problem is not None)
        if value is None:
            return
        self._syncing = True
        try:
            self.form.set_value(value)
        finally:
            self._syncing = False
        self.changed.emit()

    def _clear_problems(self) -> None:
        self.form.clear_errors()
        self.json_error.hide()
        self.summary.hide()

    # -- what to send --------------------------------------------------------------------------

    def arguments(self) -> dict[str, Any] | None:
        """The arguments to send, checked against the schema; ``None`` (and the reasons shown) if bad."""
        self._clear_problems()
        if self.tabs.currentIndex() == JSON_TAB:
            value, problem = parse_json_object(self.editor.toPlainText())
            if value is None:
                self.json_error.setText(problem or "")
                self.json_error.show()
                return None
        else:
            try:
                value = self.form.value()
            except FieldError as error:
                field = self.form.field_at(error.path)
                if field is not None:
                    field.set_error(error.message)
                self._say(_("Nothing was sent: {field}: {problem}").format(
                    field=".".join(map(str, error.path)), problem=error.message))
                return None
        passed = (self._validator, json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr))
        if self._passed is not None and self._passed[0] is passed[0] and self._passed[1] == passed[1]:
            return value
        problems = validate_arguments(self.schema, value, self._validator)
        if problems:
            self.form.show_errors([(p.path, p.message) for p in problems])
            lines = [_("{field}: {problem}").format(field=p.where(), problem=p.message) for p in problems]
            if self.tabs.currentIndex() == JSON_TAB:
                self.json_error.setText("\n".join(lines))
                self.json_error.show()
            self._say(_("Nothing was sent: the arguments do not match the tool's schema.") + "\n" + "\n".join(lines))
            return None
        self._passed = passed
        return value

    def _say(self, text: str) -> None:
        self.summary.setText(text)
        self.summary.show()
