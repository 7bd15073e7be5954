"""The Tools panel: the selected server's catalogue (loaded through the client), filtered by text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QListView, QPushButton, QVBoxLayout, QWidget

from inspector.i18n import _, ngettext
from inspector.i18n.entry_names import shown_label
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import translate

from ..language import on_language_changed, translated
from ..widgets.accessibility import name_clear_button
from ..widgets.fitted_label import FittedLabel
from ..widgets.hints import readable_placeholder
from .catalogue_cache import KeptCatalogue
from .freshness import FreshnessLabel
from .operation_task import OperationTask
from .tools_model import ToolFilter, ToolRole, ToolsModel


def catalogue_state(tools: int, pages: int, excluded: int) -> str:
    """The state line under a loaded catalogue: "12 tools in 2 pages." and, when the server listed
    tools that cannot be called, how many (their rows say why)."""
    counted = _("{tools} in {pages}.").format(
        tools=ngettext("{count} tool", "{count} tools", tools).format(count=format_number(tools)),
        pages=ngettext("{count} page", "{count} pages", pages).format(count=format_number(pages)))
    if not excluded:
        return counted
    return _("{counted} {excluded}").format(counted=counted, excluded=ngettext(
        "{count} more excluded (point at it to see why).",
        "{count} more excluded (point at one to see why).", excluded).format(
            count=format_number(excluded)))


class ToolsPanel(QWidget):
    """Filter box, the tool list, the load state (page progress) with Reload and Cancel."""

    tool_selected = Signal(object)  # the tool dict, or None
    reload_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ToolsModel()
        self.proxy = ToolFilter()
        self.proxy.setSourceModel(self.model)
        self.filter = QLineEdit()
        translated(self.filter, "setPlaceholderText", lambda: _("Filter tools…"))
        translated(self.filter, "setAccessibleName", lambda: _("Filter tools by name or description"))
        name_clear_button(self.filter, lambda: _("Clear the tool filter"))
        self.filter.textChanged.connect(self.proxy.set_text)
        readable_placeholder(self.filter)
        self.view = QListView()
        # Every row is one line of a name (cut to 200 characters): without this, choosing a row of a
        # server's 20,000 tools asked each row its size (160,000 data calls, a 1.5 s freeze).
        self.view.setUniformItemSizes(True)
        self.view.setModel(self.proxy)
        translated(self.view, "setAccessibleName", lambda: _("Tools"))
        self.view.selectionModel().currentChanged.connect(lambda current, _prev: self._selected())
        # A long reason (the load failed) under a short list is cut at a whole line, never in half.
        self.state = FittedLabel(_("Select a server to see its tools."))
        self.reload_button = translated(QPushButton(), "setText", lambda: _("Reload"))
        translated(self.reload_button, "setAccessibleName", lambda: _("Reload the tool list"))
        self.reload_button.clicked.connect(self.reload_requested)
        self.cancel_button = translated(QPushButton(), "setText", lambda: _("Cancel"))
        translated(self.cancel_button, "setAccessibleName", lambda: _("Cancel loading the tool list"))
        self.cancel_button.hide()
        self.task: OperationTask | None = None
        self.cancel_button.clicked.connect(self._cancel)
        state_row = QHBoxLayout()
        state_row.addWidget(self.state, 1)
        state_row.addWidget(self.cancel_button)
        state_row.addWidget(self.reload_button)
        #: How long the catalogue is fresh (stateless servers say so), counting down.
        self.freshness = FreshnessLabel()
        #: Keeps a catalogue that arrived (the window's keeper, set per load by :meth:`loading`).
        self._keep: Callable[[Any], KeptCatalogue] | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter)
        layout.addWidget(self.view, 1)
        layout.addLayout(state_row)
        layout.addWidget(self.freshness)
        #: Makes the state line in the current language (said again after a switch).
        self._state_text: Callable[[], str] = lambda: _("Select a server to see its tools.")
        on_language_changed(self, self._say_again)

    def _say_again(self) -> None:
        self.state.setText(self._state_text())

    def _say(self, text: Callable[[], str]) -> None:
        self._state_text = text
        self.state.setText(text())

    def loading(self, task: OperationTask, keep: Callable[[Any], KeptCatalogue] | None = None) -> None:
        """Follow a catalogue walk: pages as they arrive, then the tools (or why not); ``keep``
        keeps the catalogue that arrives (and says when it arrived)."""
        self.task = task
        self._keep = keep
        self.model.set_tools([])
        self.freshness.clear_catalogue()
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        task.changed.connect(self._progress)
        task.finished.connect(self._loaded)
        self._progress()

    def _progress(self) -> None:
        task = self.task
        if task is None or not task.running:
            return
        pages = sum(1 for leg in task.state.legs if leg.method == "tools/list")
        if pages == 0:
            self._say(lambda: _("Connecting to {server}…").format(server=shown_label(task.server)))
        else:
            self._say(lambda: _("Loading tools: page {page}…").format(page=format_number(pages)))

    def _loaded(self, outcome: Any) -> None:
        task = self.sender() if isinstance(self.sender(), OperationTask) else self.task
        if task is not self.task:
            return  # a walk the user has already replaced
        self.cancel_button.hide()
        record = outcome.record
        if record is not None and record.status == "ok" and record.result is not None:
            catalogue = record.result
            self._show(self._keep(catalogue) if self._keep is not None else KeptCatalogue.now(catalogue))
        elif record is not None and record.status == "cancelled":
            self._say(lambda: _("Loading the tools was cancelled."))
        else:
            error = record.error if record is not None and record.error else outcome.internal_error
            # Said again in a new language: the client's sentence too.
            self._say(lambda: _("The tools could not be loaded: {reason}").format(reason=translate(error or "")))
        self._selected()

    def show_kept(self, kept: KeptCatalogue) -> None:
        """Show a catalogue kept while fresh (instead of listing again)."""
        self.task = None
        self.cancel_button.hide()
        self._show(kept)
        self._selected()

    def _show(self, kept: KeptCatalogue) -> None:
        catalogue = kept.catalogue
        excluded = list(getattr(catalogue, "excluded", ()))
        self.model.set_tools(catalogue.tools, excluded)
        self._say(lambda: catalogue_state(len(catalogue.tools), catalogue.pages, len(excluded)))
        self.freshness.show_catalogue(kept)
        if self.model.tool(0) is not None and not self.view.currentIndex().isValid():
            self.view.setCurrentIndex(self.proxy.index(0, 0))

    def _cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.cancel_button.setEnabled(False)

    def clear(self, message: str | Callable[[], str]) -> None:
        """No tools; ``message`` says why (a function of no arguments: said again in a new language)."""
        self.task = None
        self.model.set_tools([])
        self.freshness.clear_catalogue()
        self.cancel_button.hide()
        self._say(message if callable(message) else lambda: message)
        self._selected()

    def current_tool(self) -> dict[str, Any] | None:
        index = self.view.currentIndex()
        return index.data(ToolRole) if index.isValid() else None

    def select_tool(self, name: str) -> bool:
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if index.data() == name:
                self.view.setCurrentIndex(index)
                return True
        return False

    def _selected(self) -> None:
        self.tool_selected.emit(self.current_tool())
