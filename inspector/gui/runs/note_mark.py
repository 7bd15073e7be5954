"""The mark of a timeline row whose step has a note: "✎" before its details (a glyph, so it reads in greyscale
and takes two characters of the Details column), the note's first words in the cell's tooltip, and "with a note"
said to a screen reader. Without it a reviewer's notes, imported with a colleague's trace, were found only by
clicking each step."""

from __future__ import annotations

from inspector.i18n import _

from ..widgets.plain_text import cell_text

#: The mark before a noted step's details.
NOTE_MARK = "✎"
#: How many characters of the note the tooltip says (the step detail says it whole).
TIP_NOTE_CHARS = 100


def marked(details: str, note: str) -> str:
    """A Details cell's text, marked when the step has a note."""
    return f"{NOTE_MARK} {details}" if note else details


def note_tip(note: str) -> str:
    """The tooltip's line on the note: its first words (at most :data:`TIP_NOTE_CHARS` characters, cut after a
    whole word with "…"), as one plain line."""
    words = cell_text(note.strip())
    if len(words) > TIP_NOTE_CHARS:
        head = words[:TIP_NOTE_CHARS - 1]
        words = (head.rsplit(" ", 1)[0] if " " in head else head).rstrip(" ,;:") + "…"
    return _("{mark} Note: {note}").format(mark=NOTE_MARK, note=words)


def spoken(details: str, note: str) -> str:
    """A Details cell as a screen reader says it: its details, and that the step has a note (not "pencil")."""
    return _("{details} (with a note)").format(details=details) if note else details


__all__ = ["NOTE_MARK", "TIP_NOTE_CHARS", "marked", "note_tip", "spoken"]
