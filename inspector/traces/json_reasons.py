"""What the JSON parser (yajl) says is wrong, in words of ours: its messages are a fixed set, in
English only ("unallowed token at this point in JSON text"). Each known one is a translatable
phrase that also says what usually causes it; an unknown one stays the parser's own. No I/O.
"""

from __future__ import annotations

from inspector.i18n import N_
from inspector.i18n.messages import Message

#: The reason for a run of more digits than Python's ``int()`` reads (4,300: ``sys.get_int_max_str_digits()``).
TOO_MANY_DIGITS = "whole number too long"
#: yajl's message (as :func:`.json_stream.json_error_reason` cuts it: its end up to a backslash or a
#: line break, without a final full stop) → ours.
_OURS: dict[str, str] = {
    "unallowed token at this point in JSON text":
        N_("something that does not belong here (a value missing, or a comma too many)"),
    "invalid object key (must be a string)": N_("an object's key that is not a string in double quotes"),
    "object key and value must be separated by a colon (':')": N_("an object's key without a colon after it"),
    "after key and value, inside map, I expect ',' or '}'":
        N_("a value in an object followed by neither a comma nor the object's end (a comma missing?)"),
    "after array element, I expect ',' or ']'":
        N_("a value in a list followed by neither a comma nor the list's end (a comma missing?)"),
    "invalid char in json text": N_("a character that cannot begin a JSON value"),
    "invalid string in json text": N_("a word that is not JSON (only true, false and null are; a string "
                                      "without its double quotes?)"),
    "invalid character inside string": N_("a control character inside a string (it must be escaped)"),
    "malformed number, a digit is required after the decimal point": N_("a number without a digit after its "
                                                                        "decimal point"),
    "malformed number, a digit is required after the exponent": N_("a number without a digit after its exponent"),
    "malformed number, a digit is required after the minus sign": N_("a minus sign without a digit after it"),
    "probable comment found in input text, comments are not enabled": N_("a comment (JSON has none)"),
    "invalid bytes in UTF8 string": N_("bytes inside a string that are not UTF-8 text"),
    "integer overflow": N_("a whole number too large to read (more than 64 bits)"),
    "numeric (floating point) overflow": N_("a number too large for a floating-point number (such as 1e999)"),
    # json_stream's own, of a file read exactly (whole numbers of any size; Python's int() reads 4,300 digits):
    TOO_MANY_DIGITS: N_("more than 4,300 digits in a row (a whole number too long to read)"),
    # Cut at the backslash the message quotes:
    "inside a string, '": N_("a backslash inside a string before a character it cannot escape"),
    "invalid (non-hex) character occurs after '": N_("a \\u escape inside a string without four hex digits"),
}


def parser_reason(reason: str) -> str | Message:
    """Our phrase for the parser's ``reason``, or ``reason`` itself when it is not one we know."""
    ours = _OURS.get(reason)
    return Message(ours, {}) if ours is not None else reason


__all__ = ["TOO_MANY_DIGITS", "parser_reason"]
