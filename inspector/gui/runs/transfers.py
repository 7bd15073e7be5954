"""The Runs tab's transfers: import a trace, export runs, delete runs, each in a worker thread with
a progress dialog, one at a time (the others wait in a queue, so writes stay in order); and trace
files dropped on the window."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QStandardPaths, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.scenarios import said_title
from inspector.store import RunStore, UnknownRunError
from inspector.store.browse import delete_runs
from inspector.store.plumbing_traces import plumbing_traces_among

from ..dialogs.transfer_dialog import TransferDialog, TransferJob, export_job, import_job, pull_job
from ..settings import open_qsettings
from ..widgets.plain_text import cell_text, visible
from ..widgets.said_line import Words
from ..widgets.save_file import save_file_name
from .plumbing_line import imported_words

#: Where the settings remember the folder of the last trace opened or exported.
FOLDER_KEY = "transfers/last_folder"


def transfer_folder() -> Path:
    """Where Open trace… and Export… start: the folder used last, else the user's documents folder
    (else home): never the folder the program happened to be started from."""
    remembered = str(open_qsettings().value(FOLDER_KEY, "") or "")
    if remembered and Path(remembered).is_dir():
        return Path(remembered)
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if documents and Path(documents).is_dir():
        return Path(documents)
    return Path.home()


def remember_transfer_folder(folder: Path) -> None:
    open_qsettings().setValue(FOLDER_KEY, str(folder))


#: How many runs the question before a delete names (the others are counted).
NAMED_IN_QUESTION = 5


class Transfers(QObject):
    """Starts and queues the transfers of the Runs tab; says what happened in signals."""

    #: A sentence for the tab's status line: :data:`Words`, said again in a new language.
    said = Signal(object)
    #: A trace was imported: the ids of its runs (those imported and those that were already there).
    imported = Signal(list)
    #: How many runs an import stored anew (those already there are not counted: they were not imported).
    stored = Signal(int)
    #: Runs were deleted.
    deleted = Signal()
    #: A transfer ended: ("import"|"export"|"delete", "ok"|"failed"|"cancelled", message).
    ended = Signal(str, str, str)

    def __init__(self, store: RunStore, db_path: Path, host: QWidget) -> None:
        super().__init__(host)
        self.store = store
        self.db_path = db_path
        self.host = host
        self.job: TransferJob | None = None
        self.dialog: TransferDialog | None = None
        #: Transfers waiting for the running one to end (one worker at a time keeps writes in order).
        self._queue: list[Callable[[], object]] = []
        self.last_error: str | None = None
        self.error_box: QMessageBox | None = None

    # -- import ---------------------------------------------------------------------------------

    def choose_trace(self) -> None:
        path, _chosen = QFileDialog.getOpenFileName(
            self.host, _("Open trace"), str(transfer_folder()), _("Traces (*.json *.jsonl *.ndjson);;Every file (*)"))
        if path:
            remember_transfer_folder(Path(path).parent)
            self.open_trace(Path(path))

    def open_trace(self, path: Path) -> TransferJob | None:
        """Import ``path`` in a worker (with a progress dialog); then its runs are selected."""
        path = Path(path)
        if self._busy(lambda: self.open_trace(path)):
            return None
        job = import_job(self.db_path, path)
        job.finished.connect(lambda report, path=path: self._imported(path, report))
        self._connect_ends(job, "import", lambda: _("The import was cancelled; nothing was imported."))
        self._start(job, lambda: _("Importing {name}…").format(name=cell_text(path.name, 80)))
        return job

    def _imported(self, path: Path, report: object) -> None:
        from inspector.transfer import ImportReport

        assert isinstance(report, ImportReport)
        self.imported.emit(self._run_ids(report))
        self.stored.emit(report.runs_imported)
        count, name = report.runs_imported, visible(path.name)
        if count:
            plumbing = self._plumbing_words(report)
            self._ended("import", "ok", _with_report_sentences(report, lambda: " ".join([ngettext(
                "Imported {count} run from {name}.", "Imported {count} runs from {name}.", count).format(
                count=format_number(count), name=name), *plumbing()])))
        elif report.notes_added:  # a note written since the export it came in before: something was added
            present = len(report.already_present)
            self._ended("import", "ok", _with_report_sentences(report, lambda: ngettext(
                "The run of {name} is here already: it is selected.",
                "The runs of {name} are here already: they are selected.", present).format(name=name)))
        else:
            present = len(report.already_present)
            self._ended("import", "ok", _with_report_sentences(report, lambda: ngettext(
                # Not "imported before": the same runs may have come in another file (the other format, a
                # later export) or been recorded here; what is true is that they are here already.
                "The run of {name} is here already (nothing was imported): it is selected.",
                "The runs of {name} are here already (nothing was imported): they are selected.", present).format(
                name=name)))

    def open_trace_by_id(self, backend: str, base: str, trace_id: str) -> TransferJob | None:
        """Open a trace of the team's Jaeger or Tempo in a worker (cached beside the database)."""
        if self._busy(lambda: self.open_trace_by_id(backend, base, trace_id)):
            return None
        job = pull_job(self.db_path, backend, base, trace_id)
        job.finished.connect(self._pulled)
        self._connect_ends(job, "import", lambda: _("Opening the trace was cancelled; nothing was imported."))
        self._start(job, lambda: _("Opening trace {id}…").format(id=cell_text(trace_id, 40)))
        return job

    def _pulled(self, pulled: object) -> None:
        report = pulled.report  # type: ignore[attr-defined]
        self.imported.emit(self._run_ids(report))
        self.stored.emit(report.runs_imported)
        count, trace_id = report.runs_imported, pulled.trace_id  # type: ignore[attr-defined]
        if count:
            plumbing = self._plumbing_words(report)
            self._ended("import", "ok", _with_report_sentences(report, lambda: " ".join([ngettext(
                "Opened trace {id}: {count} run imported.", "Opened trace {id}: {count} runs imported.", count).format(
                id=trace_id, count=format_number(count)), *plumbing()])))
        else:
            self._ended("import", "ok", _with_report_sentences(report, lambda: _(
                "Trace {id} was opened before: its runs are selected.").format(id=trace_id)))

    def _plumbing_words(self, report: object) -> Callable[[], list[str]]:
        """What an import's report says of the plumbing traces among its new runs, as the command line's ``import``
        says it (of a file or a trace by id): a sentence, said again in a new language, or none."""
        count = len(plumbing_traces_among(self.store.db.conn, report.run_ids))  # type: ignore[attr-defined]
        runs = report.runs_imported  # type: ignore[attr-defined]
        return lambda: [imported_words(count, runs)] if count else []

    def _run_ids(self, report: object) -> list[int]:
        run_ids = list(report.run_ids)  # type: ignore[attr-defined]
        for uid in report.already_present:  # type: ignore[attr-defined]
            found = self.store.find_run_by_uid(uid)
            if found is not None:
                run_ids.append(found.id)
        return run_ids

    # -- export ---------------------------------------------------------------------------------

    def choose_export(self, run_ids: Sequence[int]) -> None:
        if not run_ids:
            self.said.emit(lambda: _("There is no run to export: select runs or widen the filters."))
            return
        trace_filter, otlp_filter = _("Run Inspector trace (*.json)"), _("OTLP JSON for OpenTelemetry (*.json)")
        name = f"run-{run_ids[0]}.json" if len(run_ids) == 1 else "runs.json"
        # Both kinds are JSON: a name typed without a suffix gets .json, so Open trace… lists the file.
        path, chosen = save_file_name(self.host, _("Export runs"), str(transfer_folder() / name),
                                      f"{trace_filter};;{otlp_filter}", suffix="json")
        if path:
            remember_transfer_folder(Path(path).parent)
            self.export_runs(Path(path), "otlp" if chosen == otlp_filter else "trace", run_ids)

    def export_runs(self, destination: Path, file_format: str, run_ids: Sequence[int]) -> TransferJob | None:
        """Export ``run_ids`` to ``destination`` ("trace" or "otlp") in a worker."""
        chosen = list(run_ids)
        if self._busy(lambda: self.export_runs(destination, file_format, chosen)):
            return None
        job = export_job(self.db_path, chosen, Path(destination), file_format)
        job.finished.connect(self._exported)
        self._connect_ends(job, "export", lambda: _("The export was cancelled; no file was written."))
        self._start(job, lambda: ngettext("Exporting {count} run…", "Exporting {count} runs…", len(chosen)).format(
            count=format_number(len(chosen))))
        return job

    def _exported(self, report: object) -> None:
        from inspector.transfer import ExportReport
        from inspector.transfer.notes_words import exported_notes_sentence

        assert isinstance(report, ExportReport)
        # The notes that went with the runs, as `export` says them: a support engineer's finding reaches the reader.
        self._ended("export", "ok", lambda: " ".join(filter(None, [ngettext(
            "Exported {count} run to {path}.", "Exported {count} runs to {path}.", report.runs).format(
            count=format_number(report.runs), path=report.path), exported_notes_sentence(report)])))

    # -- delete ---------------------------------------------------------------------------------

    def confirm_delete(self, run_ids: Sequence[int]) -> TransferJob | None:
        """Delete these runs after a question that names them (the first few) and says how many."""
        if not run_ids:
            return None
        box = QMessageBox(QMessageBox.Icon.Question, _("Delete runs"), self.delete_question(run_ids),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self.host.window())
        box.setTextFormat(Qt.TextFormat.PlainText)  # run titles may come from a stranger's trace
        box.setDefaultButton(QMessageBox.StandardButton.No)
        return self.delete_runs(run_ids) if box.exec() == QMessageBox.StandardButton.Yes else None

    def delete_question(self, run_ids: Sequence[int]) -> str:
        """The question before a delete: the run by its number and title, or how many and which."""
        count = len(run_ids)
        named = [self._run_name(run_id) for run_id in run_ids[:NAMED_IN_QUESTION]]
        if count == 1:
            return _("Delete {run} and all its steps? This cannot be undone.").format(run=named[0])
        lines = [ngettext("Delete {count} run and all its steps? This cannot be undone.",
                          "Delete {count} runs and all their steps? This cannot be undone.", count).format(
            count=format_number(count)), ""]
        lines += named
        if count > len(named):
            more = count - len(named)
            lines.append(ngettext("… and {count} more run", "… and {count} more runs", more).format(
                count=format_number(more)))
        return "\n".join(lines)

    def _run_name(self, run_id: int) -> str:
        try:
            run = self.store.get_run(run_id)
        except UnknownRunError:
            return _("run {id}").format(id=run_id)
        return _("run {id} “{title}”").format(id=run_id, title=cell_text(said_title(run.title, run.source), 60))

    def delete_runs(self, run_ids: Sequence[int]) -> TransferJob | None:
        """Delete these runs in a worker (a run of 100,000 steps takes a while); no question asked."""
        chosen = list(run_ids)
        if self._busy(lambda: self.delete_runs(chosen)):
            return None
        job = TransferJob(lambda store, _progress: delete_runs(store, chosen), self.db_path)
        job.finished.connect(lambda deleted: self._deleted(len(chosen), deleted))
        self._connect_ends(job, "delete", lambda: _("Nothing was deleted."))
        self._start(job, lambda: ngettext("Deleting {count} run…", "Deleting {count} runs…", len(chosen)).format(
            count=format_number(len(chosen))))
        return job

    def _deleted(self, count: int, deleted: object) -> None:
        deleted = int(deleted) if isinstance(deleted, int) else 0
        kept = count - deleted

        def message() -> str:
            said = ngettext("Deleted {count} run.", "Deleted {count} runs.", deleted).format(
                count=format_number(deleted))
            if kept:
                said += " " + ngettext("{count} run is still running and was kept.",
                                       "{count} runs are still running and were kept.", kept).format(
                    count=format_number(kept))
            return said

        self.deleted.emit()
        self._ended("delete", "ok", message)

    # -- one job at a time ------------------------------------------------------------------------

    def _busy(self, later: Callable[[], object]) -> bool:
        """True (and ``later`` queued) while another transfer runs."""
        if self.job is not None and self.job.running:
            self._queue.append(later)
            return True
        return False

    def _connect_ends(self, job: TransferJob, kind: str, cancelled: Words) -> None:
        job.failed.connect(lambda message: self._failed(kind, message))
        job.cancelled.connect(lambda: self._ended(kind, "cancelled", cancelled))

    def _start(self, job: TransferJob, label: Words) -> None:
        self.job = job
        self.last_error = None
        self.dialog = TransferDialog(job, label(), self.host.window())
        self.said.emit(label)
        job.start()

    def _failed(self, kind: str, message: str) -> None:
        self.last_error = message
        box = QMessageBox(QMessageBox.Icon.Warning, _("Run Inspector"), visible(message), QMessageBox.StandardButton.Ok,
                          self.host.window())
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.open()
        self.error_box = box
        self._ended(kind, "failed", lambda: message)  # the worker's sentence, in the language of its time

    def _ended(self, kind: str, outcome: str, message: Words) -> None:
        # A file name in it is shown as characters: no override obeyed.
        self.said.emit(lambda: visible(message()))
        self.job = None
        self.dialog = None
        if self._queue:
            self._queue.pop(0)()
        self.ended.emit(kind, outcome, message())

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()

    def shut_down(self) -> None:
        """Cancel a transfer and wait for it briefly (it writes nothing once cancelled)."""
        self._queue.clear()
        if self.job is not None:
            self.job.cancel()
            self.job.join(5)


def _with_report_sentences(report: object, said: Words) -> Words:
    """``said`` and then the sentences the command line's import says on the notes it added to runs here
    already and on the spans it left out."""
    from inspector.transfer.left_out import left_out_sentences  # the import machinery loads when used
    from inspector.transfer.notes_words import notes_sentences

    return lambda: " ".join([said(), *notes_sentences(report), *left_out_sentences(report)])  # type: ignore[arg-type]


def dropped_files(event: QDragEnterEvent | QDropEvent) -> list[Path]:
    mime = event.mimeData()
    if mime is None or not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]


class DropFilter(QObject):
    """Accepts files dragged onto the window and imports them (after ``before``: the tab shows itself)."""

    def __init__(self, transfers: Transfers, before: Callable[[], object]) -> None:
        super().__init__(transfers)
        self.transfers = transfers
        self.before = before

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and dropped_files(event):
            event.acceptProposedAction()
            return True
        if event.type() == QEvent.Type.Drop:
            files = dropped_files(event)
            if files:
                event.acceptProposedAction()
                self.before()
                for path in files:
                    self.transfers.open_trace(path)
                return True
        return False


__all__ = ["DropFilter", "Transfers", "dropped_files"]
