"""File → Receive OTLP traces: the OTLP/HTTP receiver inside the window, storing into its database.

A checkable action starts and stops it (on 127.0.0.1, on the port chosen in Settings, which a
start reads; with "start with Run Inspector" it starts as the window opens); while it runs, the
status bar says where it listens and how many runs it has received. The runs appear in
the Runs tab by themselves: it watches the database's ``data_version``. A port that is taken is
said in a message box, and the action is unchecked again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QMessageBox

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import translate

from .language import on_language_changed, translated
from .settings import AppSettings

if TYPE_CHECKING:  # the receiver (and the trace mapping it loads) is imported when it starts, not with the window
    from inspector.capture import RunReceived, TraceReceiver


class ReceiverSwitch(QObject):
    """The receiver of one window: its action, its status-bar label, its lifetime."""

    #: A run was written (emitted on the receiver's writer thread; delivered queued).
    received = Signal(object)

    def __init__(self, db_path: Path, settings: AppSettings, parent: QMainWindow, menu: QMenu) -> None:
        super().__init__(parent)
        self._db_path = db_path
        self._settings = settings
        self._receiver: TraceReceiver | None = None
        self._runs: set[int] = set()
        self.problem: QMessageBox | None = None
        self.action = translated(QAction(parent), "setText", lambda: _("&Receive OTLP traces"))
        self.action.setCheckable(True)
        self.action.toggled.connect(self._toggled)
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        translated(self.label, "setAccessibleName", lambda: _("Trace receiver"))
        self.label.hide()
        self.received.connect(self._count, Qt.ConnectionType.QueuedConnection)
        on_language_changed(self.label, self._show)
        menu.addAction(self.action)
        parent.statusBar().addPermanentWidget(self.label)
        if settings.receiver_autostart:
            QTimer.singleShot(0, self, lambda: self.action.setChecked(True))

    @property
    def running(self) -> bool:
        return self._receiver is not None

    @property
    def url(self) -> str | None:
        return self._receiver.url if self._receiver is not None else None

    def stop(self) -> None:
        """Stop listening; the traces still growing are written as finished."""
        if self._receiver is not None:
            receiver, self._receiver = self._receiver, None
            receiver.stop()
        self.action.blockSignals(True)
        self.action.setChecked(False)
        self.action.blockSignals(False)
        self._show()

    def _toggled(self, on: bool) -> None:
        if not on:
            self.stop()
            return
        from inspector.capture import ReceiverError, ReceiverOptions, TraceReceiver

        receiver = TraceReceiver(self._db_path, ReceiverOptions(port=self._settings.receiver_port),
                                 on_run=self.received.emit)
        try:
            receiver.start()
        except ReceiverError as error:
            self.stop()
            self._say(translate(error.sentence))
            return
        self._receiver, self._runs = receiver, set()
        self._show()

    def _count(self, received: RunReceived) -> None:
        self._runs.add(received.run_id)
        self._show()

    def _show(self) -> None:
        if self._receiver is None:
            self.label.hide()
            return
        runs = ngettext("{count} run received", "{count} runs received", len(self._runs)).format(
            count=format_number(len(self._runs)))
        self.label.setText(_("Receiving OTLP traces at {url} · {runs}").format(url=self._receiver.url, runs=runs))
        self.label.show()

    def _say(self, sentence: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, _("Receive OTLP traces"), sentence, QMessageBox.StandardButton.Ok,
                          self.parent())
        box.setTextFormat(Qt.TextFormat.PlainText)
        self.problem = box
        box.open()
