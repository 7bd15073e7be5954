"""bound_text: cut to a UTF-8 byte budget, on a code point boundary, with a note."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.runs.bounding import bound_text, cut_note, utf8_size


def _kept_part(result: str, original: str, limit: int) -> str:
    note = cut_note(utf8_size(original), limit)
    assert result.endswith(note)
    return result[: -len(note)]


def test_text_within_the_bound_is_returned_unchanged():
    assert bound_text("hello", 5) == "hello"
    assert bound_text("", 0) == ""
    assert bound_text("é" * 500, 1000) == "é" * 500  # exactly 1000 bytes


def test_text_one_byte_over_is_cut_and_ends_with_the_note():
    text = "a" * 1001
    result = bound_text(text, 1000)
    kept = _kept_part(result, text, 1000)
    assert text.startswith(kept)
    assert utf8_size(result) == 1000  # ASCII: the whole budget is used


def test_the_note_states_the_original_size_and_the_limit():
    result = bound_text("x" * 123_456, 50_000)
    assert "123,456 bytes" in result
    assert "50,000 bytes" in result
    assert "Cut" in result


@pytest.mark.parametrize("char", ["é", "€", "😀"])
@pytest.mark.parametrize("offset", range(4))
def test_multibyte_text_is_cut_on_a_character_boundary(char, offset):
    limit = 1000
    text = "a" * offset + char * 600
    result = bound_text(text, limit)
    kept = _kept_part(result, text, limit)
    # A broken code point would either fail to encode strictly or not be a
    # prefix of the original.
    kept.encode("utf-8")
    assert text.startswith(kept)
    budget = limit - utf8_size(cut_note(utf8_size(text), limit))
    # At most one partial character is given up, never more.
    assert budget - len(char.encode()) < utf8_size(kept) <= budget
    assert utf8_size(result) <= limit


def test_a_lone_surrogate_does_not_break_bounding():
    text = "\ud800" * 1000
    result = bound_text(text, 500)
    assert utf8_size(result) <= 500


def test_a_budget_too_small_for_the_note_is_refused():
    with pytest.raises(ValueError, match="too small"):
        bound_text("x" * 100, 10)


@pytest.mark.parametrize("limit", [-1, 1.5, True, "10"])
def test_a_limit_that_is_not_a_non_negative_whole_number_is_refused(limit):
    with pytest.raises(ValueError, match="max_bytes must be a non-negative whole number"):
        bound_text("x", limit)


@given(text=st.text(), limit=st.integers(min_value=200, max_value=3000))
def test_bounded_text_always_fits_and_keeps_a_prefix(text, limit):
    result = bound_text(text, limit)
    assert utf8_size(result) <= limit
    if utf8_size(text) <= limit:
        assert result == text
    else:
        kept = _kept_part(result, text, limit)
        assert text.startswith(kept)
    # Bounding twice changes nothing.
    assert bound_text(result, limit) == result
