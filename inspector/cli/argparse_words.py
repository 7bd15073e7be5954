"""argparse's own words ("usage:", "options", its error sentences) from our catalogue.

argparse asks the standard ``gettext`` for its words; the command line points those lookups at
:mod:`inspector.i18n`, whose catalogue carries them (marked below, so Babel extracts them). The
msgids are Python 3.11's; a word another Python version spells differently stays English.
"""

from __future__ import annotations

import argparse

from inspector.i18n import N_, _, ngettext

#: The words argparse says on our command line (help layout and the errors a user can meet).
WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)


def _plural_for_extraction() -> None:  # never called: Babel reads the plural pair from here
    ngettext("expected %s argument", "expected %s arguments", 2)


def speak_our_language() -> None:
    """Let argparse take its words from the current catalogue (idempotent)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


__all__ = ["WORDS", "speak_our_language"]
