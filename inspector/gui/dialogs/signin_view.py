"""The sign-in view: the debugger of a server's sign-in, one row per step as it happens.

It opens when a server refuses an operation until a sign-in (then it first asks: Sign in or not)
or when the user signs in from the Servers panel. Each step is a leg of the sign-in operation:
its row carries a mark (icon, word and colour: never colour alone), the step in words and what
it found; the browser's address is shown whole, selectable, with a Copy button (for a machine
whose browser did not open); a failure names the step in words and says why. Everything a
server chose (issuer, client, scope, the error's details) is plain text. The header band names
the server and the operation in the window's own words. Esc cancels a running sign-in.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QCloseEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.entry_names import shown_label
from inspector.i18n.messages import translate
from inspector.mcp import ServerEndpoint, public_url

from ..language import on_language_changed, translated
from ..widgets.accessibility import announce
from ..widgets.budget_bar import BudgetBar
from ..widgets.outcomes import outcome_icon, text_colour
from ..widgets.plain_text import cell_text, label_text
from ..widgets.tab_stops import one_tab_stop
from ..workbench.signin_engine import SignInRequest, SignIns, SignInTask
from ..workbench.signin_steps import RUNNING, signed_in_text, state_words, step_rows, step_words
from .asker_header import HEADER_STYLE, HEADER_VALUE_CHARS


def _label(text: str = "", *, bold: bool = False) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if bold:
        font = label.font()
        font.setBold(True)
        label.setFont(font)
    return label


class SignInHeader(QFrame):
    """The band naming the server, its address and the operation that waits (drawn by the window)."""

    def __init__(self, server: ServerEndpoint, operation: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("askerHeader")
        self.setStyleSheet(HEADER_STYLE)
        self._server, self._operation = server, operation
        layout = QGridLayout(self)
        layout.setContentsMargins(14, 8, 10, 8)
        self.names = [_label() for _ in range(3)]
        self.values = [_label() for _ in range(3)]
        for row, (name, value) in enumerate(zip(self.names, self.values, strict=True)):
            name.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            layout.addWidget(name, row, 0)
            layout.addWidget(value, row, 1)
        layout.setColumnStretch(1, 1)
        self.retranslate()
        on_language_changed(self, self.retranslate)

    def retranslate(self) -> None:
        server = self._server
        texts = ((_("Server:"), cell_text(shown_label(server), HEADER_VALUE_CHARS)),
                 (_("Address:"), cell_text(public_url(server.url), HEADER_VALUE_CHARS)),
                 (_("Operation:"), cell_text(self._operation, HEADER_VALUE_CHARS) if self._operation
                  else _("none waits: you asked to sign in")))
        for (name, value), name_label, value_label in zip(texts, self.names, self.values, strict=True):
            name_label.setText(name)
            value_label.setText(value)
        self.setAccessibleName(_("Sign-in of server {server}, address {address}, operation {operation}").format(
            server=self.values[0].text(), address=self.values[1].text(), operation=self.values[2].text()))


#: The view's size once it follows a sign-in: room for its steps, each a row of the table.
FOLLOWING_SIZE = QSize(760, 560)


class SignInView(QDialog):
    """One sign-in: asks first (for a ``request``), then follows its :class:`SignInTask`."""

    def __init__(self, signins: SignIns, server: ServerEndpoint, *, request: SignInRequest | None = None,
                 task: SignInTask | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.signins = signins
        self.server = server
        self.request = request
        self.task: SignInTask | None = None
        waiting = request.task.title if request is not None else (
            None if task is None or task.reason is None else task.reason.method)
        self.header = SignInHeader(server, waiting)
        self.why = _label()
        translated(self.why, "setAccessibleName", lambda: _("Why a sign-in"))
        self.status = _label(bold=True)
        translated(self.status, "setAccessibleName", lambda: _("Sign-in status"))
        self.bar = BudgetBar()
        translated(self.bar, "setAccessibleName", lambda: _("Budget of the sign-in"))
        self.steps = one_tab_stop(QTableWidget(0, 3))
        self.steps.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.steps.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.steps.setWordWrap(True)
        self.steps.verticalHeader().hide()
        header = self.steps.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        translated(self.steps, "setAccessibleName", lambda: _("Steps of the sign-in"))
        translated(header, "setAccessibleName", lambda: _("Columns of the steps"))
        self.address_label = translated(_label(), "setText", lambda: _("The browser was sent to:"))
        self.address = QLineEdit()
        self.address.setReadOnly(True)
        translated(self.address, "setAccessibleName", lambda: _("Browser address"))
        self.copy_button = translated(QPushButton(), "setText", lambda: _("Copy"))
        translated(self.copy_button, "setAccessibleName", lambda: _("Copy the browser address"))
        self.copy_button.clicked.connect(lambda: QApplication.clipboard().setText(self.address.text()))
        self.failure = _label()
        self.failure.setStyleSheet("QLabel { background: #FBEDE3; border-left: 4px solid #D55E00; padding: 4px; }")
        translated(self.failure, "setAccessibleName", lambda: _("Why the sign-in failed"))
        self.sign_in_button = translated(QPushButton(), "setText", lambda: _("Sign in"))
        self.sign_in_button.clicked.connect(self._sign_in)
        self.cancel_button = translated(QPushButton(), "setText", lambda: _("Cancel  (Esc)"))
        self.cancel_button.clicked.connect(self.reject)
        self.close_button = translated(QPushButton(), "setText", lambda: _("Close"))
        self.close_button.clicked.connect(self.accept)
        self._build()
        self.setWindowModality(Qt.WindowModality.NonModal)
        if request is not None:
            request.closed.connect(self._request_closed)
        if task is not None:
            self.follow(task)
        self.refresh()
        if self.task is None:
            # Asking: as high as the question (it grows for the steps once the sign-in starts).
            layout = self.layout()
            self.resize(FOLLOWING_SIZE.width(), layout.heightForWidth(FOLLOWING_SIZE.width())
                        if layout.hasHeightForWidth() else self.sizeHint().height())
        on_language_changed(self, self.refresh)

    def _build(self) -> None:
        address = QHBoxLayout()
        address.addWidget(self.address, 1)
        address.addWidget(self.copy_button)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.sign_in_button, self.cancel_button, self.close_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.why)
        layout.addWidget(self.status)
        layout.addWidget(self.bar)
        layout.addWidget(self.steps, 1)
        layout.addWidget(self.address_label)
        layout.addLayout(address)
        layout.addWidget(self.failure)
        # While the view asks (no steps yet), the room the steps would take stays below the question.
        self.filler = QWidget()
        layout.addWidget(self.filler, 1)
        layout.addLayout(buttons)

    # -- following -------------------------------------------------------------------------------

    def follow(self, task: SignInTask) -> None:
        """Show ``task``'s steps as they happen."""
        self.task = task
        task.changed.connect(self.refresh)
        task.step_seen.connect(lambda _step: self.refresh())
        task.finished.connect(lambda _outcome: self._ended())
        self.bar.show_live(task.state, task.started_at)
        self.refresh()
        self.resize(self.size().expandedTo(FOLLOWING_SIZE))

    def _ended(self) -> None:
        """Show how the sign-in ended, and say it to a screen reader: the user comes back from the browser
        to a dialog that changed in silence (it heard "tools/list (failed)" from the status line alone)."""
        self.refresh()
        announce(self, " ".join(label.text() for label in (self.status, self.failure) if label.isVisibleTo(self)))

    def _sign_in(self) -> None:
        if self.request is not None and self.task is None:
            task = self.signins.answer(self.request)
            if task is not None:
                self.follow(task)

    def _request_closed(self) -> None:
        if self.task is None:
            task = self.signins.running(self.server)
            if task is not None and self.request is not None and any(need in task.waiters
                                                                     for need in self.request.needs):
                self.follow(task)
            elif self.isVisible():
                self.done(QDialog.DialogCode.Rejected)

    def reject(self) -> None:
        """Esc or Cancel: a running sign-in is cancelled (the view stays, to show it); a question is
        declined; a finished one is closed."""
        if self.task is not None and self.task.running:
            self.task.cancel()
            return
        if self.task is None and self.request is not None:
            self.signins.decline(self.request)
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if self.task is not None and self.task.running:
            self.task.cancel()
        elif self.task is None and self.request is not None:
            self.signins.decline(self.request)
        super().closeEvent(event)

    # -- what it shows -----------------------------------------------------------------------------

    def refresh(self) -> None:
        server = cell_text(shown_label(self.server), HEADER_VALUE_CHARS)
        self.setWindowTitle(_("Sign in to {server}").format(server=server))
        task = self.task
        reason = self.request.reason if self.request is not None else (task.reason if task else None)
        self.why.setText(label_text(translate(reason), 2000) if reason is not None else
                         _("You asked to sign in to this server."))
        asking = task is None
        self.sign_in_button.setVisible(asking)
        self.cancel_button.setVisible(asking or task.running)
        self.cancel_button.setText(_("Not now") if asking else _("Cancel  (Esc)"))
        self.close_button.setVisible(not asking and not task.running)
        for widget in (self.bar, self.steps):
            widget.setVisible(not asking)
        self.filler.setVisible(asking)
        if asking:
            self.status.setText(_("Signing in opens your browser at the server's authorization server; the "
                                  "operation waits, then runs again with its whole budget."))
            self._show_rows([], None)
            self.failure.hide()
            self.sign_in_button.setDefault(True)
            return
        self.bar.show_live(task.state, task.started_at)
        error = task.error
        failed_step = getattr(error, "signin_step", None)
        failure = translate(error) if error is not None and not error.is_cancellation else ""
        rows = step_rows(task.state.legs, task.steps, failed_step, failure_reason(error) or failure)
        self._show_rows(rows, task)
        self.status.setText(self._status_text(task, failed_step))
        if failure:
            self.failure.setText(label_text(failure, 4000))
        self.failure.setVisible(bool(failure))
        if not task.running:
            self.close_button.setDefault(True)

    def _status_text(self, task: SignInTask, failed_step: str | None) -> str:
        if task.running:
            if task.cancel_signal.fired:
                return _("Cancelling the sign-in…")
            return _("Signing in… each step is listed below as it happens.")
        status = task.outcome.status if task.outcome is not None else "failed"
        if status == "ok":
            return (("✓ " + signed_in_text(task.tokens)) if task.tokens is not None
                    else _("✓ Signed in."))
        if status == "cancelled":
            return _("⊘ Sign-in cancelled: the operation that waited for it is not run again.")
        if failed_step:
            return _("✗ Sign-in failed at the step: {step}.").format(step=step_words(failed_step))
        return _("✗ Sign-in failed.")

    def _show_rows(self, rows: list, task: SignInTask | None) -> None:
        self.steps.setHorizontalHeaderLabels([_("State"), _("Step"), _("What it found")])
        self.steps.setRowCount(len(rows))
        address = None
        for number, row in enumerate(rows):
            # The icon is the mark (a check, a cross, a hatched circle, a dot): with the word, never colour alone.
            state = QTableWidgetItem(state_words(row.state))
            outcome = "running" if row.state == RUNNING else row.state
            state.setIcon(outcome_icon(outcome))
            colour = text_colour(outcome, self.steps.palette().color(QPalette.ColorRole.Base))
            if colour is not None and row.state != RUNNING:
                state.setForeground(colour)
            state.setData(Qt.ItemDataRole.AccessibleTextRole, state_words(row.state))
            step = QTableWidgetItem(step_words(row.step))
            step.setToolTip(row.step)
            detail = QTableWidgetItem(cell_text(row.detail or (_("under way…") if row.state == RUNNING else ""), 600))
            detail.setToolTip(label_text(row.detail, 4000))
            for column, item in enumerate((state, step, detail)):
                self.steps.setItem(number, column, item)
            address = row.address or address
        self.steps.resizeRowsToContents()
        shown = address is not None
        if shown and self.address.text() != address:
            self.address.setText(address)
            self.address.setCursorPosition(0)
        for widget in (self.address_label, self.address, self.copy_button):
            widget.setVisible(shown)


def failure_reason(error: object) -> str:
    """Why a step failed, without the sentence around it ("the answer came from …"), for its row."""
    sentences = getattr(error, "sentences", None) or ()
    params = getattr(sentences[0], "params", None) if sentences else None
    reason = params.get("reason") if isinstance(params, Mapping) else None
    if reason is None:
        return ""
    text = translate(reason)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


__all__ = ["SignInHeader", "SignInView", "failure_reason"]
