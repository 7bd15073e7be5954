"""The command line's sentence about a task: which one, on which server, how it stands."""

from __future__ import annotations

from typing import Any

from inspector.i18n import ngettext
from inspector.i18n.task_words import task_status_word

from .safe_text import one_line


def task_line(task: dict[str, Any]) -> str:
    """"Task t-1 on Tasks: completed after 2 polls." (and how to look it up when it may still run)."""
    polls = task.get("polls") or 0
    line = ngettext("Task {task} on {server}: {status} after {count} poll.",
                    "Task {task} on {server}: {status} after {count} polls.", polls).format(
        task=one_line(str(task.get("taskId"))), server=one_line(str(task.get("server"))),
        status=one_line(task_status_word(task.get("status"))), count=polls)
    return line
