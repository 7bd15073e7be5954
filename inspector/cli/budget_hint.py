"""What an operation's report adds after it ran out of its budget: how to give it more time on the command line.

The error's sentence (the engine's, the window's too) says only that the budget "is a setting you can raise";
the command names the option that raises it and the command that keeps one for a configured server."""

from __future__ import annotations

from typing import Any

from inspector.i18n import _

from .words import seconds

#: The errors of an operation that its budget ended: a request's grant ran out, or nothing was left to send one.
BUDGET_ENDINGS = ("timed_out", "exhausted_budget")


def budget_hint(report: dict[str, Any]) -> str | None:
    """The sentence for a report whose operation ran out of its budget (``None`` for any other)."""
    error = report.get("error")
    if error is None or error.get("kind") not in BUDGET_ENDINGS or report.get("budget_s") is None:
        return None
    return _("To give it more time: --budget SECONDS (this operation had {budget} s), or for every operation on a "
             "configured server `run-inspector servers set SERVER --budget SECONDS`.").format(
        budget=seconds(report["budget_s"]))


__all__ = ["BUDGET_ENDINGS", "budget_hint"]
