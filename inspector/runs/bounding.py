"""Cut text to a byte budget without breaking a character.

The byte budget is measured in UTF-8 because that is how the content is sent
to the model and stored; counting characters would let multibyte text grow
up to four times past the bound.
"""

from __future__ import annotations

# Lone surrogates can reach us through JSON ("\\ud800" is valid JSON), and the
# strict UTF-8 codec refuses them. "surrogatepass" measures and keeps them as
# the three bytes they would take, so bounding never raises on odd input.
_ERRORS = "surrogatepass"


def utf8_size(text: str) -> int:
    """Return how many bytes ``text`` takes in UTF-8."""
    return len(text.encode("utf-8", _ERRORS))


def cut_note(original_bytes: int, max_bytes: int) -> str:
    """Return the note appended to a text that was cut.

    It states both numbers so a reader (human or model) knows how much is
    missing and that the cut was deliberate, not a broken transfer.
    """
    return (
        f"\n\n[Cut: the original content had {original_bytes:,} bytes (UTF-8); "
        f"it is shown up to a limit of {max_bytes:,} bytes including this note.]"
    )


def bound_text(text: str, max_bytes: int) -> str:
    """Return ``text`` unchanged if it fits in ``max_bytes``, else a cut copy.

    A cut copy is a prefix of ``text`` followed by :func:`cut_note`; the two
    together take at most ``max_bytes`` bytes. The prefix ends on a code point
    boundary (a combining mark may still be separated from its base letter).

    Raises ``ValueError`` when ``max_bytes`` is negative, or when the text
    must be cut but ``max_bytes`` cannot even hold the note.
    """
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
        raise ValueError(f"max_bytes must be a non-negative whole number, got {max_bytes!r}")
    encoded = text.encode("utf-8", _ERRORS)
    if len(encoded) <= max_bytes:
        return text
    note = cut_note(len(encoded), max_bytes)
    budget = max_bytes - utf8_size(note)
    if budget < 0:
        raise ValueError(
            f"max_bytes={max_bytes} is too small to hold the note that marks a cut "
            f"({utf8_size(note)} bytes)"
        )
    cut = budget
    # UTF-8 continuation bytes look like 0b10xxxxxx; stepping back over them
    # lands on the first byte of the code point that would have been split,
    # so everything before it is whole.
    while cut > 0 and (encoded[cut] & 0xC0) == 0x80:
        cut -= 1
    return encoded[:cut].decode("utf-8", _ERRORS) + note
