"""The operations list's model: a thin list over the window's :class:`OperationTask` objects, newest first.

It holds no copy of what a task shows: the texts are made when asked (a running operation's
change with the clock), from the task's :class:`BarState`.

Its rows are Qt's own (a :class:`QStandardItemModel` with one empty item per task): the view asks
a model how many rows it has, and what each row's flags and index are, dozens of times a frame,
and a model written in Python answers each of those questions in Python. Every answer needs the
interpreter lock, and while the network engine's thread runs Python each waited for it (about
3,500 such calls a second with twenty operations running, ``benchmarks/gui_window.py``). Only
:meth:`OperationsModel.data` is Python here.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel

from inspector.i18n import _
from inspector.i18n.entry_names import shown_label
from inspector.i18n.words import outcome_word

from ..language import on_language_changed
from ..widgets.budget_bar_words import (
    ending_text,
    format_seconds,
    kind_ending_text,
    remaining_text,
    shown_tenths,
    spent_text,
)
from ..widgets.plain_text import plain_tooltip, visible
from .operation_task import OperationTask

#: The role that returns the row's :class:`OperationTask`.
TASK_ROLE = Qt.ItemDataRole.UserRole + 1

Index = QModelIndex | QPersistentModelIndex
_TEXT_ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole)
#: A row can be selected, nothing more (no editing, no dragging).
_ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


def now_s(task: OperationTask, clock: float | None = None) -> float:
    """Seconds into the operation: the clock while it runs, where it ended once it has."""
    state = task.state
    if state.finished and state.ended_s is not None:
        return state.ended_s
    return task.elapsed_s(clock)


def title_text(task: OperationTask) -> str:
    return visible(_("{title} @ {server}").format(title=task.title, server=shown_label(task.server)))


def bar_titles(task: OperationTask) -> tuple[str, ...]:
    """The budget bar's header: the operation and its server, else the operation alone where that does not
    fit ("tools/call hang"), else the tool alone ("hang", not "to…" beside a German ending at 1024 px)."""
    shorter = (visible(task.tool),) if task.tool and task.tool != task.title else ()
    return (title_text(task), visible(task.title), *shorter)


def state_word(task: OperationTask) -> str:
    """running, cancelling… or how it ended ("failed: timed out"), without the icon."""
    if task.running:
        if task.waiting_for_signin and not task.cancel_signal.fired:
            return _("waiting for sign-in")
        return _("cancelling…") if task.cancel_signal.fired else outcome_word("running")
    return ending_text(task.state).lstrip("✓⊘✗ ")


def state_text(task: OperationTask, clock: float | None = None, *, compact: bool = False) -> str:
    """The state column: running and the countdown (``compact``: the countdown alone) while it
    runs; the ending (with its icon) and the time it took once over."""
    if task.running:
        if task.cancel_signal.fired:
            return _("cancelling…")
        if task.waiting_for_signin:  # its budget starts afresh once signed in
            return _("waiting for sign-in")
        return countdown_text(left_tenths(task, clock), compact=compact)
    return _("{state} · {time}").format(state=ending_text(task.state), time=format_seconds(now_s(task)))


def short_state_text(task: OperationTask) -> str | None:
    """An ended failure's state where :func:`state_text` does not fit: its kind alone beside the failed
    mark, and the time ("✗ timed out · 2.0 s"); ``None`` for any other row (it has nothing shorter to say)."""
    kind = None if task.running else kind_ending_text(task.state)
    return None if kind is None else _("{state} · {time}").format(state=kind, time=format_seconds(now_s(task)))


def left_tenths(task: OperationTask, clock: float | None = None) -> int:
    """What is left of a running operation's budget, in tenths of a second (what the countdown shows);
    below zero past the deadline (a leg granted whole seconds runs on into its last one); never zero, as
    the bar's countdown (:func:`shown_tenths`)."""
    return shown_tenths(task.budget_s - now_s(task, clock))


def countdown_text(tenths: int, *, compact: bool = False) -> str:
    """A running row's state for ``tenths`` of a second left: "running · 13.7 s left" (``compact``: "13.7 s left")."""
    left = remaining_text(tenths / 10)  # "0.3 s over" past the deadline, as the bar says it
    return left if compact else _("{state} · {time}").format(state=outcome_word("running"), time=left)


def spoken_text(task: OperationTask, clock: float | None = None) -> str:
    """What a screen reader says for the row: "tools/call hang, running: 6.3 s of 20 s spent"."""
    return _("{title}, {state}: {spent}").format(title=task.title, state=state_word(task),
                                                 spent=spent_text(task.state, now_s(task, clock)))


class OperationsModel(QStandardItemModel):
    """One row per operation, newest first; a task's ``changed`` signal repaints its row."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks: list[OperationTask] = []
        self._slots: dict[int, Any] = {}
        on_language_changed(self, self._everything_changed)

    @property
    def tasks(self) -> list[OperationTask]:
        return list(self._tasks)

    def task_at(self, row: int) -> OperationTask | None:
        return self._tasks[row] if 0 <= row < len(self._tasks) else None

    def row_of(self, task: OperationTask) -> int:
        try:
            return self._tasks.index(task)
        except ValueError:
            return -1

    def insert(self, task: OperationTask) -> None:
        row = QStandardItem()
        row.setFlags(_ROW_FLAGS)
        row.setData(task, TASK_ROLE)  # the row's texts are made from it (the list below may lag a signal)
        self.insertRow(0, row)
        self._tasks.insert(0, task)

        def changed(task: OperationTask = task) -> None:
            self.task_changed(task)

        self._slots[id(task)] = changed
        task.changed.connect(changed)

    def remove(self, task: OperationTask) -> None:
        row = self.row_of(task)
        if row < 0:
            return
        self.removeRow(row)
        del self._tasks[row]
        slot = self._slots.pop(id(task), None)
        if slot is not None:
            task.changed.disconnect(slot)

    def task_changed(self, task: OperationTask) -> None:
        """Say that ``task``'s row shows something new (it changed, or a cancel was asked)."""
        row = self.row_of(task)
        if row >= 0:
            index = self.index(row, 0)
            self.dataChanged.emit(index, index)

    def _everything_changed(self) -> None:
        if self._tasks:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._tasks) - 1, 0))

    # -- Qt's model interface (the rows, their flags and indexes are the standard model's) ------

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _TEXT_ROLES and role != TASK_ROLE:
            return None
        task = super().data(index, TASK_ROLE)
        if not isinstance(task, OperationTask):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return title_text(task)
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(_("{title}\n{state}").format(title=title_text(task), state=state_text(task)))
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return spoken_text(task)
        if role == TASK_ROLE:
            return task
        return None
