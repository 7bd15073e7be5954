"""The timeline's reading of stored payloads: outcome, label key, details, order."""

from datetime import datetime, timedelta, timezone

import pytest

from inspector.runs import TimelineEntry, ToolOutcome, ordered, outcome_label_key, step_details, step_outcome
from inspector.runs.timeline import (
    CANCELLED_BEFORE_SEND_NOTE,
    CANCELLED_IN_FLIGHT_NOTE,
    MAX_DETAILS_CHARS,
)

UTC = timezone.utc


# -- step_outcome ------------------------------------------------------------


@pytest.mark.parametrize("is_error, expected", [(False, "ok"), (True, "failed")])
def test_a_legacy_row_shows_the_outcome_it_always_had(is_error, expected):
    assert step_outcome({"kind": "tool", "toolIsError": is_error}) == expected


@pytest.mark.parametrize("is_error", [None, 0, 1, "true", "false", [], {}])
def test_a_tool_is_error_that_is_not_a_bool_gives_no_outcome(is_error):
    assert step_outcome({"kind": "tool", "toolIsError": is_error, "toolOutcome": "failed"}) == ""


def test_a_step_without_tool_is_error_gives_no_outcome_even_with_an_outcome():
    assert step_outcome({"kind": "llm"}) == ""
    assert step_outcome({"kind": "tool", "toolOutcome": "cancelled"}) == ""


@pytest.mark.parametrize("outcome", ["ok", "failed", "cancelled"])
def test_a_valid_tool_outcome_is_shown(outcome):
    is_error = outcome != "ok"
    assert step_outcome({"toolIsError": is_error, "toolOutcome": outcome}) == outcome


@pytest.mark.parametrize("outcome", ["aborted", "CANCELLED", "", 1, None, ["cancelled"]])
@pytest.mark.parametrize("is_error, expected", [(True, "failed"), (False, "ok")])
def test_an_invalid_tool_outcome_falls_back_to_the_boolean(outcome, is_error, expected):
    assert step_outcome({"toolIsError": is_error, "toolOutcome": outcome}) == expected


def test_the_boolean_decides_whether_the_outcome_decides_which():
    # As specified: a valid outcome wins once the boolean says there is one.
    assert step_outcome({"toolIsError": False, "toolOutcome": "cancelled"}) == "cancelled"


def test_a_payload_that_is_not_a_mapping_gives_no_outcome():
    assert step_outcome(None) == ""  # type: ignore[arg-type]
    assert step_outcome([("toolIsError", True)]) == ""  # type: ignore[arg-type]


# -- outcome_label_key ---------------------------------------------------------


@pytest.mark.parametrize("outcome", ["ok", "failed", "cancelled"])
def test_the_label_key_ends_with_the_outcome_string(outcome):
    assert outcome_label_key(outcome) == f"outcome.{outcome}"


def test_a_member_gives_the_same_key_as_its_string():
    key = outcome_label_key(ToolOutcome.CANCELLED)
    assert key == "outcome.cancelled" and type(key) is str


def test_no_outcome_has_no_label():
    assert outcome_label_key("") == ""


@pytest.mark.parametrize("outcome", ["canceled", "OK", "not_sent", None])
def test_an_unknown_outcome_has_no_key_and_says_so(outcome):
    with pytest.raises(ValueError, match="no label for unknown outcome"):
        outcome_label_key(outcome)  # type: ignore[arg-type]


# -- TimelineEntry -------------------------------------------------------------


def _entry(**changes):
    values = dict(
        time=datetime(2026, 9, 6, 12, 0, tzinfo=UTC),
        source="agent",
        kind="tool",
        round=1,
        duration_ms=1.0,
        outcome="ok",
        details="",
        sequence=0,
    )
    values.update(changes)
    return TimelineEntry(**values)


def test_outcome_constants():
    assert (
        TimelineEntry.OUTCOME_OK,
        TimelineEntry.OUTCOME_FAILED,
        TimelineEntry.OUTCOME_CANCELLED,
        TimelineEntry.OUTCOME_NONE,
    ) == ("ok", "failed", "cancelled", "")


def test_a_naive_time_is_refused():
    with pytest.raises(ValueError, match="time must be timezone-aware"):
        _entry(time=datetime(2026, 9, 6, 12, 0))


def test_a_time_that_is_not_a_datetime_is_refused():
    with pytest.raises(ValueError, match="time must be a datetime or None"):
        _entry(time="2026-09-06T12:00:00Z")


def test_an_aware_time_is_converted_to_utc():
    berlin = timezone(timedelta(hours=2))
    entry = _entry(time=datetime(2026, 9, 6, 14, 0, tzinfo=berlin))
    assert entry.time == datetime(2026, 9, 6, 12, 0, tzinfo=UTC)
    assert entry.time.utcoffset() == timedelta(0)


@pytest.mark.parametrize("outcome", ["not_sent", "OK", "aborted", None])
def test_an_unknown_outcome_is_refused(outcome):
    with pytest.raises(ValueError, match="outcome must be one of"):
        _entry(outcome=outcome)


def test_entries_order_by_time_then_sequence_with_timeless_rows_last():
    t0 = datetime(2026, 9, 6, 12, 0, tzinfo=UTC)
    late = _entry(time=t0 + timedelta(seconds=1), sequence=0)
    first = _entry(time=t0, sequence=1)
    second = _entry(time=t0, sequence=2)
    timeless = _entry(time=None, sequence=0)
    assert ordered([timeless, late, second, first]) == [timeless, first, second, late]


def test_an_entry_from_a_stored_payload():
    payload = {
        "kind": "tool", "round": 2, "durationMs": 12.5, "toolName": "search",
        "toolResult": "3 hits\nmore", "toolIsError": True, "toolOutcome": "cancelled",
        "cancelledInFlight": False,
    }  # fmt: skip
    time = datetime(2026, 9, 6, tzinfo=UTC)
    entry = TimelineEntry.from_step_payload(payload, sequence=4, time=time, source="mcp:docs")
    assert entry == TimelineEntry(
        time=time,
        source="mcp:docs",
        kind="tool",
        round=2,
        duration_ms=12.5,
        outcome="cancelled",
        details=f"search: {CANCELLED_BEFORE_SEND_NOTE}",
        sequence=4,
    )


def test_an_entry_from_an_odd_payload_still_shows():
    entry = TimelineEntry.from_step_payload({"kind": 3, "round": True, "durationMs": "x"}, sequence=0)
    assert (entry.kind, entry.round, entry.duration_ms, entry.outcome) == ("", 0, 0.0, "")


# -- step_details --------------------------------------------------------------


def test_tool_details_give_the_name_and_the_first_line_of_the_result():
    payload = {"kind": "tool", "toolName": "search", "toolResult": "\n  3 hits  \nsecond line", "toolIsError": False}
    assert step_details(payload) == "search: 3 hits"


def test_failed_tool_details_give_the_first_line_of_the_error():
    payload = {"kind": "tool", "toolName": "search", "toolResult": "HTTP 502\ntrace", "toolIsError": True}
    assert step_details(payload) == "search: HTTP 502"


def test_a_call_cancelled_in_flight_says_the_remote_write_is_unknown():
    payload = {
        "kind": "tool", "toolName": "save", "toolResult": "Cancelled", "toolIsError": True,
        "toolOutcome": "cancelled", "cancelledInFlight": True,
    }  # fmt: skip
    details = step_details(payload)
    assert details == f"save: {CANCELLED_IN_FLIGHT_NOTE}"
    assert "the request had been sent; whether the remote side acted on it is unknown" in details


def test_a_call_cancelled_before_send_says_so():
    payload = {
        "kind": "tool", "toolName": "save", "toolIsError": True,
        "toolOutcome": "cancelled", "cancelledInFlight": False,
    }  # fmt: skip
    assert step_details(payload) == "save: cancelled before the request was sent"


def test_a_long_tool_name_never_cuts_the_cancellation_note():
    payload = {
        "kind": "tool", "toolName": "t" * 300, "toolIsError": True,
        "toolOutcome": "cancelled", "cancelledInFlight": True,
    }  # fmt: skip
    details = step_details(payload)
    assert details.endswith(CANCELLED_IN_FLIGHT_NOTE)
    assert len(details) <= MAX_DETAILS_CHARS


def test_tool_details_mention_a_write_target():
    payload = {"kind": "tool", "toolName": "save", "toolResult": "saved", "toolIsError": False,
               "writeTargetTable": "tt_content", "writeTargetUid": 7}  # fmt: skip
    assert step_details(payload) == "save: saved (wrote tt_content #7)"


def test_llm_details_preview_the_reply():
    assert step_details({"kind": "llm", "content": "Here is the answer.\nMore."}) == "Here is the answer."


def test_llm_details_without_text_count_the_requested_calls():
    assert step_details({"kind": "llm", "content": "", "requestedToolCalls": [{}, {}]}) == "requested 2 tool calls"
    assert step_details({"kind": "llm", "requestedToolCalls": [{}]}) == "requested 1 tool call"
    assert step_details({"kind": "llm", "finishReason": "length"}) == "length"


def test_long_details_are_shortened_to_one_line():
    details = step_details({"kind": "llm", "content": "word " * 100})
    assert len(details) == MAX_DETAILS_CHARS
    assert details.endswith("…")
    assert "\n" not in details


def test_other_kinds():
    assert step_details({"kind": "dropped", "droppedSources": ["a", "b"]}) == "dropped 2 sources"
    assert step_details({"kind": "dropped", "droppedSources": ["a"]}) == "dropped 1 source"
    assert step_details({"kind": "tool_write", "writeTargetTable": "pages", "writeTargetUid": 3}) == "wrote pages #3"
    assert step_details({"kind": "context", "content": "budget ok"}) == "budget ok"
    assert step_details({"kind": "request"}) == ""


def test_details_never_fail_on_odd_payloads():
    assert step_details(None) == ""  # type: ignore[arg-type]
    assert step_details({"kind": "tool", "toolName": 3, "toolResult": ["x"]}) == ""
