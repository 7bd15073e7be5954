"""Leg: one request of an operation, and its stored form."""

import dataclasses

import pytest

from inspector.runs import InvalidLegError, Leg, ToolOutcome


def test_to_dict_writes_every_key_in_camel_case():
    leg = Leg(method="tools/call", granted_s=30, elapsed_ms=12.5, http_status=200, outcome="ok")
    assert leg.to_dict() == {
        "method": "tools/call",
        "grantedS": 30,
        "elapsedMs": 12.5,
        "httpStatus": 200,
        "outcome": "ok",
    }


def test_absent_values_are_written_as_null():
    leg = Leg(method="tools/call", granted_s=None, elapsed_ms=None, http_status=None, outcome="not_sent")
    assert leg.to_dict() == {
        "method": "tools/call",
        "grantedS": None,
        "elapsedMs": None,
        "httpStatus": None,
        "outcome": "not_sent",
    }


@pytest.mark.parametrize("outcome", ["ok", "failed", "not_sent", "cancelled"])
def test_round_trip_for_each_outcome(outcome):
    status = None if outcome == "not_sent" else 200
    leg = Leg("initialize", 5, 0.0, status, outcome)
    assert Leg.from_dict(leg.to_dict()) == leg


def test_leg_outcomes_share_the_tool_outcome_strings():
    assert (Leg.OK, Leg.FAILED, Leg.CANCELLED) == tuple(o.value for o in ToolOutcome)
    assert Leg.NOT_SENT == "not_sent"


def test_a_tool_outcome_member_is_stored_as_plain_text():
    leg = Leg("tools/call", None, None, None, ToolOutcome.CANCELLED)
    assert type(leg.outcome) is str
    assert leg == Leg("tools/call", None, None, None, "cancelled")


def test_from_dict_reads_missing_optional_keys_as_none_and_ignores_unknown_keys():
    leg = Leg.from_dict({"method": "tools/call", "outcome": "cancelled", "extra": 1})
    assert leg == Leg("tools/call", None, None, None, "cancelled")


def test_whole_milliseconds_are_read_as_a_float():
    leg = Leg.from_dict({"method": "m", "outcome": "ok", "elapsedMs": 7})
    assert leg.elapsed_ms == 7.0 and isinstance(leg.elapsed_ms, float)


def test_a_leg_is_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Leg("m", None, None, None, "ok").outcome = "failed"  # type: ignore[misc]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"method": ""}, "method must be a non-empty string"),
        ({"method": 3}, "method must be a non-empty string"),
        ({"granted_s": -1}, "grantedS must be a non-negative whole number"),
        ({"granted_s": True}, "grantedS must be a non-negative whole number"),
        ({"granted_s": 1.5}, "grantedS must be a non-negative whole number"),
        ({"elapsed_ms": -0.5}, "elapsedMs must be a finite non-negative number"),
        ({"elapsed_ms": float("nan")}, "elapsedMs must be a finite non-negative number"),
        ({"elapsed_ms": float("inf")}, "elapsedMs must be a finite non-negative number"),
        ({"elapsed_ms": "3"}, "elapsedMs must be a finite non-negative number"),
        ({"elapsed_ms": False}, "elapsedMs must be a finite non-negative number"),
        ({"http_status": 99}, "httpStatus must be an HTTP status"),
        ({"http_status": 600}, "httpStatus must be an HTTP status"),
        ({"http_status": "200"}, "httpStatus must be an HTTP status"),
        ({"outcome": "done"}, "outcome must be one of"),
        ({"outcome": "OK"}, "outcome must be one of"),
        ({"outcome": "not_sent", "http_status": 200}, "a leg that was not sent cannot have an HTTP status"),
    ],
)
def test_invalid_legs_are_refused(changes, message):
    values = {"method": "tools/call", "granted_s": 30, "elapsed_ms": 1.0, "http_status": 200, "outcome": "ok"}
    values.update(changes)
    with pytest.raises(InvalidLegError, match=message):
        Leg(**values)


def test_an_invalid_leg_error_is_a_value_error():
    assert issubclass(InvalidLegError, ValueError)


@pytest.mark.parametrize("key", ["method", "outcome"])
def test_from_dict_needs_method_and_outcome(key):
    data = {"method": "m", "outcome": "ok"}
    del data[key]
    with pytest.raises(InvalidLegError, match=f"a leg needs the key '{key}'"):
        Leg.from_dict(data)


def test_from_dict_needs_a_mapping():
    with pytest.raises(InvalidLegError, match="a leg must be an object, got a list"):
        Leg.from_dict(["m", "ok"])  # type: ignore[arg-type]
