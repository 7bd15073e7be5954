"""The server's notifications kept with a step, as they are said: each log message on its own, every
other method once, where it first came, with how many times it came.

A task's server sends ``notifications/tasks/status`` at each change of status, a subscribed resource's
``notifications/resources/updated`` at each change: a step keeps up to a thousand of them, and naming
each on a line of its own said the same sentence a thousand times.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

LOG_MESSAGE = "notifications/message"


def said_once_each(notes: Iterable[object]) -> list[tuple[Mapping[str, Any], int]]:
    """``(notification, count)`` in order: a log message with count 1, any other method's first
    notification with the number of its method's notifications; entries that are no mapping are left out."""
    said: list[tuple[Mapping[str, Any], int]] = []
    places: dict[str, int] = {}
    for note in notes:
        if not isinstance(note, Mapping):
            continue
        method = note.get("method")
        if method == LOG_MESSAGE or not isinstance(method, str):
            said.append((note, 1))
        elif method in places:
            first, count = said[places[method]]
            said[places[method]] = (first, count + 1)
        else:
            places[method] = len(said)
            said.append((note, 1))
    return said
