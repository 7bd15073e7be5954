"""``runs list`` at a terminal narrower than its rows: the title gives way first, then the server, then the
status's reason.

Printed to a pipe or a file the list is laid out as it always was (:mod:`inspector.cli.terminal_width`).
At a terminal whose rows would be wider than it, the Title column (the last) is cut with "…" down to
:data:`LEAST_TITLE` columns; if the rows are still too wide, the Server column is cut with "…" down to
:data:`LEAST_SERVER` columns (:func:`fit_servers`), then the Status column's reasons are cut too,
after a whole word as the window's Runs list cuts them ("failed (2 of 4 tool calls…"), else to the status word
("failed…"), never in a word; what still does not fit wraps as before. A terminal too narrow for the rows even
so (80 columns) lists the columns without Server, Steps and Duration (:func:`leaves_room`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from inspector.i18n.run_cells import fitted_status

from .terminal_width import ELLIPSIS, display_width, fit

#: The columns a cut title keeps at least.
LEAST_TITLE = 12
#: The columns a cut server keeps at least.
LEAST_SERVER = 16


@dataclass(frozen=True)
class FittedList:
    """The Status cells, the Status column's width and the Title cells, as a row shows them."""

    statuses: list[str]
    status_width: int
    titles: list[str]


def fit_list(columns: int, others: int, statuses: Sequence[str], status_width: int, least_status: int,
             titles: Sequence[str], shorts: Sequence[tuple[str, str] | None] = ()) -> FittedList:
    """Statuses and titles cut so that rows fit ``columns`` (``others``: the columns of the rest of a
    row, separators included; ``least_status``: the longest status word, which is never cut; ``shorts``: each
    status's kind of failure and its words with the status word, where it has them, :func:`_cut_reason`)."""
    widest_title = max(map(display_width, titles), default=0)
    if others + status_width + widest_title <= columns:
        return FittedList(list(statuses), status_width, list(titles))
    title_room = columns - others - status_width
    if title_room < LEAST_TITLE:
        title_room = min(LEAST_TITLE, widest_title)
        status_room = max(columns - others - title_room, least_status + 1)  # the word whole, and "…"
        if status_room < status_width:
            shorts = list(shorts) or [None] * len(statuses)
            statuses = [_cut_reason(status, status_room, short) for status, short in zip(statuses, shorts, strict=True)]
            status_width = max(least_status, *map(display_width, statuses))  # no gap where words were given up
    return FittedList(list(statuses), status_width, [fit(title, max(title_room, 1)) for title in titles])


def fit_servers(columns: int, others: int, status_width: int, titles: Sequence[str],
                servers: Sequence[str]) -> list[str]:
    """Servers cut so that rows fit ``columns`` where the title alone, cut to :data:`LEAST_TITLE`, does not
    make them fit (``others``: the columns of the rest of a row, the Server column's not among them)."""
    title_room = min(LEAST_TITLE, max(map(display_width, titles), default=0))
    room = max(columns - others - status_width - title_room, LEAST_SERVER)
    return [fit(server, room) for server in servers]


def leaves_room(columns: int, others: int, status_width: int, least_status: int, titles: Sequence[str]) -> bool:
    """Whether rows of ``others`` columns fit ``columns`` with their titles and reasons cut as far as they go
    (a terminal narrower than that leaves the Server, Steps and Duration columns out)."""
    title_room = min(LEAST_TITLE, max(map(display_width, titles), default=0))
    return others + min(status_width, least_status + 1) + title_room <= columns


def _cut_reason(status: str, columns: int, short: tuple[str, str] | None = None) -> str:
    """``status`` cut to ``columns`` as the window's Runs list cuts it (:func:`inspector.i18n.run_cells.fitted_status`):
    whole where it fits, else its reason cut after the last whole word that fits while the cut still names the
    kind of failure ``short`` gives ("timed out", and its words with the status word: "failed: timed out"), else
    those words, else another cut (two whole words at least, "fehlgeschlagen (2 von 4 Tool-…" but never
    "fehlgeschlagen (der Tool-…"), else the status word alone with "…" (a reason is never cut inside a word;
    ``runs show`` says it whole)."""
    word = status.partition(" (")[0]
    kind, alone = short if short is not None else (None, None)
    return fitted_status(status, word, kind, lambda text: display_width(text) <= columns, alone) or word + ELLIPSIS


__all__ = ["LEAST_SERVER", "LEAST_TITLE", "FittedList", "fit_list", "fit_servers", "leaves_room"]
