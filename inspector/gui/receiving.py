"""File → Receive OTLP traces: the OTLP/HTTP receiver inside the window, storing into its database.

A checkable action starts and stops it (on 127.0.0.1, on the port chosen in Settings, which a
start reads; with "start with Run Inspector" it starts as the window opens); while it runs, the
status bar says where it listens and how many runs it has received. The runs appear in
the Runs tab by themselves: it watches the database's ``data_version``. A port that is taken is
said in a message box, and the action is unchecked again. While another program holds the run
database locked (the spans received meanwhile are refused, 503), the status bar says so in one line
beside the receiver's state (the whole sentence, which program and what to do, as its tip), until a
write succeeds again; that is said there for a while too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QMessageBox

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import Message, translate

from .language import on_language_changed, translated
from .settings import AppSettings
from .widgets.elided_label import ElidedLabel

#: How long the status bar says the run database is no longer locked.
UNLOCKED_SHOWN_MS = 15_000

if TYPE_CHECKING:  # the receiver (and the trace mapping it loads) is imported when it starts, not with the window
    from inspector.capture import RunReceived, TraceReceiver


class _LockedLabel(ElidedLabel):
    """One line in the status bar saying the database is locked, in short (cut with "…" where the bar
    has no room); its tip is always the receiver's whole sentence (which program, what to do)."""

    def __init__(self) -> None:
        super().__init__()
        self.whole = ""

    def say(self, whole: str) -> None:
        self.whole = whole
        self.setText(_("Run database locked by another program: received spans are refused (503)"))

    def _tip(self) -> None:
        self.setToolTip(self.whole)


class ReceiverSwitch(QObject):
    """The receiver of one window: its action, its status-bar label, its lifetime."""

    #: A run was written (emitted on the receiver's writer thread; delivered queued).
    received = Signal(object)
    #: The receiver's sentence about the run database (locked by another program, or free again),
    #: emitted on its writer thread; delivered queued.
    problem_heard = Signal(object)

    def __init__(self, db_path: Path, settings: AppSettings, parent: QMainWindow, menu: QMenu) -> None:
        super().__init__(parent)
        self._db_path = db_path
        self._settings = settings
        self._receiver: TraceReceiver | None = None
        self._runs: set[int] = set()
        self.problem: QMessageBox | None = None
        #: Why the spans received are not stored now (the database locked by another program), or None.
        self.locked: Message | None = None
        #: Waits of the receivers it starts (None: the receiver's own): another program's lock, the writer.
        self.lock_wait_s: float | None = None
        self.answer_wait_s: float | None = None
        self.action = translated(QAction(parent), "setText", lambda: _("&Receive OTLP traces"))
        self.action.setCheckable(True)
        self.action.toggled.connect(self._toggled)
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        translated(self.label, "setAccessibleName", lambda: _("Trace receiver"))
        self.label.hide()
        #: A locked database said beside the state in one line (the status bar keeps its height), the
        #: receiver's whole sentence as its tip.
        self.warning = _LockedLabel()
        translated(self.warning, "setAccessibleName", lambda: _("Trace receiver problem"))
        self.warning.hide()
        self.received.connect(self._count, Qt.ConnectionType.QueuedConnection)
        self.problem_heard.connect(self._heard_problem, Qt.ConnectionType.QueuedConnection)
        on_language_changed(self.label, self._show)
        menu.addAction(self.action)
        parent.statusBar().addWidget(self.warning, 1)
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
                                 on_run=self.received.emit, on_problem=self.problem_heard.emit,
                                 on_refused=_log_refused)
        if self.lock_wait_s is not None:
            receiver.lock_wait_s = self.lock_wait_s
        if self.answer_wait_s is not None:
            receiver.answer_wait_s = self.answer_wait_s
        try:
            receiver.start()
        except ReceiverError as error:
            self.stop()
            self._say(translate(error.sentence))
            return
        self._receiver, self._runs, self.locked = receiver, set(), None
        self._show()

    def _count(self, received: RunReceived) -> None:
        self._runs.add(received.run_id)
        self._show()

    def _heard_problem(self, sentence: Message) -> None:
        from inspector.capture.span_writer import LOCKED

        if self._receiver is None:
            return  # said by a receiver stopped meanwhile
        status_bar = self.parent().statusBar()
        if sentence.template == LOCKED:
            self.locked = sentence
            status_bar.clearMessage()  # a message shown hides the status bar's other words
        else:  # free again: said for a while where the sentence of the lock stood
            self.locked = None
            status_bar.showMessage(translate(sentence), UNLOCKED_SHOWN_MS)
        self._show()

    def _show(self) -> None:
        self.warning.setVisible(self._receiver is not None and self.locked is not None)
        if self.locked is not None:
            self.warning.say(translate(self.locked))
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


def _log_refused(sentence: Message) -> None:
    """Spans of a request refused (said to the exporter in ``partial_success``, which it may not read), or a request
    refused whole (its exporter may show only the status):
    a line in the log file, from the request's thread."""
    from inspector.logfile import log_message

    log_message("warning", str(sentence))
