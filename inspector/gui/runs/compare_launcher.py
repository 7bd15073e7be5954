"""Where Compare starts: a button beside the run list's filters and an entry of the list's context
menu, both enabled when exactly two runs are selected. The older run is the first (the newer one
is measured against it); the Compare window swaps them on request."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QPushButton, QWidget

from inspector.i18n import _
from inspector.store import RunStore, UnknownRunError

from ..language import translated
from .compare_dialog import CompareDialog
from .run_list import RunListPane

#: Compare's keyboard shortcut in the run list.
COMPARE_KEYS = QKeySequence("Ctrl+Shift+C")


class CompareLauncher(QObject):
    """Opens :class:`CompareDialog` for the two selected runs of a :class:`RunListPane`."""

    def __init__(self, run_list: RunListPane, store: RunStore, db_path: Path, window: QWidget) -> None:
        super().__init__(window)
        self.run_list, self.store, self.db_path, self.window = run_list, store, db_path, window
        #: The last Compare window opened (kept, so it is not collected while shown).
        self.dialog: CompareDialog | None = None
        self.button = translated(QPushButton(), "setText", lambda: _("Compare…"))
        translated(self.button, "setAccessibleName", lambda: _("Compare the two selected runs"))
        translated(self.button, "setToolTip", lambda: _("Select exactly two runs to compare them (Ctrl+Shift+C)"))
        self.button.clicked.connect(self.compare_selected)
        run_list.add_button(self.button)
        self.action = translated(QAction(window), "setText", lambda: _("&Compare the two selected runs"))
        self.action.triggered.connect(self.compare_selected)
        view = run_list.view
        self.shortcut = QShortcut(COMPARE_KEYS, view)
        self.shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
        # The Help menu's list of shortcuts reads what each says.
        translated(self.shortcut, "setWhatsThis", lambda: _("Runs › Compare the two selected runs"))
        self.shortcut.activated.connect(self.compare_selected)
        view.addAction(self.action)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        view.selectionModel().selectionChanged.connect(lambda *_args: self.update())
        # A list read anew selects its runs again without a word (signals blocked), then says which is current.
        for said in (run_list.run_changed, run_list.current_gone):
            said.connect(lambda *_args: self.update())
        self.update()

    def selected_count(self) -> int:
        """How many runs are selected, counted by ranges (25,000 selected runs are not asked one by one)."""
        ranges = self.run_list.view.selectionModel().selection()
        return sum(selected.bottom() - selected.top() + 1 for selected in ranges)

    def update(self) -> None:
        enabled = self.selected_count() == 2
        self.button.setEnabled(enabled)
        self.action.setEnabled(enabled)

    def compare_selected(self) -> CompareDialog | None:
        """Open Compare for the two selected runs (nothing when not exactly two are)."""
        run_ids = self.run_list.selected_run_ids() if self.selected_count() == 2 else []
        if len(run_ids) != 2:
            return None
        return self.compare(*run_ids)

    def compare(self, one: int, other: int) -> CompareDialog | None:
        """Open Compare for these two runs, the older one first."""
        try:
            runs = sorted((self.store.get_run(one), self.store.get_run(other)),
                          key=lambda run: (run.started_at or datetime.min.replace(tzinfo=UTC), run.id))
        except UnknownRunError:
            return None  # deleted meanwhile: the list reads itself anew at once
        self.dialog = CompareDialog(self.store, self.db_path, runs[0].id, runs[1].id, self.window)
        self.dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog.destroyed.connect(lambda *_args, shown=self.dialog: self._forget(shown))
        self.dialog.show()
        return self.dialog

    def _forget(self, dialog: CompareDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None


__all__ = ["COMPARE_KEYS", "CompareLauncher"]
