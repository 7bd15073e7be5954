"""Exporting runs from the run store to a trace file (our format or OTLP JSON).

Steps are read page by page (never a whole run at once) and handed to the writers of
:mod:`inspector.traces.writer`, which redact, stream and rename into place only when complete.
Server health and server settings are never exported.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.i18n.os_reasons import os_reason
from inspector.store import RunRecord, RunStore, StoredStep, UnknownRunError
from inspector.store.notes import noted_steps
from inspector.traces.format import TraceError
from inspector.traces.progress import PROGRESS_INTERVAL_S, ProgressMeter
from inspector.traces.writer import FORMATS, existing_mode, is_part_of, replacing, write_otlp, write_trace, written_at

__all__ = ["FORMATS", "ExportReport", "Progress", "TraceDestinationError", "TraceExportError", "export"]

Progress = Callable[[int, int], None]
"""``progress(done_steps, total_steps)``; it may raise to cancel (nothing is left behind)."""


class TraceExportError(TraceError):
    """The trace could not be written; the destination was left as it was."""


class TraceDestinationError(TraceExportError):
    """The destination cannot take a trace (a device, a pipe, a socket, a folder): bad input."""


@dataclass(frozen=True)
class ExportReport:
    """What an export wrote."""

    path: Path
    file_format: str
    runs: int
    steps: int
    #: The notes of the runs and of their steps that went into the file (a support engineer's findings).
    notes: int = 0


def export(store: RunStore, run_ids: Sequence[int] | None, outcome: str | None,
           destination: str | os.PathLike[str], format: str = "trace",
           progress: Progress | None = None, placing: Callable[[], None] | None = None) -> ExportReport:
    """Write runs and their steps (legs included) to ``destination`` (``placing``: see :func:`replacing`).

    ``run_ids`` selects runs (``None``: all of them); ``outcome`` keeps only runs with that
    status. ``format`` is ``"trace"`` (see docs/trace-format.md) or ``"otlp"`` (OTLP JSON).
    Raises :class:`UnknownRunError` for a run id that does not exist, and
    :class:`TraceExportError` when the file cannot be written.
    """
    if format not in FORMATS:
        raise ValueError(f"unknown export format {format!r}; use one of {list(FORMATS)}")
    target = Path(destination)
    place = written_at(target)  # a link's file (the link stays)
    try:
        existing_mode(place)  # checked again when writing; this is to refuse before any work
    except OSError as error:
        raise TraceDestinationError(Message(N_("The trace cannot be written to {path} ({reason}). Choose a file "
                                               "name; nothing was written there."),
                                            {"path": target, "reason": os_reason(error)})) from None
    with _snapshot(store):
        runs = _selected_runs(store, run_ids, outcome)
        notes = sum(1 for run in runs if run.note) + noted_steps(store, [run.id for run in runs])
        meter = ProgressMeter(progress, sum(store.count_steps(run.id) for run in runs), PROGRESS_INTERVAL_S)
        write = write_trace if format == "trace" else write_otlp
        try:
            with replacing(place, placing) as out:
                steps = write(out, lambda run: _readable(store.iter_steps(run.id)), runs, meter)
                meter.done()  # before the rename: a callback that cancels now still leaves nothing
        except OSError as error:
            if is_part_of(place, error.filename):
                # The file is written beside the target first: its folder would not take one
                # (/proc/version is there, but /proc makes no new files: "no such file" misled).
                if isinstance(error, FileNotFoundError) and place.parent.is_dir():
                    raise TraceExportError(Message(N_(
                        "The trace could not be written to {path}: its folder {folder} is there but takes no new "
                        "files (the trace is written beside the file first, then put in its place). Choose another "
                        "place; nothing was written there."), {"path": target, "folder": place.parent})) from None
                raise TraceExportError(Message(N_(
                    "The trace could not be written to {path}: no new file can be made in its folder {folder} "
                    "({reason}). Choose another place; nothing was written there."),
                    {"path": target, "folder": place.parent, "reason": os_reason(error)})) from None
            raise TraceExportError(Message(N_("The trace could not be written to {path} ({reason}). Choose another "
                                              "place; nothing was written there."),
                                           {"path": target, "reason": os_reason(error)})) from None
    return ExportReport(target, format, len(runs), steps, notes)


def _readable(steps: Iterator[StoredStep]) -> Iterator[StoredStep]:
    """The steps, refusing a damaged one: a trace must not pass a placeholder off as the step."""
    for stored in steps:
        if stored.damage:
            raise TraceExportError(Message(N_("{damage}. Export the other runs by id; nothing was written."),
                                           {"damage": stored.damage_sentence or stored.damage}))
        yield stored


def _selected_runs(store: RunStore, run_ids: Sequence[int] | None, outcome: str | None) -> list[RunRecord]:
    if run_ids is not None:
        run_ids = list(dict.fromkeys(run_ids))
        found = {run.id for run in store.list_runs(run_ids=run_ids, limit=None)}
        missing = [run_id for run_id in run_ids if run_id not in found]
        if missing:
            raise UnknownRunError(Message(N_("There is no run {id}; nothing was exported."), {"id": missing[0]}))
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
