"""Text from servers, tools and files shown as the characters it is, never as markup."""

from __future__ import annotations

import html


def plain_tooltip(text: str) -> str:
    """Tooltip text that Qt shows as the characters given: a server's ``<img src=x>`` stays text.

    Qt guesses whether a tooltip is rich text; escaping it inside a paragraph settles the guess."""
    return "<p style='white-space:pre-wrap'>" + html.escape(text) + "</p>"
