"""``export`` and ``import``: runs to and from trace files."""

from __future__ import annotations

import argparse
import json
import sys
import time

from inspector.store import StoreError, UnknownRunError
from inspector.transfer import TraceDestinationError, TraceExportError, TraceImportError, export, import_trace

from .common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError, open_store


def run(args: argparse.Namespace) -> int:
    if args.command == "export" and not args.run_ids and not args.all:
        raise UsageError("export needs RUN_ID ... or --all")
    if args.command == "export" and args.run_ids and args.all:
        raise UsageError("give RUN_ID ... or --all, not both")
    with open_store(args.db) as store:
        try:
            if args.command == "export":
                report = export(store, None if args.all else args.run_ids, args.outcome, args.output,
                                args.format, progress=_progress_line())
                summary = {"file": str(report.path), "format": report.file_format, "runs": report.runs,
                           "steps": report.steps}
                text = f"Exported {report.runs} run(s) with {report.steps} step(s) to {report.path}."
            else:
                imported = import_trace(store, args.file, progress=_progress_line())
                summary = {"file": args.file, "format": imported.file_format, **_run_ids(imported.run_ids),
                           "steps": imported.steps_imported, "already_present": list(imported.already_present),
                           "runs_already_present": imported.runs_already_present}
                text = (f"Imported {imported.runs_imported} run(s) with {imported.steps_imported} step(s) "
                        f"from {args.file}")
                if imported.run_ids:
                    text += f" as {_runs_named(imported.run_ids)}"
                if imported.runs_already_present:
                    text += (f"; {imported.runs_already_present} run(s) were already here and were not "
                             "imported again")
                text += "."
        except (TraceImportError, TraceDestinationError) as exc:
            _clear_progress()
            print(f"run-inspector: {exc}", file=sys.stderr)
            return EXIT_USAGE  # bad input, like a bad argument: nothing was changed
        except (StoreError, UnknownRunError, TraceExportError) as exc:
            _clear_progress()
            print(f"run-inspector: {exc}", file=sys.stderr)
            return EXIT_FAILED
    _clear_progress()
    print(json.dumps(summary, ensure_ascii=False) if args.json else text)
    return EXIT_OK


LISTED_IDS = 1000
"""Beyond this many new runs, `import` names the first and last id rather than every one."""


def _run_ids(run_ids) -> dict:  # type: ignore[no-untyped-def]
    """The new runs' ids for --json: all of them, or (for very many) the first and the last."""
    if len(run_ids) <= LISTED_IDS:
        return {"run_ids": list(run_ids), "runs_imported": len(run_ids)}
    return {"run_id_range": [run_ids[0], run_ids[-1]], "runs_imported": len(run_ids)}


def _runs_named(run_ids) -> str:  # type: ignore[no-untyped-def]
    if len(run_ids) == 1:
        return f"run {run_ids[0]}"
    if len(run_ids) <= 10:
        return f"runs {', '.join(map(str, run_ids))}"
    consecutive = isinstance(run_ids, range) and run_ids.step == 1
    return f"runs {run_ids[0]} {'to' if consecutive else '…'} {run_ids[-1]}"


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
