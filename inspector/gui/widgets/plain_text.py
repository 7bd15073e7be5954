"""Text from servers, tools, models and files made safe to show: plain, clipped, visible controls.

Nothing here is Qt: the views put what these functions return into plain-text widgets. A
hostile payload (megabytes of text, deep nesting, markup, control characters) becomes a
bounded string quickly, so a view never freezes on it.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from inspector.i18n import _
from inspector.i18n.formatting import format_number

#: The most characters a detail view shows of one text.
MAX_TEXT_CHARS = 100_000
#: The longest line a detail view shows (a longer one is cut: one huge line stalls text layout).
MAX_LINE_CHARS = 4_000
#: The most characters a table cell shows.
MAX_CELL_CHARS = 300
#: Pretty JSON: deeper levels, longer strings and longer lists are cut.
MAX_DEPTH = 40
MAX_STRING_CHARS = 4_000
MAX_ITEMS = 500

# C0 controls and DEL shown as their Unicode pictures (U+2400...), except tab and newline.
_CONTROLS = {code: 0x2400 + code for code in range(32) if code not in (9, 10)}
_CONTROLS[127] = 0x2421
_CONTROLS[13] = None  # a carriage return before a newline is noise; alone it is removed too
# Bidirectional controls (U+202E turns text around): shown as the replacement character.
_CONTROLS.update({code: 0xFFFD for code in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))})


#: A tooltip whose lines are all this short keeps each line whole (Qt wraps a short rich-text tooltip
#: about 130 px wide: "Zuteilung 20 s, verbraucht 0,11" above "s"); a longer line wraps.
TOOLTIP_LINE_CHARS = 90
#: A number and the word or unit after it ("0,11 s", "3 cancelled", "(2 tool errors").
_NUMBER_AND_WORD = re.compile(r"(\d) (?=\w)")


def number_with_word(text: str) -> str:
    """``text`` with a no-break space between each number and the word or unit after it, so that a
    wrapped line never ends in "0,11" with its "s" on the next."""
    return _NUMBER_AND_WORD.sub("\\1\u00a0", text)


def plain_tooltip(text: str) -> str:
    """Tooltip text that Qt shows as the characters given: a server's ``<img src=x>`` stays text.

    Qt guesses whether a tooltip is rich text; escaping it inside a paragraph settles the guess. Short
    lines (:data:`TOOLTIP_LINE_CHARS`) are kept whole; where a long line wraps, a number stays with its
    unit."""
    if max(map(len, text.split("\n")), default=0) <= TOOLTIP_LINE_CHARS:
        return "<p style='white-space:pre'>" + html.escape(text) + "</p>"
    return "<p style='white-space:pre-wrap'>" + html.escape(number_with_word(text)) + "</p>"


def visible(text: str) -> str:
    """``text`` with control characters made visible (an escape is shown as ␛, not obeyed) and
    bidirectional controls shown as U+FFFD (as the command line does), so that no text can turn
    the words around it ("exe.txt" shown for "txt.exe")."""
    return text.translate(_CONTROLS)


#: How many characters of a server's text a label shows (the whole text is one action away).
LABEL_CHARS = 2_000
#: A run of this many characters without a space gets a break opportunity, so it wraps.
LONGEST_UNBROKEN = 30  # about 250 px: two form columns of it still fit a small screen
_UNBROKEN = re.compile(r"\S{%d}" % LONGEST_UNBROKEN)


def label_text(text: str, limit: int = LABEL_CHARS) -> str:
    """Server text for a wrapped label: controls visible, cut to ``limit`` characters (the whole text
    is one action away where it is shown), and long runs without a space given a place to wrap
    (a zero-width space), so no text decides the window's width."""
    shown = visible(text[:limit])
    shown = _UNBROKEN.sub(lambda match: match.group(0) + "\u200b", shown)
    return shown if len(text) <= limit else shown + "…"


def clip_text(text: str, limit: int = MAX_TEXT_CHARS, line_limit: int = MAX_LINE_CHARS) -> str:
    """``text`` made visible and cut to ``limit`` characters and lines to ``line_limit``."""
    length = len(text)
    cut = length > limit
    text = visible(text[:limit])
    lines = text.split("\n")
    if any(len(line) > line_limit for line in lines):
        lines = [line if len(line) <= line_limit else line[:line_limit] + "…" for line in lines]
        text = "\n".join(lines)
    if cut:
        text += "\n" + _("… (cut: the text has {count} characters)").format(count=format_number(length))
    return text


#: What a one-line text shows as a space: a tab, and each line break, Unicode's too (Qt breaks a line at U+2028 and
#: U+2029: a title "ok\u2028FAKE" read as a second line of the run's heading, its rest cut from the Runs list's cell).
_ONE_LINE = {ord(char): " " for char in "\n\t\x85\u2028\u2029"}


def cell_text(value: object, limit: int = MAX_CELL_CHARS) -> str:
    """One line for a table cell: controls visible, line breaks as spaces, cut with an ellipsis."""
    text = value if isinstance(value, str) else "" if value is None else str(value)
    text = visible(text[: limit + 1].translate(_ONE_LINE))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bounded(value: Any, depth: int = 0) -> Any:
    """A copy of a JSON value with deep levels, long strings and long lists cut (marked as cut)."""
    if depth >= MAX_DEPTH and isinstance(value, (dict, list)):
        return _("… (nested deeper than {depth} levels)").format(depth=MAX_DEPTH)
    if isinstance(value, str):
        return value if len(value) <= MAX_STRING_CHARS else value[:MAX_STRING_CHARS] + "…"
    if isinstance(value, list):
        items = [bounded(item, depth + 1) for item in value[:MAX_ITEMS]]
        if len(value) > MAX_ITEMS:
            items.append(_("… {count} more items").format(count=format_number(len(value) - MAX_ITEMS)))
        return items
    if isinstance(value, dict):
        result = {}
        for number, (key, item) in enumerate(value.items()):
            if number >= MAX_ITEMS:
                result["…"] = _("{count} more keys").format(count=format_number(len(value) - MAX_ITEMS))
                break
            result[str(key)[:MAX_STRING_CHARS]] = bounded(item, depth + 1)
        return result
    return value


def pretty_json(value: Any) -> str:
    """``value`` as indented JSON, bounded and made visible."""
    try:
        text = json.dumps(bounded(value), indent=2, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        text = repr(value)[:MAX_TEXT_CHARS]
    return clip_text(text)


def pretty_payload(payload_text: str) -> str:
    """A stored payload (JSON text) as indented JSON; text that does not parse is shown as it is."""
    if len(payload_text) > 20 * MAX_TEXT_CHARS:
        # Parsing megabytes only to show a hundred thousand characters: show the start instead.
        return clip_text(payload_text)
    try:
        value = json.loads(payload_text)
    except (ValueError, RecursionError):
        return clip_text(payload_text)
    return pretty_json(value)


__all__ = ["MAX_CELL_CHARS", "MAX_TEXT_CHARS", "bounded", "cell_text", "clip_text", "plain_tooltip", "pretty_json",
           "pretty_payload", "visible"]
