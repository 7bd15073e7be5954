"""Importing and exporting traces without blocking the window: a worker thread and a progress dialog.

A :class:`TransferJob` runs :func:`inspector.transfer.import_trace` or
:func:`inspector.transfer.export` on a thread of its own with its own database connection; its
progress callback raises to cancel, and both functions then write nothing. Results come back to
the GUI thread through queued signals; the GUI thread never waits on the job.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QProgressDialog, QWidget

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.store import RunStore, StoreError, UnknownRunError

from ..language import translated

#: The progress bar's resolution.
STEPS = 1000


class TransferCancelled(Exception):
    """Raised from the progress callback when the user cancelled."""


class TransferJob(QObject):
    """One import or export on a worker thread. Emits exactly one of finished, failed, cancelled."""

    progress = Signal(int)  # of STEPS
    finished = Signal(object)  # the ImportReport or ExportReport
    failed = Signal(str)  # one sentence for the user
    cancelled = Signal()

    def __init__(self, work: Callable[[RunStore, Callable[[int, int], None]], Any], db_path: Path) -> None:
        super().__init__()
        self._work = work
        self._db_path = db_path
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self.result: Any = None
        self.error: str | None = None
        self.was_cancelled = False
        #: Set when the job has ended (whichever way): tests and shut-down may wait on it.
        self.ended = threading.Event()

    @property
    def running(self) -> bool:
        return self._thread is not None and not self.ended.is_set()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="run-inspector-transfer", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        """Ask the job to stop; it does at its next progress report and then writes nothing."""
        self._cancel.set()

    def join(self, timeout: float | None = None) -> bool:
        return self.ended.wait(timeout)

    def _progress(self, done: int, total: int) -> None:
        if self._cancel.is_set():
            raise TransferCancelled
        self.progress.emit(int(STEPS * done / total) if total else STEPS)

    def _run(self) -> None:
        # The trace readers and writers load on the worker, the first time a transfer runs: the
        # window's start does not wait for them.
        from inspector.traces.format import TraceError  # import and export errors, and a trace pulled by id

        store = None
        try:
            store = RunStore.open(self._db_path)
            if self._cancel.is_set():
                raise TransferCancelled
            self.result = self._work(store, self._progress)
        except TransferCancelled:
            self.was_cancelled = True
        except (TraceError, UnknownRunError, StoreError) as exc:
            self.error = translate(exc)  # the sentence in the current language (its English is str(exc))
        except Exception as exc:  # noqa: BLE001 - the window must hear of every end
            self.error = _("The transfer stopped on an internal error: {error}").format(error=type(exc).__name__)
        finally:
            if store is not None:
                store.close()
        self.ended.set()
        if self.was_cancelled:
            self.cancelled.emit()
        elif self.error is not None:
            self.failed.emit(self.error)
        else:
            self.finished.emit(self.result)


def import_job(db_path: Path, source: Path) -> TransferJob:
    """A job importing the trace file ``source``."""

    def work(store: RunStore, progress: Callable[[int, int], None]) -> Any:
        from inspector.transfer import import_trace

        return import_trace(store, source, progress)

    return TransferJob(work, db_path)


def pull_job(db_path: Path, backend: str, base: str, trace_id: str) -> TransferJob:
    """A job opening the trace ``trace_id`` of a Jaeger or Tempo query service (kept beside the database)."""

    def work(store: RunStore, progress: Callable[[int, int], None]) -> Any:
        from inspector.capture.pull import CACHE_FOLDER, pull_trace

        return pull_trace(store, backend, base, trace_id, db_path.parent / CACHE_FOLDER, progress=progress)

    return TransferJob(work, db_path)


def export_job(db_path: Path, run_ids: Sequence[int], destination: Path, file_format: str) -> TransferJob:
    """A job exporting ``run_ids`` to ``destination`` as ``file_format`` (``trace`` or ``otlp``)."""
    ids = list(run_ids)

    def work(store: RunStore, progress: Callable[[int, int], None]) -> Any:
        from inspector.transfer import export

        return export(store, ids, None, destination, file_format, progress)

    return TransferJob(work, db_path)


class TransferDialog(QProgressDialog):
    """The progress of a job, with Cancel; closes itself when the job ends."""

    def __init__(self, job: TransferJob, label: str, parent: QWidget | None = None) -> None:
        super().__init__("", _("Cancel"), 0, STEPS, parent)
        # The label names a file, and a file name is a stranger's text: Qt's own label would render
        # "<h1>…" as a headline, so the dialog gets a label that shows plain text only.
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.setLabel(self.label)
        self.setLabelText(label)
        translated(self, "setWindowTitle", lambda: _("Run Inspector"))
        # Not modal: runs can be read while a trace is imported (another import waits its turn).
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.setMinimumDuration(300)  # a quick transfer does not flash a dialog
        self.setAutoClose(False)
        self.setAutoReset(False)
        self.setAccessibleName(label)
        self.job = job
        job.progress.connect(self.setValue, Qt.ConnectionType.QueuedConnection)
        for signal in (job.finished, job.failed, job.cancelled):
            signal.connect(self._ended, Qt.ConnectionType.QueuedConnection)
        self.canceled.connect(self._cancel)

    def _cancel(self) -> None:
        self.setLabelText(_("Cancelling…"))
        self.job.cancel()

    def _ended(self, *args: object) -> None:
        self.canceled.disconnect(self._cancel)
        self.close()
        self.deleteLater()


__all__ = ["TransferCancelled", "TransferDialog", "TransferJob", "export_job", "import_job"]
