"""``compare RUN RUN``: the grammar of the command (inspector/cli/comparing.py runs it)."""

from __future__ import annotations

import argparse

from inspector.i18n import _


def add_compare_command(commands: argparse._SubParsersAction) -> None:
    compare = commands.add_parser(
        "compare", help=_("set two stored runs side by side: their steps aligned, what differs marked"),
        description=_("Align the steps of two runs (by round and tool, tolerating steps one run has and the "
                      "other has not) and mark what differs in each pair: outcome, duration, arguments, "
                      "result. A step counts as slower or faster when it ended as in the other run and its "
                      "duration differs by more than 20 % of the shorter one and by more than 100 ms."))
    for name, help_text in (("first", _("the first run: its id, last (the newest run), last~N (the N-th before "
                                         "it) or the beginning of its uid")),
                            ("second", _("the second run, said the same way; it is compared against the first"))):
        compare.add_argument(name, metavar=_("RUN"), help=help_text)
    compare.add_argument("--json", action="store_true", help=_("print exactly one JSON object"))
    compare.add_argument("--db", metavar=_("PATH"),
                         help=_("the run database (default: RUN_INSPECTOR_DB, else runs.db in the user data folder)"))
