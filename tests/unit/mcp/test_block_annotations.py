"""A content block's annotations are checked like any server data: the valid parts kept beside the
block, the rest left out, nothing trusted; a stored block with any ``annotations`` (an imported
trace may hold anything) is said without breaking, and one without them as before."""

from __future__ import annotations

import math

import pytest

from inspector.cli.results import block_lines as cli_block_lines
from inspector.gui.widgets.block_text import block_lines as window_block_lines
from inspector.mcp.annotations import kept_annotations
from inspector.mcp.results import describe_block


@pytest.mark.parametrize(("raw", "kept"), [
    ({"audience": ["user"], "priority": 0.5, "lastModified": "2026-11-30T14:02:00+01:00"},
     {"audience": ["user"], "priority": 0.5, "lastModified": "2026-11-30T14:02:00+01:00"}),
    ({"audience": ["assistant", "user", "user"]}, {"audience": ["assistant", "user"]}),
    ({"audience": []}, {"audience": []}),
    ({"audience": ["admin", None]}, None),
    ({"audience": "user"}, None),
    ({"priority": 1.5}, None),
    ({"priority": -0.1}, None),
    ({"priority": math.nan}, None),
    ({"priority": math.inf}, None),
    ({"priority": True}, None),
    ({"priority": "0.5"}, None),
    ({"lastModified": "tomorrow"}, None),
    ({"lastModified": "2026-13-01T00:00:00Z"}, None),
    ({"lastModified": "2026-11-30T14:02:00Z" + " " * 100}, None),
    ({"lastModified": 1764511320}, None),
    ({"other": {"deep": [[[[]]]]}}, None),
    (["user"], None),
    ("user", None),
    (None, None),
])
def test_only_valid_annotations_are_kept(raw, kept) -> None:
    assert kept_annotations(raw) == kept
    assert describe_block({"type": "image", "data": "", "annotations": raw}).get("annotations") == kept


def test_a_block_without_annotations_is_described_and_said_as_before() -> None:
    block = describe_block({"type": "image", "mimeType": "image/png", "data": "AAAA"})
    assert block == {"type": "image", "mimeType": "image/png", "size": 3}
    assert cli_block_lines(block) == window_block_lines(block) == ["Image (image/png, 3 bytes)."]
    assert cli_block_lines({"type": "text", "size": 4}) == window_block_lines({"type": "text", "size": 4}) == []


@pytest.mark.parametrize("junk", [
    {"audience": {"user": 1}, "priority": "high", "lastModified": ["2026"]},
    {"audience": ["admin"] * 100_000 + ["user"], "priority": 2, "lastModified": "9" * 10_000},
    "for the user", 42, [{"audience": ["user"]}],
])
def test_a_stored_block_with_junk_annotations_is_said_without_them(junk) -> None:
    block = {"type": "image", "mimeType": "image/png", "size": 3, "annotations": junk}
    assert cli_block_lines(block) == window_block_lines(block) == ["Image (image/png, 3 bytes)."]


def test_a_stored_block_with_annotations_is_said_in_words() -> None:
    block = {"type": "resource_link", "uri": "demo://a", "name": "a",
             "annotations": {"audience": ["assistant"], "priority": 0.75}}
    expected = ["Resource link a: demo://a.", "  Annotations: for the assistant only · priority 0.75"]
    assert cli_block_lines(block) == window_block_lines(block) == expected
