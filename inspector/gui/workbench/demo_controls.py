"""The "Demo server" entry in the Servers panel when its server is not running: marked, with Start.

An entry whose server is not running must not look alive: its row says "not running", and below
the list a line says so (with the reason, when starting failed) beside a Start button.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from inspector.i18n import _
from inspector.store import ServerRegistry

from ..language import on_language_changed, translated
from .demo_service import DemoService
from .servers_panel import ServersPanel


class DemoControls(QWidget):
    """Shows, for the selected demo entry whose server is not running, why, and a Start button.

    ``reload(url)`` reloads the servers and selects ``url`` (the window's ``reload_servers``);
    ``load_tools()`` loads the selected server's tools again (the window's ``load_tools``).
    """

    def __init__(self, demo: DemoService, panel: ServersPanel, registry: ServerRegistry,
                 reload: Callable[[str | None], None], load_tools: Callable[[], object]) -> None:
        super().__init__()
        self.demo, self.panel, self.registry = demo, panel, registry
        self._reload, self._load_tools = reload, load_tools
        self.note = QLabel()
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #B84A00;")
        self.start_button = translated(QPushButton(), "setText", lambda: _("Start the demo server"))
        self.start_button.clicked.connect(self.start)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note, 1)
        layout.addWidget(self.start_button, 0, Qt.AlignmentFlag.AlignTop)
        panel.add_below_list(self)
        panel.server_selected.connect(lambda _record: self.refresh())
        self.refresh()
        on_language_changed(self, self.refresh)

    def refresh(self) -> None:
        """Mark the entry in the list, and show the note and Start when it is selected and not running."""
        stopped = not self.demo.running and bool(self.demo.entry_url)
        self.panel.model.set_not_running({self.demo.entry_url} if stopped else set())
        current = self.panel.current()
        selected = stopped and current is not None and self.demo.is_entry(current.url)
        if selected:
            if self.demo.problem:
                self.note.setText(_("The demo server is not running. {problem}").format(problem=self.demo.problem))
            else:
                self.note.setText(_("The demo server is not running."))
        self.setVisible(selected)

    def start(self) -> str | None:
        """Start the demo server; the entry (perhaps at a new URL) is selected and its tools load."""
        before = self.panel.current().url if self.panel.current() is not None else None
        url = self.demo.start(self.registry)
        if url is None:
            self.refresh()
            return None
        self.panel.model.set_not_running(set())
        self._reload(url)
        current = self.panel.current()
        if current is not None and current.url == before:
            # The same URL as before: no new selection, but the server now answers (a load that
            # failed, or is still failing, against the stopped server is replaced).
            self._load_tools()
        self.refresh()
        return url


__all__ = ["DemoControls"]
