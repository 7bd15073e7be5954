"""The dialog for a server's question (elicitation) and the confirmation of a sampling request.

The question's form is generated from its requested schema by the same form generator as tool
arguments, for every shape the protocol defines (strings with formats, numbers with ranges,
booleans, single- and multi-select enums, titled or not); the answer is checked against the
schema before it is sent. Only a schema outside the protocol is edited as JSON. The dialog is as
wide as its form (within limits) and scrolls when it is taller than the screen allows. Both
dialogs count down what is left of the operation's budget: when it runs out the client stops
waiting and the dialog closes. Both name who asks in a header band of the window's own
(:mod:`.asker_header`), close when their operation ends or is cancelled, and offer to stop the
operation's asking.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QSize, Qt, QTimer
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
from inspector.i18n.messages import translate
from inspector.mcp.elicitation import answer_problems, form_fields
from inspector.mcp.messages import Message

from ..language import on_language_changed, translated
from ..widgets.hints import PROBLEM_STYLE
from ..widgets.plain_text import label_text
from ..widgets.schema_form import MISSING, FieldError, SchemaForm
from ..workbench.server_requests import PendingQuestion
from .asker_header import (
    AskerHeader,
    asker_server,
    button_row,
    close_with_operation,
    server_says,
    stop_asking_button,
)

#: How often the countdown is redrawn (milliseconds).
TICK_MS = 200
#: The question dialog's width limits (pixels): never a narrow box, never wider than this.
MIN_WIDTH, MAX_WIDTH = 440, 880
#: The sampling dialog's width at first (pixels): the header's lines fit without wrapping.
SAMPLING_WIDTH = 560
#: How many characters wide the form would like to be, so that hints wrap into readable lines.
COMFORTABLE_CHARACTERS = 90


def _plain(text: str) -> QLabel:
    label = QLabel(label_text(text, 10_000))  # a question reads whole; only a flood is cut
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
        self._pending = pending
        on_language_changed(self.label, self._name_again)
        self._on_zero = on_zero
        self.timer = QTimer(dialog)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _name_again(self) -> None:
        self._name(self._pending.remaining_now(), again=True)

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


class _FormScroll(QScrollArea):
    """A scroll area that asks for its form's whole size, up to the width limit and 2/3 of the screen;
    beyond that the form scrolls (a long question stays reachable on a small screen)."""

    def __init__(self, form: QWidget) -> None:
        super().__init__()
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no Tab stop without a name: the fields are the stops
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(form)

    def sizeHint(self) -> QSize:
        form = self.widget().sizeHint()
        bar = self.verticalScrollBar().sizeHint().width()
        # Wrapped hints have no natural width: give them a comfortable line (about 90 characters).
        comfortable = self.fontMetrics().averageCharWidth() * COMFORTABLE_CHARACTERS
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        tallest = int(screen.height() * 2 / 3) if screen is not None else 600
        return QSize(min(max(form.width(), comfortable) + bar, MAX_WIDTH), min(form.height(), tallest))

    def minimumSizeHint(self) -> QSize:
        return QSize(min(self.widget().minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width(),
                         MAX_WIDTH), 120)


class ElicitationDialog(QDialog):
    """Shows the server's message and a form; Accept, Decline or Cancel answer the question."""

    def __init__(self, pending: PendingQuestion, server: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pending = pending
        self.answered: dict[str, Any] | None = None
        translated(self, "setWindowTitle", lambda: _("{server} asks a question").format(
            server=asker_server(pending.asker, server)))
        layout = QVBoxLayout(self)
        self.header = AskerHeader(pending.asker, server)
        layout.addWidget(self.header)
        self.message = _plain(pending.message)
        said = [self.message]
        self.form: SchemaForm | None = None
        self.json_editor: QPlainTextEdit | None = None
        self.fields = form_fields(pending.schema)
        self._checking = False  # after a refused Accept, the problems follow every edit
        if self.fields is not None:
            self.form = SchemaForm(pending.schema, titles=True)
            self.form.changed.connect(self._recheck)
            on_language_changed(self.form, self._retranslate_form)
            if any(field.required for field in self.fields):
                said.append(translated(_plain(""), "setText", lambda: _("Fields marked * are required.")))
            self.scroll = _FormScroll(self.form)
            said.append(self.scroll)
        else:
            said.append(translated(_plain(""), "setText", lambda: _(
                "This form cannot be shown field by field; write the answer as JSON.")))
            self.json_editor = QPlainTextEdit(json.dumps(schema_defaults(pending.schema), indent=2))
            translated(self.json_editor, "setAccessibleName", lambda: _("Answer as JSON"))
            self.json_editor.setTabChangesFocus(True)  # Tab goes on to Accept
            said.append(self.json_editor)
        # The message and the form the server defined, in the box that says they are the server's.
        self.server_text = server_says(*said)
        layout.addWidget(self.server_text, 1)
        self.problem = _plain("")
        self.problem.setStyleSheet(PROBLEM_STYLE)
        self.problem.hide()
        layout.addWidget(self.problem)
        self.countdown = _Countdown(self, pending, lambda: self._finish(None))
        layout.addWidget(self.countdown.label)
        buttons = QDialogButtonBox()
        self.accept_button = translated(QPushButton(), "setText", lambda: _("Accept"))
        self.decline_button = translated(QPushButton(), "setText", lambda: _("Decline"))
        self.cancel_button = translated(QPushButton(), "setText", lambda: _("Cancel"))
        self.stop_button = stop_asking_button(pending.asker)
        buttons.addButton(self.accept_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.decline_button, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.accept_button.clicked.connect(self._accept)
        self.decline_button.clicked.connect(self.decline)
        self.cancel_button.clicked.connect(lambda: self._finish({"action": "cancel"}))
        self.stop_button.clicked.connect(self.stop_asking)
        layout.addLayout(button_row(self.stop_button, buttons))
        close_with_operation(self, pending.asker)
        self.setMinimumWidth(MIN_WIDTH)
        self.adjustSize()  # as wide as the form wants (the scroll area says how wide, within limits)

    def _retranslate_form(self) -> None:
        """Build the form again in the new language (its hints, placeholders and range words),
        keeping what was typed; a field that does not parse yet keeps the form as it is."""
        assert self.form is not None
        try:
            value = self.form.value()
        except FieldError:
            return
        self.form.set_schema(self.pending.schema)
        self.form.set_value(value)

    def content(self) -> dict[str, Any] | None:
        """What the user filled in, or ``None`` (the problem is shown) when it cannot be sent."""
        if self.form is not None:
            assert self.fields is not None
            self._checking = True
            try:
                value = self.form.value()
            except FieldError as error:
                self.form.show_errors([(error.path, error.message)])
                self.scroll.ensureWidgetVisible(self.form.field_at(error.path) or self.form)
                return None
            value = {key: item for key, item in value.items() if item is not MISSING}
            problems = answer_problems(self.fields, value)
            self._show_problems(problems)
            return None if problems else value
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

    def _recheck(self) -> None:
        """Once Accept was refused, say at each edit what is still wrong (and clear what is fixed)."""
        if not self._checking or self.form is None or self.fields is None:
            return
        try:
            value = self.form.value()
        except FieldError as error:
            self.form.show_errors([(error.path, error.message)])
            return
        self._show_problems(answer_problems(self.fields, value), scroll=False)

    def _show_problems(self, problems: list[tuple[str, Message]], *, scroll: bool = True) -> None:
        """Each problem at its field, their count above the buttons; the first one scrolled into view."""
        assert self.form is not None
        self.form.show_errors([((name,), translate(message)) for name, message in problems])
        self.problem.setText(ngettext("{count} field needs a change before the answer can be sent.",
                                      "{count} fields need a change before the answer can be sent.",
                                      len(problems)).format(count=len(problems)))
        self.problem.setVisible(bool(problems))
        first = self.form.field_at((problems[0][0],)) if problems and scroll else None
        if first is not None:
            self.scroll.ensureWidgetVisible(first)
            first.buddy().setFocus(Qt.FocusReason.OtherFocusReason)  # its control: a field hands focus to no proxy

    def decline(self) -> None:
        """The user declines (the MCP answer for an explicit no)."""
        self._finish({"action": "decline"})

    def stop_asking(self) -> None:
        """Decline this question, and the operation's later ones without a dialog."""
        if self.pending.asker is not None:
            self.pending.asker.stop_asking()
        self.decline()

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
        if self.answered is None and self.pending.answered_on_close() and self.pending.remaining_now() > 0:
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
        translated(self, "setWindowTitle", lambda: _("{server} wants to use the model").format(
            server=asker_server(pending.asker, server)))
        layout = QVBoxLayout(self)
        self.header = AskerHeader(pending.asker, server)
        layout.addWidget(self.header)
        layout.addWidget(translated(_plain(""), "setText", lambda: _(
            "The server asks the configured model to answer these messages. Allow it?")))
        shown = translated(QPlainTextEdit(), "setPlainText", lambda: sampling_text(pending.params or {}))
        shown.setReadOnly(True)
        translated(shown, "setAccessibleName", lambda: _("The messages the server sends to the model"))
        self.messages = shown
        self.server_text = server_says(shown)
        layout.addWidget(self.server_text, 1)
        self.countdown = _Countdown(self, pending, lambda: self._finish(None))
        layout.addWidget(self.countdown.label)
        buttons = QDialogButtonBox()
        self.allow_button = translated(QPushButton(), "setText", lambda: _("Allow"))
        self.refuse_button = translated(QPushButton(), "setText", lambda: _("Refuse"))
        self.stop_button = stop_asking_button(pending.asker)
        buttons.addButton(self.allow_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.refuse_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.allow_button.clicked.connect(lambda: self._finish(True))
        self.refuse_button.clicked.connect(self.decline)
        self.stop_button.clicked.connect(self.stop_asking)
        layout.addLayout(button_row(self.stop_button, buttons))
        close_with_operation(self, pending.asker)
        self.setMinimumWidth(MIN_WIDTH)
        self.resize(max(self.sizeHint().width(), SAMPLING_WIDTH), self.sizeHint().height())

    def decline(self) -> None:
        """The user refuses this request."""
        self._finish(False)

    def stop_asking(self) -> None:
        """Refuse this request, and the operation's later ones without a dialog."""
        if self.pending.asker is not None:
            self.pending.asker.stop_asking()
        self.decline()

    def _finish(self, allowed: bool | None) -> None:
        self.countdown.timer.stop()
        if allowed is not None and self.answered is None:
            self.answered = allowed
            self.pending.answer(allowed)
        self.done(QDialog.DialogCode.Accepted if allowed else QDialog.DialogCode.Rejected)

    def reject(self) -> None:
        if self.answered is None and self.pending.answered_on_close():
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
