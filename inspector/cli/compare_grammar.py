"""``compare RUN RUN``: the grammar of the command (inspector/cli/comparing.py runs it)."""

from __future__ import annotations

import argparse

from inspector.i18n import N_, _
from inspector.i18n.messages import Message

from .common import UsageError
from .safe_text import one_line

#: What the refusal of a wrong number of runs shows (the newest run against the one before it).
EXAMPLE = "compare last~1 last"


def check_runs(runs: list[str]) -> tuple[str, str]:
    """The two runs ``compare`` was given; a usage error that says how to name them otherwise."""
    if len(runs) == 2:
        return runs[0], runs[1]
    if len(runs) == 1:
        raise UsageError(Message(N_("compare needs two runs, the first and then the one compared against it; "
                                    "only {given} was given. Name the second too, e.g. {example} (a run is named by "
                                    "its id, last, last~N or the beginning of its uid)."),
                                 {"given": one_line(runs[0]),
                                  "example": EXAMPLE if runs[0] == "last" else f"compare {one_line(runs[0])} last"}))
    raise UsageError(Message(N_("compare needs two runs, the first and then the one compared against it, e.g. "
                                "{example} (a run is named by its id, last, last~N or the beginning of its uid); "
                                "{count} were given."), {"example": EXAMPLE, "count": len(runs)}))


def add_compare_command(commands: argparse._SubParsersAction) -> None:
    compare = commands.add_parser(
        "compare", usage=_("%(prog)s [options] RUN RUN"),
        help=_("set two stored runs side by side: their steps aligned, what differs marked"),
        description=_("Align the steps of two runs (by round and tool, tolerating steps one run has and the "
                      "other has not) and mark what differs in each pair: outcome, duration, arguments, "
                      "result. A step counts as slower or faster when it ended as in the other run and its "
                      "duration differs by more than 20 % of the shorter one and by more than 100 ms."))
    # One list rather than two positionals: with one run (or three) argparse could only say "the
    # following arguments are required: RUN"; the command says what it needs (check_runs).
    compare.add_argument("runs", nargs="*", metavar=_("RUN"),
                         help=_("the first run, then the one compared against it: each its id, last (the newest "
                                "run), last~N (the N-th before it) or the beginning of its uid"))
    compare.intermixed = True  # `compare 4 --json 5`: the runs may stand around the options
    compare.add_argument("--json", action="store_true", help=_("print exactly one JSON object"))
    compare.add_argument("--plumbing", action="store_true",
                         help=_("compare the plumbing spans of runs read from a trace too (stream writers and the "
                                "like), which are left out by default as runs show and the window leave them out"))
    compare.add_argument("--db", metavar=_("PATH"),
                         help=_("the run database (default: RUN_INSPECTOR_DB, else runs.db in the user data folder)"))
