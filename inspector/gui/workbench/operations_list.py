"""One row of the operations list: title, state, Cancel, and the operation's budget bar."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.i18n import _

from ..language import on_language_changed, translated
from ..widgets.budget_bar import BudgetBar
from ..widgets.hints import mark_hint
from ..widgets.outcomes import operation_state_text
from .engine import OperationTask


class OperationRow(QFrame):
    """Shows one :class:`OperationTask`; a click selects it, the Cancel button cancels it."""

    selected = Signal(object)

    def __init__(self, task: OperationTask, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.task = task
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.state = QLabel()
        self.state.setTextFormat(Qt.TextFormat.PlainText)
        self.cancel_button = translated(QPushButton(), "setText", lambda: _("Cancel"))
        translated(self.cancel_button, "setToolTip", lambda: _("Cancel this operation (Esc cancels the selected one)"))
        self.cancel_button.clicked.connect(task.cancel)
        self.bar = BudgetBar()
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.title, 1)
        head.addWidget(self.state)
        head.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        layout.addLayout(head)
        layout.addWidget(self.bar)
        task.changed.connect(self.refresh)
        self.set_current(False)
        self.refresh()
        on_language_changed(self, self.refresh)

    def refresh(self) -> None:
        task = self.task
        self.title.setText(_("{title} @ {server}").format(title=task.title, server=task.server.label))
        self.cancel_button.setAccessibleName(_("Cancel {title}").format(title=task.title))
        self.state.setText(operation_state_text(task))
        # As wide as its words: the label must not keep the width of what it said before ("running").
        self.state.setMinimumWidth(self.state.fontMetrics().horizontalAdvance(self.state.text()) + 2)
        self.cancel_button.setEnabled(task.running and not task.cancel_signal.fired)
        self.cancel_button.setVisible(task.running)
        self.bar.show_live(task.state, task.started_at)
        self.setAccessibleName(_("{title}: {state}").format(title=task.title, state=self.bar.accessibleDescription()
                                                            or self.state.text()))

    def set_current(self, current: bool) -> None:
        if self.property("current") == current:
            return
        # One style sheet on the list selects by this property: re-polishing one row is cheap,
        # a style sheet per row is not (twenty rows appear at once when twenty operations start).
        self.setProperty("current", current)
        self.style().unpolish(self)
        self.style().polish(self)

    def mousePressEvent(self, event: object) -> None:  # noqa: N802
        self.selected.emit(self.task)

    def focusInEvent(self, event: object) -> None:  # noqa: N802
        super().focusInEvent(event)  # type: ignore[arg-type]
        self.selected.emit(self.task)


class OperationsList(QWidget):
    """Running and recent operations, newest first, each with its own bar and Cancel."""

    current_changed = Signal(object)
    #: A finished operation's row was dropped to keep the list short (its run stays stored).
    dropped = Signal(object)
    MAX_ROWS = 40

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[OperationRow] = []
        self.current: OperationTask | None = None
        self.setStyleSheet("OperationRow { border: 1px solid #C8C8C8; border-radius: 3px; }"
                           " OperationRow[current=\"true\"] { border: 2px solid #0072B2; }")
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(4, 4, 4, 4)
        self._layout.setSpacing(4)
        self.empty = translated(QLabel(), "setText",
                                lambda: _("No operations yet: pick a tool and press Run (Ctrl+Enter)."))
        mark_hint(self.empty)
        self._layout.addWidget(self.empty)
        self._layout.addStretch(1)

    def add(self, task: OperationTask) -> OperationRow:
        row = OperationRow(task)
        row.selected.connect(self.select)
        self.rows.insert(0, row)
        self._layout.insertWidget(0, row)
        self.empty.hide()
        while len(self.rows) > self.MAX_ROWS:
            old = next((r for r in reversed(self.rows) if not r.task.running), None)
            if old is None:
                break
            self.rows.remove(old)
            self._layout.removeWidget(old)
            old.deleteLater()
            self.dropped.emit(old.task)
        self.select(task)
        return row

    def row_for(self, task: OperationTask) -> OperationRow | None:
        return next((row for row in self.rows if row.task is task), None)

    def select(self, task: OperationTask) -> None:
        previous, self.current = self.current, task
        for row in self.rows:
            if row.task is task or row.task is previous:
                row.set_current(row.task is task)
        self.current_changed.emit(task)
