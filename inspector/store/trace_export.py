"""Exporting runs to a file: our trace format or OTLP JSON, redacted, streamed, all or nothing.

Steps are read page by page (never a whole run at once) and written as they come. The file is
written next to the destination under a temporary name and renamed into place only when
complete, so a failed export never leaves a partial file where the user expects a trace.
Server health and server settings are never exported; every string goes through
:func:`inspector.store.redact.redact` first.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import IO

from . import otlp
from .errors import StoreError, UnknownRunError
from .progress_meter import PROGRESS_INTERVAL_S, ProgressMeter
from .redact import redact, redact_text
from .run_store import RunRecord, RunStore
from .trace_format import FORMAT_NAME, FORMAT_VERSION, dump_json, format_time

__all__ = ["FORMATS", "ExportReport", "Progress", "TraceExportError", "export"]

FORMATS = ("trace", "otlp")

Progress = Callable[[int, int], None]
"""``progress(done_steps, total_steps)``; it may raise to cancel (nothing is left behind)."""


class TraceExportError(StoreError):
    """The trace could not be written; the destination was left as it was."""


@dataclass(frozen=True)
class ExportReport:
    """What an export wrote."""

    path: Path
    file_format: str
    runs: int
    steps: int


def export(store: RunStore, run_ids: Sequence[int] | None, outcome: str | None,
           destination: str | os.PathLike[str], format: str = "trace",
           progress: Progress | None = None) -> ExportReport:
    """Write runs and their steps (legs included) to ``destination``.

    ``run_ids`` selects runs (``None``: all of them); ``outcome`` keeps only runs with that
    status. ``format`` is ``"trace"`` (see docs/trace-format.md) or ``"otlp"`` (OTLP JSON).
    Raises :class:`UnknownRunError` for a run id that does not exist, and
    :class:`TraceExportError` when the file cannot be written.
    """
    if format not in FORMATS:
        raise ValueError(f"unknown export format {format!r}; use one of {list(FORMATS)}")
    target = Path(destination)
    with _snapshot(store):
        runs = _selected_runs(store, run_ids, outcome)
        meter = ProgressMeter(progress, sum(store.count_steps(run.id) for run in runs), PROGRESS_INTERVAL_S)
        write = _write_trace if format == "trace" else _write_otlp
        try:
            with _replacing(target) as out:
                steps = write(out, store, runs, meter)
                meter.done()  # before the rename: a callback that cancels now still leaves nothing
        except OSError as error:
            raise TraceExportError(f"The trace could not be written to {target} ({error.strerror or error}). "
                                   "Choose another place; nothing was written there.") from None
    return ExportReport(target, format, len(runs), steps)


def _selected_runs(store: RunStore, run_ids: Sequence[int] | None, outcome: str | None) -> list[RunRecord]:
    if run_ids is not None:
        run_ids = list(dict.fromkeys(run_ids))
        found = {run.id for run in store.list_runs(run_ids=run_ids, limit=None)}
        missing = [run_id for run_id in run_ids if run_id not in found]
        if missing:
            raise UnknownRunError(f"There is no run {missing[0]}; nothing was exported.")
    # Oldest first: a trace reads in the order things happened.
    return list(reversed(store.list_runs(outcome=outcome, run_ids=run_ids, limit=None)))


@contextmanager
def _snapshot(store: RunStore) -> Iterator[None]:
    """Read everything in one read transaction, so runs written meanwhile cannot tear the file."""
    conn = store.db.conn
    if conn.in_transaction:  # the caller's transaction already is a snapshot
        yield
        return
    conn.execute("BEGIN")  # deferred: in WAL mode a reader never blocks the writers
    try:
        yield
    finally:
        conn.execute("ROLLBACK")  # nothing was written; ending the read is all that is left


@contextmanager
def _replacing(target: Path) -> Iterator[IO[str]]:
    """A text file that becomes ``target`` only if the block completes."""
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent or ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass  # already gone; the error that matters is the one being raised
        raise


def _run_fields(run: RunRecord) -> dict[str, object]:
    return {"uid": run.uid, "title": redact_text(run.title), "source": run.source,
            "server": redact_text(run.server) if run.server is not None else None, "status": run.status,
            "started_at": format_time(run.started_at), "finished_at": format_time(run.finished_at)}


def _write_trace(out: IO[str], store: RunStore, runs: list[RunRecord], meter: ProgressMeter) -> int:
    exported_at = format_time(datetime.now(timezone.utc))
    out.write(f'{{"format": "{FORMAT_NAME}", "version": {FORMAT_VERSION}, "exported_at": "{exported_at}",\n'
              ' "runs": [')
    count = 0
    for index, run in enumerate(runs):
        fields = dump_json(_run_fields(run))
        out.write(f'{"," if index else ""}\n  {fields[:-1]}, "steps": [')
        for position, stored in enumerate(store.iter_steps(run.id)):
            record = {"sequence": stored.sequence, "started_at": format_time(stored.started_at),
                      "payload": redact(stored.payload)}
            out.write(f'{"," if position else ""}\n    {dump_json(record)}')
            count += 1
            meter.advance()
        out.write("\n  ]}")
    out.write("\n]}\n")
    return count


def _write_otlp(out: IO[str], store: RunStore, runs: list[RunRecord], meter: ProgressMeter) -> int:
    scope = {"name": otlp.SCOPE_NAME, "version": str(FORMAT_VERSION)}
    out.write(f'{{"resourceSpans": [{{"resource": {dump_json(otlp.resource())}, '
              f'"scopeSpans": [{{"scope": {dump_json(scope)}, "spans": [')
    separator, count = "\n", 0
    for run in runs:
        fields = _run_fields(run)
        out.write(separator + dump_json(otlp.run_span(
            run.uid, fields["title"], run.source, fields["server"], run.status, run.started_at, run.finished_at)))
        separator = ",\n"
        for stored in store.iter_steps(run.id):
            for span in otlp.step_spans(run.uid, stored.sequence, stored.started_at, run.started_at,
                                        redact(stored.payload), stored.outcome):
                out.write(separator + dump_json(span))
            count += 1
            meter.advance()
    out.write("\n]}]}]}\n")
    return count
