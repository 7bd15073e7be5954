"""Whole numbers from the command line, range-checked before anything uses them.

SQLite holds 64-bit integers; a bigger number would surface as an ``OverflowError`` deep in
a query. These argparse types refuse it in one sentence instead.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from inspector.i18n import _

LARGEST_ID = 2**63 - 1
"""The largest row id SQLite can hold."""

LARGEST_LIMIT = 1_000_000_000
"""The most runs `runs list --limit` may ask for."""


def _shown(text: str) -> str:
    """``text`` (typed where a number belongs) as a refusal repeats it: without a password, a query or a fragment
    if it is an address, without its value if it is a credential header (cut short, the whole word could not be
    found and hidden), at most 30 characters."""
    from .typed_secrets import typed_shown

    shown = typed_shown(text)
    return shown if len(shown) <= 30 else shown[:30] + "…"


def whole_number(what: str, low: int, high: int, sentence: Callable[[], str]) -> Callable[[str], int]:
    """An argparse type: ``what`` must be a whole number from ``low`` to ``high``; ``sentence`` makes the
    refusal in the current language, with the placeholders ``{low}``, ``{high}`` and ``{text}``."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            from inspector.i18n.formatting import format_number  # Babel's dates load only for a refusal

            raise argparse.ArgumentTypeError(sentence().format(low=format_number(low), high=format_number(high),
                                                               text=_shown(text)))
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse




def step_number(text: str) -> int:
    """An argparse type: any whole number; whether the run has that step (and which it has) is said
    once the run is known, rather than a range of numbers no run has."""
    try:
        return int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(_("a step number must be a whole number, as the # column of `runs show` "
                                           "prints it, not {text}").format(text=_shown(text))) from None


step_number.__name__ = "a step number"  # argparse names the type in some messages
limit = whole_number("the limit", 1, LARGEST_LIMIT,
                     lambda: _("the limit must be a whole number from {low} to {high}, not {text}"))
