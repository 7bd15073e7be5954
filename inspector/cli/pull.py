"""``import --from-jaeger URL --trace ID`` and ``--from-tempo``: a trace by id, through the OTLP import.

The trace is kept in ``pulled-traces/`` beside the run database: opening the same id again reads
that file instead of asking the service.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from inspector.capture.pull import CACHE_FOLDER, PulledTrace, PullError, pull_trace
from inspector.i18n import N_, _, ngettext
from inspector.i18n.messages import Message
from inspector.store import StoreError
from inspector.store.plumbing_traces import plumbing_traces_among

from .common import EXIT_OK, BadInputError, CancelledCommand, CommandError, UsageError, database_path, open_store
from .ending import emit_json
from .plumbing_hidden import imported_line
from .push import collector_headers
from .stopping import Terminated, stoppable_until_stored
from .traces import forget_database


def pull(args: argparse.Namespace) -> int:
    if args.file is not None:
        raise UsageError(Message(N_("give FILE or --from-jaeger / --from-tempo, not both")))
    if not args.trace:
        raise UsageError(Message(N_("--from-jaeger and --from-tempo need --trace ID (the trace id to open)")))
    backend, base = ("jaeger", args.from_jaeger) if args.from_jaeger is not None else ("tempo", args.from_tempo)
    headers = collector_headers(args.header)
    db = database_path(args.db)
    made = not db.exists()
    cache = db.parent / CACHE_FOLDER
    refused: BadInputError | CancelledCommand | None = None
    with open_store(args.db) as store:
        try:
            with stoppable_until_stored(store):
                pulled = pull_trace(store, backend, base, args.trace, cache, headers)
        except KeyboardInterrupt as stop:  # the answer read so far is dropped; the import is rolled back
            refused = CancelledCommand(Message(
                N_("Ended by a signal (SIGTERM) before the trace was opened: nothing was imported.")
                if isinstance(stop, Terminated) else
                N_("Cancelled (Ctrl-C) before the trace was opened: nothing was imported.")))
        except PullError as error:
            refused = BadInputError(error)
        except StoreError as error:
            raise CommandError(error) from None
        if refused is not None:
            unused = made and not store.list_runs(limit=1)
        else:
            report = pulled.report
            run_ids = list(report.run_ids) or [run.id for uid in report.already_present
                                               if (run := store.find_run_by_uid(uid)) is not None]
            plumbing = len(plumbing_traces_among(store.db.conn, report.run_ids))  # as a file's import counts them
    if refused is not None:
        if unused:  # as a file's import: a pull that imported nothing leaves no database it made
            forget_database(db, [])
            _remove_if_empty(cache)
        raise refused from None
    _say_pulled(args, backend, pulled, run_ids, plumbing)
    return EXIT_OK


def _say_pulled(args: argparse.Namespace, backend: str, pulled: PulledTrace, run_ids: list[int],
                plumbing: int) -> None:
    """What opening a trace by id stored: its runs (``run_ids``, new or here already; ``plumbing``: how many of the
    new ones are plumbing traces)."""
    report = pulled.report
    if args.json:
        emit_json({"trace_id": pulled.trace_id, "backend": backend, "cached": pulled.cached,
                   "file": str(pulled.path), "run_ids": run_ids, "runs_imported": report.runs_imported,
                   "steps": report.steps_imported, "runs_already_present": report.runs_already_present,
                   "plumbing_traces": plumbing})
        return
    said = ngettext("Opened trace {id}: {count} run imported.", "Opened trace {id}: {count} runs imported.",
                    report.runs_imported).format(id=pulled.trace_id, count=report.runs_imported)
    if report.runs_already_present:
        said += " " + ngettext("{count} run was already here.", "{count} runs were already here.",
                               report.runs_already_present).format(count=report.runs_already_present)
    if pulled.cached:
        said += " " + _("(read from the copy kept earlier; the service was not asked again)")
    if run_ids:
        said += " " + _("Runs: {ids}.").format(ids=", ".join(map(str, run_ids)))
    if plumbing:
        said += " " + imported_line(plumbing, report.runs_imported)
    print(said)


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()  # only when empty: a trace kept there whole is read by the next pull
    except OSError:
        pass
