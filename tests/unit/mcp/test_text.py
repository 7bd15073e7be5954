"""Wire text repair: lone surrogates become U+FFFD, everything else is left alone."""

from __future__ import annotations

import json

from inspector.mcp.text import REPLACEMENT, load_wire_json, repair_text


def test_lone_surrogates_in_strings_and_keys_are_replaced() -> None:
    raw = json.dumps({"a\udc00": ["b\ud800c", {"deep": "\udfff"}], "pair": "\U0001f600"})
    value = load_wire_json(raw)
    assert value == {f"a{REPLACEMENT}": [f"b{REPLACEMENT}c", {"deep": REPLACEMENT}], "pair": "\U0001f600"}
    json.dumps(value, ensure_ascii=False).encode("utf-8")  # valid text now


def test_bytes_are_accepted_and_clean_text_is_returned_as_parsed() -> None:
    assert load_wire_json(b'{"a": "\\u00e9"}') == {"a": "\u00e9"}


def test_deep_values_are_repaired_without_recursion() -> None:
    value: object = "\udc00"
    for _ in range(50_000):
        value = [value]
    repaired = repair_text(value)
    for _ in range(50_000):
        repaired = repaired[0]
    assert repaired == REPLACEMENT
