"""``export`` and ``import``: runs to and from trace files."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from inspector.i18n import N_, _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import Message
from inspector.i18n.words import outcome_word
from inspector.store import RunStore, StoreError, UnknownRunError
from inspector.store.plumbing_traces import plumbing_traces_among
from inspector.store.shown_first import telling_runs
from inspector.transfer import (
    ExportReport,
    ImportReport,
    TraceDestinationError,
    TraceExportError,
    TraceImportError,
    export,
    import_trace,
)
from inspector.transfer.left_out import left_out_sentences
from inspector.transfer.notes_words import exported_notes_sentence, notes_sentences

from .common import (
    EXIT_OK,
    BadInputError,
    CancelledCommand,
    CommandError,
    UsageError,
    database_path,
    open_existing_store,
    open_store,
)
from .ending import emit_json
from .export_target import keep_existing
from .plumbing_hidden import imported_line
from .run_choice import resolve_run
from .safe_text import one_line
from .stopping import Terminated, stoppable_until_stored, work_done


def run(args: argparse.Namespace) -> int:
    if args.command == "export":
        if args.otlp_endpoint is not None:
            from .push import push

            return push(args)
        if args.output is None and not args.run_ids and not args.all and args.outcome is None:
            # Both said at once: `export` alone was refused for -o, then, given it, for the runs.
            raise UsageError(Message(N_("export needs the runs to write (RUN ..., --outcome STATUS or --all) and "
                                        "where to: -o FILE or --otlp-endpoint URL; e.g. export last -o runs.json")))
        if args.output is None:
            raise UsageError(Message(N_("export needs -o FILE (the file to write) or --otlp-endpoint URL (a "
                                        "collector to send the runs to)")))
        if args.output == "-":  # not standard output, as elsewhere: a file named "-" was written
            raise UsageError(Message(N_("export writes a file, not standard output: give -o a file name "
                                        "(e.g. -o runs.json)")))
        return _export(args)
    if args.from_jaeger is not None or args.from_tempo is not None:
        from .pull import pull

        return pull(args)
    if args.file is None:
        raise UsageError(Message(N_("import needs FILE, or --from-jaeger URL / --from-tempo URL with --trace ID")))
    if args.trace is not None:
        raise UsageError(Message(N_("--trace goes with --from-jaeger or --from-tempo, not with a file")))
    return _import(args)


def _export(args: argparse.Namespace) -> int:
    # A filter alone selects: `--outcome cancelled` exports every cancelled run.
    if not args.run_ids and not args.all and args.outcome is None:
        raise UsageError(Message(N_("export needs RUN ..., --outcome STATUS or --all to say which runs to write")))
    if args.run_ids and args.all:
        raise UsageError(Message(N_("give RUN ... or --all, not both")))
    store = open_existing_store(args.db)  # reading never creates a database
    if store is None:
        raise BadInputError(Message(N_("There are no runs to export: the run database {path} does not exist yet."),
                                    {"path": database_path(args.db)}))
    with store:
        run_ids = [resolve_run(store, given).id for given in args.run_ids]  # `last`, a uid's beginning
        keep_existing(store, args.output, args.force)  # the customer's trace, imported, may be that file
        try:
            with stoppable_until_stored():
                report = export(store, run_ids or None, args.outcome, args.output, args.format,
                                progress=_progress_line(), placing=work_done)
        except KeyboardInterrupt as stop:  # the file being written is removed; one there before is as it was
            _clear_progress()
            if isinstance(stop, Terminated):
                said = N_("Ended by a signal (SIGTERM) before the export was done: nothing was written to {path}.")
            else:
                said = N_("Cancelled (Ctrl-C) before the export was done: nothing was written to {path}.")
            raise CancelledCommand(Message(said, {"path": args.output})) from None
        except UnknownRunError as exc:
            _clear_progress()
            raise BadInputError(Message(N_("{reason} `runs list` shows the runs that are stored."),
                                        {"reason": getattr(exc, "sentence", None) or str(exc)})) from None
        except TraceDestinationError as exc:
            _clear_progress()
            raise BadInputError(exc) from None
        except (StoreError, TraceExportError) as exc:
            _clear_progress()
            raise CommandError(exc) from None
    _clear_progress()
    _say_exported(args, report, bool(run_ids))
    return EXIT_OK


def _say_exported(args: argparse.Namespace, report: ExportReport, named: bool) -> None:
    """What ``export`` wrote (``named``: the runs were named, not chosen by a filter)."""
    if args.json:
        emit_json({"file": str(report.path), "format": report.file_format, "runs": report.runs,
                   "steps": report.steps, "notes": report.notes})
    elif not report.runs and args.outcome and not named:
        # A filter matching nothing says so (the file is still written: a nightly export of none is one).
        print(_("No stored run has the status {status}: {path} holds no runs. `runs list` shows the runs that "
                "are stored.").format(status=outcome_word(args.outcome), path=report.path))
    else:
        print(ngettext("Exported {count} run to {path}.", "Exported {count} runs to {path}.", report.runs).format(
            count=format_number(report.runs), path=report.path))
        print(ngettext("The file holds {count} step.", "The file holds {count} steps.", report.steps).format(
            count=format_number(report.steps)))
        if report.notes:
            print(exported_notes_sentence(report))


def _import(args: argparse.Namespace) -> int:
    db = database_path(args.db)
    made = _missing_folders(db) if not db.exists() else None  # None: the database was there before
    refused: BadInputError | CancelledCommand | None = None
    unused = False  # a database this import made and left empty
    with open_store(args.db) as store:
        try:
            with stoppable_until_stored(store):
                imported = import_trace(store, args.file, progress=_progress_line())
            present = _present_text(store, imported.already_present, imported.runs_already_present)
            telling = _telling_run(store, imported.run_ids)
            plumbing = len(plumbing_traces_among(store.db.conn, imported.run_ids))
        except KeyboardInterrupt as stop:  # the import's one transaction is rolled back
            _clear_progress()
            refused = CancelledCommand(Message(
                N_("Ended by a signal (SIGTERM) before the import was done: nothing was imported.")
                if isinstance(stop, Terminated) else
                N_("Cancelled (Ctrl-C) before the import was done: nothing was imported.")))
            unused = made is not None and not store.list_runs(limit=1)
        except TraceImportError as exc:
            _clear_progress()
            refused = BadInputError(exc)  # bad input, like a bad argument: nothing was changed
            unused = made is not None and not store.list_runs(limit=1)
        except StoreError as exc:
            _clear_progress()
            raise CommandError(exc) from None
    if refused is not None:
        if unused:
            forget_database(db, made or [])  # a refused (or cancelled) file leaves no database behind either
        raise refused from None
    _clear_progress()
    _say_imported(args, imported, present, telling, plumbing)
    return EXIT_OK


def _say_imported(args: argparse.Namespace, imported: ImportReport, present: str,
                  telling: tuple[str, list[int]] | None, plumbing: int) -> None:
    """What ``import`` of a file stored: its runs (``present``: the numbers of those here already, ``telling``: those
    to look at first, ``plumbing``: how many plumbing traces among the new ones)."""
    if args.json:
        emit_json({"file": args.file, "format": imported.file_format, **_run_ids(imported.run_ids),
                   "steps": imported.steps_imported, "already_present": list(imported.already_present),
                   "runs_already_present": imported.runs_already_present,
                   "joined": list(imported.joined_uids), "spans_repeated": imported.spans_repeated,
                   "spans_clashing": imported.spans_clashing, "notes_added": imported.notes_added,
                   "notes_kept": imported.notes_kept, "notes_without_step": imported.notes_stepless,
                   "plumbing_traces": plumbing})
        return
    runs, steps = imported.runs_imported, imported.steps_imported
    if not runs and present and not imported.joined_uids:  # the same file again: which runs it is
        # Not "imported before": the runs may have come in another file or been recorded here.
        if imported.notes_added:  # something was: a note written since the last export
            here = ngettext("The run of {path} is here already: run {ids}.",
                            "The runs of {path} are here already: runs {ids}.", imported.runs_already_present)
        else:
            here = ngettext("The run of {path} is here already (nothing was imported): run {ids}.",
                            "The runs of {path} are here already (nothing was imported): runs {ids}.",
                            imported.runs_already_present)
        print(" ".join([here.format(path=one_line(args.file), ids=present), *notes_sentences(imported),
                        *left_out_sentences(imported)]))
        return
    lines = [ngettext("Imported {count} run from {path}.", "Imported {count} runs from {path}.", runs).format(
        count=format_number(runs), path=one_line(args.file))]
    if imported.run_ids:
        lines.append(_stored_as(imported.run_ids))
    lines.append(ngettext("{count} step was added.", "{count} steps were added.", steps).format(
        count=format_number(steps)))
    if plumbing:
        lines.append(imported_line(plumbing, runs))
    if telling is not None:
        lines.append(_telling_sentence(*telling))
    if present:
        count = imported.runs_already_present
        lines.append(ngettext("{count} run was already here and was not imported again: run {ids}.",
                              "{count} runs were already here and were not imported again: runs {ids}.",
                              count).format(count=format_number(count), ids=present))
    elif imported.runs_already_present:
        count = imported.runs_already_present
        lines.append(ngettext("{count} run was already here and was not imported again.",
                              "{count} runs were already here and were not imported again.", count).format(
            count=format_number(count)))
    if imported.joined_uids:
        count = len(imported.joined_uids)
        lines.append(ngettext("Spans of another tool (a server's) joined {count} run of ours in their trace.",
                              "Spans of another tool (a server's) joined {count} runs of ours in their trace.",
                              count).format(count=format_number(count)))
    print(" ".join([*lines, *notes_sentences(imported), *left_out_sentences(imported)]))


def _missing_folders(db: Path) -> list[Path]:
    """The folders above ``db`` that do not exist yet (opening the database makes them), nearest last."""
    missing = []
    for folder in db.parents:
        if folder.exists():
            break
        missing.insert(0, folder)
    return missing


def forget_database(db: Path, made: list[Path]) -> None:
    """Remove the empty database an import made for a file it then refused, and the folders made for it."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    for folder in reversed(made):
        try:
            folder.rmdir()  # only when empty
        except OSError:
            break


LISTED_IDS = 1000
"""Beyond this many new runs, `import` names the first and last id rather than every one."""


def _run_ids(run_ids) -> dict:  # type: ignore[no-untyped-def]
    """The new runs' ids for --json: all of them, or (for very many) the first and the last."""
    if len(run_ids) <= LISTED_IDS:
        return {"run_ids": list(run_ids), "runs_imported": len(run_ids)}
    return {"run_id_range": [run_ids[0], run_ids[-1]], "runs_imported": len(run_ids)}


def _present_text(store: RunStore, uids: Sequence[str], count: int) -> str:
    """The numbers of the ``count`` runs of a file that were here before the import ("6", "7, 8, 9"; of
    more than ten, the lowest and the highest: "1 … 400", not the file's first and last, which need not
    be: runs that came here in another file first are numbered before the rest); "" where the report kept
    not every uid (a file of more than a thousand runs) or a run is not found. ``uids`` are the ones the
    import report kept."""
    if count != len(uids) or not uids:
        return ""
    found = [run.id for run in map(store.find_run_by_uid, uids) if run is not None]
    if len(found) != len(uids):
        return ""
    return ", ".join(map(str, found)) if len(uids) <= 10 else f"{min(found)} … {max(found)}"


def _telling_run(store: RunStore, run_ids: Sequence[int]) -> tuple[str, list[int]] | None:
    """Of the runs a file brought (more than one), those the window would show first: the failed ones, else
    the cancelled or the interrupted ones (:func:`telling_runs`); ``None`` when there is one run (its number
    is said already) or all of them are ok."""
    return telling_runs(store, run_ids) if len(run_ids) > 1 else None


def _telling_sentence(status: str, run_ids: list[int]) -> str:
    """Where to look first among the runs of a file ("2 of the runs failed, the first run 22: ..."): a customer's
    trace holds the run that went wrong beside runs that say little (a notification's trace, a listing)."""
    count = len(run_ids)
    if status == "failed":
        said = ngettext("Run {id} failed: `run-inspector runs show {id}` lists its steps.",
                        "{count} of the runs failed, the first run {id}: `run-inspector runs show {id}` lists its "
                        "steps.", count)
    elif status == "cancelled":
        said = ngettext("Run {id} was cancelled: `run-inspector runs show {id}` lists its steps.",
                        "{count} of the runs were cancelled, the first run {id}: `run-inspector runs show {id}` "
                        "lists its steps.", count)
    else:
        said = ngettext("Run {id} was interrupted: `run-inspector runs show {id}` lists its steps.",
                        "{count} of the runs were interrupted, the first run {id}: `run-inspector runs show {id}` "
                        "lists its steps.", count)
    return said.format(count=format_number(count), id=run_ids[0])


def _stored_as(run_ids) -> str:  # type: ignore[no-untyped-def]
    """Where the new runs went, in one sentence; very many are named by their first and last id."""
    if len(run_ids) == 1:
        return _("It is stored as run {id}.").format(id=run_ids[0])
    if len(run_ids) <= 10:
        return _("They are stored as runs {ids}.").format(ids=", ".join(map(str, run_ids)))
    if isinstance(run_ids, range) and run_ids.step == 1:
        return _("They are stored as runs {first} to {last}.").format(first=run_ids[0], last=run_ids[-1])
    return _("They are stored as runs {first} … {last}.").format(first=run_ids[0], last=run_ids[-1])


def _progress_line():  # type: ignore[no-untyped-def]
    """A percentage on the terminal for long imports and exports; nothing when not a terminal."""
    if not sys.stderr.isatty():
        return None
    last = [0.0]

    def show(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < 0.1 or not total:
            return
        last[0] = now
        sys.stderr.write(f"\r{min(100, done * 100 // total):3d} %")
        sys.stderr.flush()

    return show


def _clear_progress() -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r     \r")
