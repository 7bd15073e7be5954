"""Remote text quoted in our messages: no control characters, trimmed, bounded (§2)."""

from __future__ import annotations

import pytest

from inspector.mcp.sanitize import REMOTE_TEXT_LIMIT, sanitize_remote_text


def test_the_limit_is_200():
    assert REMOTE_TEXT_LIMIT == 200


@pytest.mark.parametrize(("text", "expected"), [
    ("plain", "plain"),
    ("  padded \t", "padded"),
    ("line one\nline two", "line one line two"),
    ("a\r\nb", "a  b"),
    ("tab\there", "tab here"),
    ("nul\x00bell\x07esc\x1b[31mred", "nul bell esc [31mred"),
    ("del\x7fc1\x85\x9f", "del c1"),
    ("sep\u2028par\u2029end", "sep par end"),
    ("\n\n\x00", ""),
    ("", ""),
    ("grüße ✓ 日本", "grüße ✓ 日本"),
])
def test_control_characters_become_spaces_and_ends_are_trimmed(text, expected):
    assert sanitize_remote_text(text) == expected


def test_exactly_200_characters_are_kept_whole():
    text = "x" * 200
    assert sanitize_remote_text(text) == text


def test_longer_text_is_clipped_to_200_plus_ellipsis():
    result = sanitize_remote_text("y" * 201)
    assert result == "y" * 200 + "…"
    assert len(result) == 201


def test_clipping_happens_after_trimming():
    assert sanitize_remote_text("   " + "z" * 200 + "   ") == "z" * 200


def test_a_custom_limit():
    assert sanitize_remote_text("abcdef", 3) == "abc…"


def test_non_strings_are_shown_as_text():
    assert sanitize_remote_text(404) == "404"
    assert sanitize_remote_text(None) == "None"
