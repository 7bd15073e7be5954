"""ToolOutcome: the three strings and the forgiving parse."""

import pytest

from inspector.runs import ToolOutcome


def test_the_three_outcomes_have_the_reference_strings():
    assert [outcome.value for outcome in ToolOutcome] == ["ok", "failed", "cancelled"]


def test_an_outcome_is_a_string_equal_to_its_value():
    assert isinstance(ToolOutcome.CANCELLED, str)
    assert ToolOutcome.CANCELLED == "cancelled"
    assert str(ToolOutcome.FAILED) == "failed"
    assert f"{ToolOutcome.OK}" == "ok"


@pytest.mark.parametrize("value", ["ok", "failed", "cancelled"])
def test_parse_accepts_each_outcome_string(value):
    assert ToolOutcome.parse(value) is ToolOutcome(value)


def test_parse_accepts_a_member():
    assert ToolOutcome.parse(ToolOutcome.CANCELLED) is ToolOutcome.CANCELLED


@pytest.mark.parametrize(
    "value",
    [None, "", "OK", "Cancelled", "canceled", "error", " ok", 0, 1, True, False, ["ok"], {"ok": 1}, b"ok"],
)
def test_parse_returns_none_for_anything_else(value):
    assert ToolOutcome.parse(value) is None
