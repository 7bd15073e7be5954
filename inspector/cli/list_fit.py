"""``runs list`` at a terminal narrower than its rows: the title gives way first, then the status's reason.

Printed to a pipe or a file the list is laid out as it always was (:mod:`inspector.cli.terminal_width`).
At a terminal whose rows would be wider than it, the Title column (the last) is cut with "…" down to
:data:`LEAST_TITLE` columns; if the rows are still too wide, the Status column's reasons are cut too
("failed (2 of 4 tool calls f…"), never its status word; what still does not fit wraps as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .terminal_width import display_width, fit

#: The columns a cut title keeps at least.
LEAST_TITLE = 12


@dataclass(frozen=True)
class FittedList:
    """The Status cells, the Status column's width and the Title cells, as a row shows them."""

    statuses: list[str]
    status_width: int
    titles: list[str]


def fit_list(columns: int, others: int, statuses: Sequence[str], status_width: int, least_status: int,
             titles: Sequence[str]) -> FittedList:
    """Statuses and titles cut so that rows fit ``columns`` (``others``: the columns of the rest of a
    row, separators included; ``least_status``: the longest status word, which is never cut)."""
    widest_title = max(map(display_width, titles), default=0)
    if others + status_width + widest_title <= columns:
        return FittedList(list(statuses), status_width, list(titles))
    title_room = columns - others - status_width
    if title_room < LEAST_TITLE:
        title_room = min(LEAST_TITLE, widest_title)
        status_room = max(columns - others - title_room, least_status + 1)  # the word whole, and "…"
        if status_room < status_width:
            statuses = [fit(status, status_room) for status in statuses]
            status_width = status_room
    return FittedList(list(statuses), status_width, [fit(title, max(title_room, 1)) for title in titles])


__all__ = ["LEAST_TITLE", "FittedList", "fit_list"]
