"""Remote text on a terminal: nothing in it may pass for our own output.

A server, a tool or an imported file chooses the text we print. Control characters could move
the cursor or colour the screen; a line break inside a one-line field could forge a line of
ours (``FAKE: ok``); a carriage return could overwrite one; bidirectional controls (U+202E
RIGHT-TO-LEFT OVERRIDE and friends) could make text read differently from what it is.

:func:`one_line` is for fields that are one line in our output (names, titles, messages);
:func:`block` for text shown as several lines (a tool's answer).
"""

from __future__ import annotations

import re

# C0 and C1 controls (but tab and line feed), DEL, and Unicode's own line/paragraph separators.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
# Bidirectional formatting: embeddings, overrides, isolates, marks; shown, not obeyed.
_BIDI = re.compile(r"[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_LINE_BREAKS = re.compile(r"\r\n|[\n\r\x0b\x0c\x85\u2028\u2029]")
SHOWN_BIDI = "\ufffd"
"""What a bidirectional control is shown as: visible, so tampering is not hidden."""


def one_line(text: object) -> str:
    """``text`` as one line: each line break becomes ``⏎`` (visible, so no line can be forged),
    other controls a space (a tab too: the terminal would move to its next tab stop, out of the
    column the field is padded to), bidirectional controls U+FFFD."""
    return block(_LINE_BREAKS.sub(" \u23ce ", str(text)).replace("\t", " "))


def block(text: object) -> str:
    """``text`` as lines: line feeds kept, every other control (carriage return included) a
    space, bidirectional controls U+FFFD."""
    return _BIDI.sub(SHOWN_BIDI, _CONTROLS.sub(" ", str(text)))


def as_typed(text: str) -> str:
    """``text`` in double quotes, as it would be typed at a shell (single quotes when it holds what double
    quotes would change)."""
    import shlex

    if any(char in text for char in '"\\$`'):
        return shlex.quote(text)
    return f'"{text}"'
