"""What ``runs list`` says of the plumbing traces it leaves out (runs read from a trace whose every step is an
instrumentation's plumbing, :mod:`inspector.store.plumbing_traces`) unless ``--all`` lists them."""

from __future__ import annotations

import textwrap

from inspector.i18n import ngettext
from inspector.i18n.formatting import format_number

from .terminal_width import terminal_columns

__all__ = ["hidden_line", "imported_line", "say_hidden"]


def say_hidden(count: int) -> None:
    """Print :func:`hidden_line`: at a terminal in lines as wide as it is (as the list's rows), piped on one line."""
    columns = terminal_columns()
    line = hidden_line(count)
    print(line if columns is None else textwrap.fill(line, max(columns, 20), break_on_hyphens=False))


def hidden_line(count: int) -> str:
    """Under the list: how many plumbing traces it leaves out, and how to list them."""
    return ngettext("Not listed: {count} plumbing trace (a trace of a session's plumbing alone: its set-up, a "
                    "notification outside a request); --all lists it.",
                    "Not listed: {count} plumbing traces (traces of a session's plumbing alone: its set-up, "
                    "notifications outside a request); --all lists them.", count).format(count=format_number(count))


def imported_line(count: int, runs: int) -> str:
    """After an import of ``runs`` runs: how many of them are plumbing traces, which ``runs list`` leaves out."""
    if count == runs:
        return ngettext("The run is a plumbing trace (a session's plumbing alone): `runs list` leaves it "
                        "out, `runs list --all` lists it.",
                        "All {count} runs are plumbing traces (a session's plumbing alone): `runs list` leaves "
                        "them out, `runs list --all` lists them.", count).format(count=format_number(count))
    return ngettext("{count} of the runs is a plumbing trace (a session's plumbing alone): `runs list` leaves "
                    "it out, `runs list --all` lists it.",
                    "{count} of the runs are plumbing traces (a session's plumbing alone): `runs list` leaves "
                    "them out, `runs list --all` lists them.", count).format(count=format_number(count))
