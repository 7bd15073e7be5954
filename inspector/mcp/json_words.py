"""Why JSON that a person wrote does not parse, in words of ours: Python's json module says it in
a fixed set of English messages ("Expecting ',' delimiter"). For the JSON typed as a tool's
arguments (the window's JSON tab, ``call --args``), a scenario file and a server configuration
file. No I/O.
"""

from __future__ import annotations

from .messages import N_, Message

#: Python's json module's messages (``JSONDecodeError.msg``, a fixed set, English only; the
#: pure-Python decoder adds ": 'x'" to an escape's) → ours: for the JSON a person types or a
#: scenario file, read whole by ``json.loads``.
_DECODER: dict[str, str] = {
    "Expecting value": N_("a JSON value expected here (nothing is there, or something that is not JSON)"),
    "Expecting property name enclosed in double quotes":
        N_("an object's key expected here, in double quotes (a comma too many?)"),
    "Expecting ':' delimiter": N_("an object's key without a colon after it"),
    "Expecting ',' delimiter": N_("a comma expected here between two values (a comma missing?)"),
    "Unterminated string starting at": N_("a string that is never closed (its double quote at the end is missing)"),
    "Invalid control character at": N_("a control character inside a string (it must be escaped)"),
    "Invalid \\escape": N_("a backslash inside a string before a character it cannot escape"),
    "Invalid \\uXXXX escape": N_("a \\u escape inside a string without four hex digits"),
    "Extra data": N_("more after the end of the JSON value (only one may be given)"),
    "Illegal trailing comma before end of object": N_("a comma too many before the object's end"),
    "Illegal trailing comma before end of array": N_("a comma too many before the list's end"),
}


def decoder_reason(reason: str) -> str | Message:
    """Our phrase for a :class:`json.JSONDecodeError`'s ``msg``, or ``msg`` itself when it is not one we know."""
    ours = _DECODER.get(reason) or _DECODER.get(reason.split(": ", 1)[0])
    return Message(ours, {}) if ours is not None else reason


__all__ = ["decoder_reason"]
