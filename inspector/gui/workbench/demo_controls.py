"""The "Demo server" entry in the Servers panel when its server is not running: marked, with Start.

An entry whose server is not running must not look alive: its row says "not running" (or
"starting" while its process gets ready), and below the list a line says so (with the reason,
when starting failed) beside a Start button. Once the server listens, the entry's tools load.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.i18n import _
from inspector.store import ServerRegistry

from ..language import on_language_changed, translated
from ..widgets.hints import PROBLEM_STYLE
from .demo_service import DemoService
from .servers_panel import ServersPanel


class DemoControls(QWidget):
    """Shows, for the selected demo entry whose server is not running, why, and a Start button.

    ``reload(url)`` reloads the servers and selects ``url`` (the window's ``reload_servers``).
    """

    def __init__(self, demo: DemoService, panel: ServersPanel, registry: ServerRegistry,
                 reload: Callable[[str | None], None]) -> None:
        super().__init__()
        self.demo, self.panel, self.registry, self._reload = demo, panel, registry, reload
        self.note = QLabel()
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        self.start_button = translated(QPushButton(), "setText", lambda: _("Start the demo server"))
        self.start_button.clicked.connect(self.start)
        # One above the other: the panel is narrow, and the reason for a failed start may be long.
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.start_button, 0, Qt.AlignmentFlag.AlignLeft)
        panel.add_below_list(self)
        panel.server_selected.connect(lambda _record: self.refresh())
        #: Start was pressed: once it runs, the entry is selected, wherever the selection was.
        self._wants_selection = False
        demo.changed.connect(self._changed)
        self.refresh()
        on_language_changed(self, self.refresh)

    def refresh(self) -> None:
        """Mark the entry in the list, and show the note and Start when it is selected and not running."""
        entry = self.demo.entry_url
        stopped = self.demo.stopped_entry(entry)
        self.panel.model.set_not_running({entry} if stopped and not self.demo.starting else set())
        self.panel.model.set_starting({entry} if stopped and self.demo.starting else set())
        current = self.panel.current()
        selected = current is not None and self.demo.stopped_entry(current.url)
        if selected:
            # Starting is no problem (every window start says it): the problem's colour, said in vermillion
            # beside the failed runs, is for a server that is not running.
            style = "" if self.demo.starting else PROBLEM_STYLE
            if self.note.styleSheet() != style:
                self.note.setStyleSheet(style)
            if self.demo.starting:
                self.note.setText(_("The demo server is starting…"))
            elif self.demo.problem:
                self.note.setText(_("The demo server is not running. {problem}").format(problem=self.demo.problem))
            else:
                self.note.setText(_("The demo server is not running."))
        self.start_button.setVisible(not self.demo.starting)
        self.setVisible(selected)

    def start(self) -> bool:
        """Start the demo server (returns at once); once it listens, the entry is selected and its tools load."""
        started = self.demo.start(self.registry)
        self._wants_selection = started
        if self.start_button.hasFocus():  # it hides: the focus goes to the entry, which says "starting"
            self.panel.view.setFocus(Qt.FocusReason.OtherFocusReason)
        self.refresh()
        return started

    def _changed(self) -> None:
        """It runs now (perhaps at a new URL), or it stopped: the list, the selection and the note follow."""
        if self.demo.running:
            current = self.panel.current()
            on_demo = current is None or current.url in (self.demo.url, self.demo.moved_from) or self._wants_selection
            self._wants_selection = False
            self.panel.model.set_not_running(set())
            self.panel.model.set_starting(set())
            self._reload(self.demo.url if on_demo else None)
            now = self.panel.current()
            if on_demo and now is not None and current is not None and now.url == current.url:
                # The same URL as before: the panel sees no new selection, but now there is a server to ask.
                self.panel.server_selected.emit(now)
        elif (current := self.panel.current()) is not None and self.demo.is_entry(current.url):
            self.panel.server_selected.emit(current)  # it stopped: the tools say so instead of failing
        self.refresh()


__all__ = ["DemoControls"]
