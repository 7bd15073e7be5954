"""An import writes its checked payloads with orjson (quicker); what orjson cannot write as the standard
library would is written by the standard library, so the stored values are the same either way."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.runs.step import StoredPayload
from inspector.store.run_store import _finite_payload_text, _payload_text, step_row
from tests.support.json_leaves import leaves


def _nested(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = {"in": [value]}
    return value


PLAIN = {"kind": "tool", "round": 0, "durationMs": 12.5, "toolName": "echo ✓ 雨",
         "raw": {"otlp": {"attributes": {"ratio": 0.1, "big": 1e16, "tiny": 1e-5, "count": 2**63 - 1,
                                         "neg": -(2**63), "flag": False, "none": None,
                                         "controls": "\x00\x08\t\n\x0c\r\x1f\x7f\u2028\"\\/ end"}}}}
REFUSED_BY_ORJSON = [
    {"count": 2**64},                      # beyond 64 bits
    {"count": -(2**63) - 1},
    {"text": "lone \ud800 surrogate"},     # not UTF-8
    {"deep": _nested(300)},                # deeper than orjson goes
]


def test_the_quick_encoder_stores_the_same_values() -> None:
    quick, standard = _finite_payload_text(PLAIN), _payload_text(PLAIN)
    assert json.loads(quick) == json.loads(standard) == PLAIN
    assert quick != standard  # not the standard library's bytes: the floats with exponents are spelled otherwise
    assert quick.replace("1e16", "1e+16").replace("0.00001", "1e-05") == standard


@pytest.mark.parametrize("payload", REFUSED_BY_ORJSON, ids=["2**64", "below -2**63", "surrogate", "deep"])
def test_what_orjson_refuses_is_written_by_the_standard_library(payload: dict[str, Any]) -> None:
    assert _finite_payload_text(payload) == _payload_text(payload)


def test_only_an_importer_that_vouches_for_finite_floats_gets_the_quick_encoder() -> None:
    stored = StoredPayload("tool", 0, 1.0, {"kind": "tool", "value": math.nan})
    assert "NaN" in step_row(stored)[4]  # a receiver's protobuf may carry NaN: written as before
    assert "NaN" not in step_row(stored, finite=True)[4]  # what orjson does with it: why the caller must know


def test_an_integer_beyond_64_bits_in_a_vouched_payload_is_kept() -> None:
    # An import refuses such an intValue now (OTLP's are 64 bits); a payload that holds one anyway
    # (a live call's result, stored through the same row) still keeps it exactly, not orjson's refusal.
    stored = StoredPayload("tool", 0, 1.0, {"kind": "tool", "result": {"id": 2**64 + 5}})
    assert json.loads(step_row(stored, finite=True)[4])["result"]["id"] == 2**64 + 5


_SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text())
_VALUES = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(), _VALUES, max_size=5))
def test_any_payload_of_finite_values_is_stored_with_the_same_values(payload: dict[str, Any]) -> None:
    quick, standard = _finite_payload_text(payload), _payload_text(payload)
    if any(0xD800 <= ord(char) <= 0xDFFF for char in standard):
        assert quick == standard  # a lone surrogate: orjson refuses it, the standard library writes it
        return
    assert json.loads(quick) == json.loads(standard)
    assert [type(leaf) for leaf in leaves(json.loads(quick))] == [type(leaf) for leaf in leaves(json.loads(standard))]

