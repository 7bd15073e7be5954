"""The dialog for a server's question (elicitation) and the confirmation of a sampling request.

The question's form is generated from its requested schema by the same form generator as tool
arguments; a schema that form cannot show is edited as JSON. Both dialogs count down what is left
of the operation's budget: when it runs out the client stops waiting and the dialog closes.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, ngettext
from inspector.mcp import form_fields

from ..language import on_language_changed, translated
from ..widgets.schema_form import MISSING, FieldError, SchemaForm
from ..workbench.server_requests import PendingQuestion

#: How often the countdown is redrawn (milliseconds).
TICK_MS = 200


def _plain(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # the server's text is never rich text
    label.setWordWrap(True)
    return label


def whole_seconds(seconds: float) -> int:
    """The seconds left as the countdown shows them: a second still begun counts."""
    return int(seconds + 0.999)


def budget_left_text(seconds: float) -> str:
    whole = whole_seconds(seconds)
    return ngettext("{count} second of the operation's budget left.",
                    "{count} seconds of the operation's budget left.", whole).format(count=whole)


class _Countdown:
    """A label that counts the budget down, and closes the dialog (with its own answer) at zero.

    Its accessible name says the value ("Time left: 12 s"), said again once a second, not at every
    redraw, so a screen reader is not flooded."""

    def __init__(self, dialog: QDialog, pending: PendingQuestion, on_zero) -> None:
        self.label = _plain(budget_left_text(pending.remaining_now()))
        self._named = -1
        self._name(pending.remaining_now())
        on_language_changed(self.label, lambda: self._name(self._pending.remaining_now(), again=True))
        self._pending = pending
        self._on_zero = on_zero
        self.timer = QTimer(dialog)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _name(self, left: float, *, again: bool = False) -> None:
        whole = whole_seconds(left)
        if whole != self._named or again:
            self._named = whole
            self.label.setAccessibleName(_("Time left: {seconds} s").format(seconds=whole))
            self.label.setAccessibleDescription(budget_left_text(left))

    def _tick(self) -> None:
        left = self._pending.remaining_now()
        self.label.setText(budget_left_text(left))
        self._name(left)
        if left <= 0 or self._pending.withdrawn:
            self.timer.stop()
            self._on_zero()


class ElicitationDialog(QDialog):
    """Shows the server's message and a form; Accept, Decline or Cancel answer the question."""

    def __init__(self, pending: PendingQuestion, server: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pending = pending
        self.answered: dict[str, Any] | None = None
        translated(self, "setWindowTitle", lambda: _("The server asks a question"))
        layout = QVBoxLayout(self)
        if server:
            layout.addWidget(translated(_plain(""), "setText", lambda: _("The server {server} asks:").format(
                server=server)))
        self.message = _plain(pending.message)
        layout.addWidget(self.message)
        self.form: SchemaForm | None = None
        self.json_editor: QPlainTextEdit | None = None
        if form_fields(pending.schema) is not None:
            self.form = SchemaForm(pending.schema)
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setWidget(self.form)
            layout.addWidget(scroll, 1)
        else:
            layout.addWidget(translated(_plain(""), "setText", lambda: _(
                "This form cannot be shown field by field; write the answer as JSON.")))
            self.json_editor = QPlainTextEdit(json.dumps(schema_defaults(pending.schema), indent=2))
            translated(self.json_editor, "setAccessibleName", lambda: _("Answer as JSON"))
            layout.addWidget(self.json_editor, 1)
        self.problem = _plain("")
        self.problem.setStyleSheet("color: #B84A00;")
        self.problem.hide()
        layout.addWidget(self.problem)
        self.countdown = _Countdown(self, pending, lambda: self._finish(None))
        layout.addWidget(self.countdown.label)
        buttons = QDialogButtonBox()
        self.accept_button = translated(QPushButton(), "setText", lambda: _("Accept"))
        self.decline_button = translated(QPushButton(), "setText", lambda: _("Decline"))
        self.cancel_button = translated(QPushButton(), "setText", lambda: _("Cancel"))
        buttons.addButton(self.accept_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.decline_button, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.accept_button.clicked.connect(self._accept)
        self.decline_button.clicked.connect(lambda: self._finish({"action": "decline"}))
        self.cancel_button.clicked.connect(lambda: self._finish({"action": "cancel"}))
        layout.addWidget(buttons)

    def content(self) -> dict[str, Any] | None:
        """What the user filled in, or ``None`` (the problem is shown) when it cannot be sent."""
        if self.form is not None:
            try:
                value = self.form.value()
            except FieldError as error:
                self.form.show_errors([(error.path, error.message)])
                return None
            return {key: item for key, item in value.items() if item is not MISSING}
        assert self.json_editor is not None
        try:
            value = json.loads(self.json_editor.toPlainText())
        except ValueError:
            value = None
        if not isinstance(value, dict):
            self.problem.setText(_("The answer must be a JSON object, e.g. {example}.").format(
                example='{"name": "Ada"}'))
            self.problem.show()
            return None
        return value

    def _accept(self) -> None:
        content = self.content()
        if content is not None:
            self._finish({"action": "accept", "content": content})

    def _finish(self, answer: dict[str, Any] | None) -> None:
        """Answer (``None``: the budget ran out, the client already stopped waiting) and close."""
        self.countdown.timer.stop()
        if answer is not None and self.answered is None:
            self.answered = answer
            self.pending.answer(answer)
        self.done(QDialog.DialogCode.Accepted if answer and answer["action"] == "accept"
                  else QDialog.DialogCode.Rejected)

    def reject(self) -> None:  # Esc or the window's close button: the user cancels
        if self.answered is None and not self.pending.withdrawn and self.pending.remaining_now() > 0:
            self.answered = {"action": "cancel"}
            self.pending.answer(self.answered)
        self.countdown.timer.stop()
        super().reject()


class SamplingDialog(QDialog):
    """Asks the user whether the server may use the configured model for this request."""

    def __init__(self, pending: PendingQuestion, server: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pending = pending
        self.answered: bool | None = None
        translated(self, "setWindowTitle", lambda: _("The server wants to use the model"))
        layout = QVBoxLayout(self)
        layout.addWidget(translated(_plain(""), "setText", lambda: _(
            "The server {server} asks the configured model to answer these messages. Allow it?").format(
                server=server or _("(unnamed)"))))
        shown = translated(QPlainTextEdit(), "setPlainText", lambda: sampling_text(pending.params or {}))
        shown.setReadOnly(True)
        translated(shown, "setAccessibleName", lambda: _("The messages the server sends to the model"))
        layout.addWidget(shown, 1)
        self.countdown = _Countdown(self, pending, lambda: self._finish(None))
        layout.addWidget(self.countdown.label)
        buttons = QDialogButtonBox()
        self.allow_button = translated(QPushButton(), "setText", lambda: _("Allow"))
        self.refuse_button = translated(QPushButton(), "setText", lambda: _("Refuse"))
        buttons.addButton(self.allow_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.refuse_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.allow_button.clicked.connect(lambda: self._finish(True))
        self.refuse_button.clicked.connect(lambda: self._finish(False))
        layout.addWidget(buttons)

    def _finish(self, allowed: bool | None) -> None:
        self.countdown.timer.stop()
        if allowed is not None and self.answered is None:
            self.answered = allowed
            self.pending.answer(allowed)
        self.done(QDialog.DialogCode.Accepted if allowed else QDialog.DialogCode.Rejected)

    def reject(self) -> None:
        if self.answered is None and not self.pending.withdrawn:
            self.answered = False
            self.pending.answer(False)
        self.countdown.timer.stop()
        super().reject()


def schema_defaults(schema: Any) -> dict[str, Any]:
    """The defaults a schema's top-level properties carry: the JSON editor starts from them."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return {}
    return {name: prop["default"] for name, prop in properties.items() if isinstance(prop, dict) and "default" in prop}


def sampling_text(params: dict[str, Any]) -> str:
    """The sampling request as plain text: the system prompt, then each message with its role."""
    lines = []
    system = params.get("systemPrompt")
    if isinstance(system, str) and system:
        lines.append(_("System: {text}").format(text=system))
    for message in params.get("messages") or ():
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        blocks = content if isinstance(content, list) else [content]
        text = " ".join(block.get("text", "") for block in blocks if isinstance(block, dict))
        lines.append(_("{role}: {text}").format(role=message.get("role", "?"), text=text))
    max_tokens = params.get("maxTokens")
    if isinstance(max_tokens, int):
        lines.append(ngettext("At most {count} token.", "At most {count} tokens.", max_tokens).format(count=max_tokens))
    return "\n".join(lines)
