"""How Find and the Runs search compare texts: one fold for the needle and for every text it is looked
for in, stored or said in the reader's language."""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """``text`` as Find and the Runs search compare it: in no case (``casefold``: "ß" is "ss"), its accents
    composed (an "ä" stored as "a" and a combining diaeresis, as macOS spells a file's name, is the "ä" typed),
    and the dotted capital I an "i" (``casefold`` makes "İ" an "i" and a combining dot above)."""
    return unicodedata.normalize("NFC", text.casefold().replace("i\u0307", "i"))


__all__ = ["fold"]
