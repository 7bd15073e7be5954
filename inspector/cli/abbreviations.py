"""An option given by its beginning (``--all`` for ``--allow-sampling``), as argparse takes it when it begins one
option only: kept, since people rely on them (``call --arg`` for ``--args``, tests and scripts), but a refusal about
such an option says what was read so (``ping export --all``, meant for ``export``, was refused as "--allow-sampling
needs a model" alone, an option the user never typed)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inspector.i18n.messages import Message

    from .common import CommandError

#: The namespace's attribute holding {option: the beginning typed for it}.
ABBREVIATED = "abbreviated_options"


def note_abbreviation(noted: dict[str, str], typed: str, found: Any) -> None:
    """Note in ``noted`` the option argparse's ``_parse_optional`` ``found`` for the word ``typed``, when that word is
    only its beginning (``--all`` for ``--allow-sampling``; not ``--allow-sampling=3``)."""
    if isinstance(found, list):  # newer argparse: the options the word may be
        found = found[0] if len(found) == 1 else None
    if not isinstance(found, tuple) or found[0] is None or not isinstance(found[1], str):
        return
    word, option = typed.partition("=")[0], found[1]
    if word.startswith("--") and word != option and option.startswith(word):
        noted[option] = word


def keep_noted(parsed: argparse.Namespace, noted: dict[str, str]) -> None:
    """Put the abbreviations ``noted`` while parsing on ``parsed`` (a sub-command's join its group's)."""
    if noted:
        setattr(parsed, ABBREVIATED, {**getattr(parsed, ABBREVIATED, {}), **noted})


def naming(error: CommandError, *options: str) -> CommandError:
    """``error``, a refusal about ``options`` the user may have typed only the beginning of (``--all``): said with
    what was read so (:func:`read_as`). Others (``--arg`` for ``--args``: its refusal knows) are left as they are."""
    error.named_options = options  # type: ignore[attr-defined]
    return error


def read_as(error: CommandError, args: argparse.Namespace | None) -> list[Message]:
    """What to say after ``error`` of each option it is about (:func:`naming`) that was given by its beginning."""
    from inspector.i18n import N_
    from inspector.i18n.messages import Message

    noted: dict[str, str] = getattr(args, ABBREVIATED, None) or {}
    return [Message(N_("({typed} was read as {option}, the one option of this command it begins.)"),
                    {"typed": noted[option], "option": option})
            for option in getattr(error, "named_options", ()) if option in noted]


__all__ = ["ABBREVIATED", "keep_noted", "naming", "note_abbreviation", "read_as"]
