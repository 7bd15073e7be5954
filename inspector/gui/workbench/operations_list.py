"""Running and recent operations: a compact list (one line each) and the selected one's full budget bar.

The list is one item view, so it is one Tab stop; the arrow keys, Home and End move the
selection inside it, Delete (or the context menu) cancels the selected operation, and each
running row has a Cancel button of its own for the mouse. Rows are painted by
:class:`OperationDelegate` from the tasks themselves (:class:`OperationsModel` copies nothing);
while something runs, the list looks at its visible running rows at the budget bar's frame rate
and repaints those whose picture moved (a pixel of the mini bar, a tenth of the countdown).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QModelIndex, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QListView, QVBoxLayout, QWidget

from inspector.i18n import _

from ..language import on_language_changed, translated
from ..widgets.budget_bar import FRAME_MS, BudgetBar
from ..widgets.empty_hint import EmptyHint
from ..widgets.frame_throttle import FrameThrottle
from .operation_delegate import OperationDelegate
from .operation_task import OperationTask
from .operations_model import OperationsModel, bar_titles, spoken_text, state_text


@dataclass(frozen=True)
class OperationRow:
    """One operation's line in the list, as tests and the window ask about it."""

    task: OperationTask
    index: QModelIndex
    #: Where the row's Cancel button is, in the list's viewport.
    cancel_rect: QRect

    @property
    def cancellable(self) -> bool:
        """Whether the row shows its Cancel button (it runs and no cancel was asked yet)."""
        return self.task.running and not self.task.cancel_signal.fired

    @property
    def state_text(self) -> str:
        return state_text(self.task)

    @property
    def accessible_text(self) -> str:
        return spoken_text(self.task)


class RowsView(QListView):
    """The list of operations: a changed row repaints that row alone. Qt's list view repaints every
    visible row when any one row's data changes (measured: the whole viewport for a single index),
    which made every report of one running operation repaint all the rows seen; the rows here never
    change their size, so the item view's own handling (the row, and accessibility) is enough."""

    def dataChanged(self, top_left: QModelIndex, bottom_right: QModelIndex, roles=()) -> None:  # noqa: N802, B006
        QAbstractItemView.dataChanged(self, top_left, bottom_right, roles)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        """The rows' pictures are drawn anew in another palette, font or style."""
        if event.type() in _LOOK_CHANGES:
            delegate = self.itemDelegate()
            if isinstance(delegate, OperationDelegate):
                delegate.forget_pictures()
        super().changeEvent(event)


_LOOK_CHANGES = (QEvent.Type.PaletteChange, QEvent.Type.FontChange, QEvent.Type.StyleChange)


class OperationsList(QWidget):
    """Running and recent operations, newest first: one line each, the selected one's full bar below."""

    current_changed = Signal(object)
    #: A finished operation's row was dropped to keep the list short (its run stays stored).
    dropped = Signal(object)
    MAX_ROWS = 40

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.current: OperationTask | None = None
        self.model = OperationsModel(self)
        self.delegate = OperationDelegate(self)
        self.delegate.task_at = self.model.task_at
        self.delegate.cancel_clicked.connect(self.cancel)
        self.view = RowsView()
        self.view.setModel(self.model)
        self.view.setItemDelegate(self.delegate)
        self.view.setUniformItemSizes(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        translated(self.view, "setAccessibleName", lambda: _("Running and recent operations"))
        translated(self.view, "setAccessibleDescription", lambda: _(
            "Up and Down choose an operation; Delete cancels it. Its budget bar is shown below the list."))
        self.view.selectionModel().currentChanged.connect(self._current_index_changed)
        self.cancel_action = translated(QAction(self.view), "setText", lambda: _("&Cancel this operation"))
        self.cancel_action.setShortcut(QKeySequence(Qt.Key.Key_Delete))
        self.cancel_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.cancel_action.triggered.connect(lambda: self.cancel(self.current))
        self.cancel_action.setEnabled(False)
        self.view.addAction(self.cancel_action)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        # What to do, where the operations will be, while there are none.
        self.empty_hint = EmptyHint(self.view, lambda: _("No operations yet: pick a tool and press Run (Ctrl+Enter)."))
        self.empty = self.empty_hint.label
        self.detail = BudgetBar()
        self.detail.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.detail)
        self._frames = QTimer(self)
        self._frames.setInterval(FRAME_MS)
        self._frames.setTimerType(Qt.TimerType.PreciseTimer)
        self._frames.timeout.connect(self._tick)
        #: What of each running row moves with the clock, as last repainted (``OperationDelegate.moment``).
        self._shown: dict[int, tuple[int, int] | None] = {}
        self.model.dataChanged.connect(lambda first, last, roles=(): self._rows_changed(first.row(), last.row()))
        # The selected operation's detail (its bar, result, legs) is shown at most once a frame:
        # Run pressed twenty times in a row selects twenty operations in a fifth of a second.
        self._detail_shown = FrameThrottle(self._show_current, self)
        self._pacing = False
        on_language_changed(self, self._retranslate)

    # -- the window's interface ---------------------------------------------------------------

    @property
    def tasks(self) -> list[OperationTask]:
        """The operations listed, newest first."""
        return self.model.tasks

    @property
    def animating(self) -> bool:
        """Whether the list is repainting its running rows (it stops when nothing runs)."""
        return self._frames.isActive()

    def add(self, task: OperationTask) -> OperationRow:
        self.model.insert(task)
        tasks = self.model.tasks
        while len(tasks) > self.MAX_ROWS:
            old = next((t for t in reversed(tasks) if not t.running), None)
            if old is None:
                break
            self.model.remove(old)
            tasks.remove(old)
            self.dropped.emit(old)
        self._frames.start()
        self._pacing = True  # a new operation: shown within the frame (user's own moves at once)
        try:
            self.select(task)
        finally:
            self._pacing = False
        row = self.row_for(task)
        assert row is not None
        return row

    def row_for(self, task: OperationTask | None) -> OperationRow | None:
        row = self.model.row_of(task) if task is not None else -1
        if task is None or row < 0:
            return None
        index = self.model.index(row, 0)
        rect = self.view.visualRect(index)
        return OperationRow(task, index, self.delegate.parts(rect, self.view.fontMetrics()).cancel)

    def select(self, task: OperationTask) -> None:
        row = self.model.row_of(task)
        if row < 0:
            return
        index = self.model.index(row, 0)
        if self.current is task:
            self._show_selected()
        else:
            self.view.setCurrentIndex(index)
        self.view.scrollTo(index)

    def cancel(self, task: OperationTask | None) -> None:
        """Cancel ``task`` (if it still runs) and show at once that a cancel was asked."""
        if task is not None and task.running:
            task.cancel()
            self.refresh(task)

    def refresh(self, task: OperationTask) -> None:
        """Show ``task`` again: a cancel was asked, which the task itself does not announce."""
        self.model.task_changed(task)

    # -- inside -------------------------------------------------------------------------------

    def _current_index_changed(self, index: QModelIndex, previous: QModelIndex) -> None:
        task = self.model.task_at(index.row()) if index.isValid() else None
        if task is None or task is self.current:
            return
        self.current = task
        self._show_selected()

    def _show_selected(self) -> None:
        if self._pacing:
            self._detail_shown.request()
        else:
            self._detail_shown.now()

    def _show_current(self) -> None:
        self._show_detail()
        self.current_changed.emit(self.current)

    def _show_detail(self) -> None:
        task = self.current
        if task is None:
            self.detail.hide()
            return
        self.detail.set_title(*bar_titles(task))
        self.detail.show_live(task.state, task.started_at)
        self.detail.show()
        self.cancel_action.setEnabled(task.running and not task.cancel_signal.fired)

    def _rows_changed(self, first: int, last: int) -> None:
        task = self.current
        if task is not None and not self._detail_shown.pending and first <= self.model.row_of(task) <= last:
            self._show_detail()
        if not self._frames.isActive() and any(t.running for t in self.model.tasks):
            self._frames.start()

    def _retranslate(self) -> None:
        if self.current is not None:
            self.detail.set_title(*bar_titles(self.current))
        self.view.viewport().update()

    def _tick(self) -> None:
        """One frame: repaint the running rows that can be seen; stop when nothing runs.

        The rows are all one height: which are seen, and where, is worked out here, not asked of
        the view row by row (each such question calls back into the model's Python, and each call
        waits for the interpreter lock while the network engine's thread runs Python)."""
        tasks = self.model.tasks
        if not any(task.running for task in tasks):
            self._frames.stop()
            return
        if not self.view.isVisible():
            return
        viewport = self.view.viewport()
        top = self.view.visualRect(self.model.index(0, 0))
        height = top.height()
        if height <= 0:
            return
        # The first row's rectangle, scrolled: row r is `height` further down per row.
        first = max(0, -top.top() // height)
        last = min(len(tasks) - 1, (viewport.height() - 1 - top.top()) // height)
        bar_px = self.delegate.cached_parts(top, self.view.fontMetrics()).bar.width()
        for row in range(first, last + 1):
            task = tasks[row]
            if not task.running:
                continue
            look = self.delegate.moment(task, bar_px)
            if self._shown.get(id(task)) != look:
                self._shown[id(task)] = look
                viewport.update(top.translated(0, row * height))
        if len(self._shown) > 4 * self.MAX_ROWS:
            self._shown.clear()
