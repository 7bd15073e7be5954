"""The two lines above a comparison, one per run: which of the two it is, its id, title, status (with why it
failed, where known), steps and start. The window's Compare and ``compare`` say them with these same words
and this rounding (no Qt)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from . import ngettext
from .formatting import format_datetime, format_number
from .recovery import Reason, status_with_recovery
from .scenarios import said_title
from .words import outcome_word


class ComparedRun(Protocol):
    """What of a stored run (``inspector.store.RunRecord``) its line says."""

    @property
    def id(self) -> int: ...
    @property
    def title(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def step_count(self) -> int | None: ...
    @property
    def started_at(self) -> datetime | None: ...


def compared_run_line(run: ComparedRun, place: int, reason: Reason | None = None) -> str:
    """``run`` as the first (``place`` 0) or the second run of a comparison: "First: run 3, scenario finished —
    failed (1 of 4 tool calls failed), 7 steps, started Dec 5, 2026, 12:31:45 AM"; a run with no start says
    none. Server text (a title) is as it came: the caller makes it safe for where it is shown."""
    count = run.step_count or 0
    if run.started_at is None:
        template = (ngettext("First: run {id}, {title} — {status}, {count} step",
                             "First: run {id}, {title} — {status}, {count} steps", count)
                    if place == 0 else
                    ngettext("Second: run {id}, {title} — {status}, {count} step",
                             "Second: run {id}, {title} — {status}, {count} steps", count))
    else:
        template = (ngettext("First: run {id}, {title} — {status}, {count} step, started {started}",
                             "First: run {id}, {title} — {status}, {count} steps, started {started}", count)
                    if place == 0 else
                    ngettext("Second: run {id}, {title} — {status}, {count} step, started {started}",
                             "Second: run {id}, {title} — {status}, {count} steps, started {started}", count))
    started = "" if run.started_at is None else format_datetime(run.started_at)
    return template.format(id=run.id, title=said_title(run.title, run.source),
                           status=status_with_recovery(outcome_word(run.status), reason),
                           count=format_number(count), started=started)


__all__ = ["ComparedRun", "compared_run_line"]
