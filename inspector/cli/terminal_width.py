"""How wide the terminal is, and how wide a text shows on it.

A table printed to a terminal may use the terminal's width (:func:`terminal_columns`, which honours
``COLUMNS`` as :func:`shutil.get_terminal_size` does); printed to a pipe or a file it is laid out as
it always was, so scripts that read it see the same bytes. Widths count the columns a text takes: a
wide character (East Asian wide or full-width) takes two, a combining mark or a format character none
(but the soft hyphen, which terminals show).
"""

from __future__ import annotations

import shutil
import sys
import unicodedata

ELLIPSIS = "…"


def terminal_columns() -> int | None:
    """The columns a line may take on the terminal standard output writes to (one less than it has,
    as the progress line's, so that no terminal wraps a full line); None when it is not a terminal."""
    try:
        if not sys.stdout.isatty():
            return None
    except (AttributeError, ValueError):  # replaced by an object without one, or closed
        return None
    return shutil.get_terminal_size().columns - 1


#: The soft hyphen is a format character, but terminals show it as a hyphen, one column (as C's ``wcwidth`` counts it).
_SOFT_HYPHEN = "\u00ad"


def _char_width(char: str) -> int:
    if char == _SOFT_HYPHEN:
        return 1
    if unicodedata.combining(char) or unicodedata.category(char) in ("Me", "Mn", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    """The columns ``text`` takes on a terminal."""
    return sum(_char_width(char) for char in text)


def fit(text: str, columns: int) -> str:
    """``text`` cut with "…" to take at most ``columns`` columns (whole when it fits)."""
    if display_width(text) <= columns:
        return text
    kept, used = [], 0
    for char in text:
        width = _char_width(char)
        if used + width > columns - 1:
            break
        kept.append(char)
        used += width
    return "".join(kept).rstrip() + ELLIPSIS if columns > 0 else ""


def pad(text: str, columns: int) -> str:
    """``text`` followed by the spaces that make it take ``columns`` columns (a wide character counted twice)."""
    return text + " " * max(columns - display_width(text), 0)


__all__ = ["ELLIPSIS", "display_width", "fit", "pad", "terminal_columns"]
