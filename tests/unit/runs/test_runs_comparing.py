"""The comparison of two runs' steps: the alignment, the differences of a pair, the summary."""

from __future__ import annotations

import itertools
import random

import pytest

from inspector.runs import aligning, comparing
from inspector.runs.aligning import align
from inspector.runs.comparing import (
    AlignedRow,
    Difference,
    StepFacts,
    compare_steps,
    differences,
    duration_change,
    step_facts,
)


def facts(kind: str, round_: int | None, name: str = "", outcome: str = "", ms: float = 10.0,
          arguments: str | None = None, result: str | None = None, sequence: int = 0) -> StepFacts:
    return StepFacts(sequence, kind, round_, name, outcome, ms, name, arguments, result)


def tool(round_: int | None, name: str, outcome: str = "ok", ms: float = 10.0, **more) -> StepFacts:
    return facts("tool", round_, name, outcome, ms, **more)


def llm(round_: int | None, ms: float = 1.0) -> StepFacts:
    return facts("llm", round_, ms=ms)


def names(first, second, pairs):
    return [(None if i is None else first[i].name or first[i].kind,
             None if j is None else second[j].name or second[j].kind) for i, j in pairs]


@pytest.mark.parametrize(("first_ms", "second_ms", "expected"), [
    (5, 8, None),  # 60 % more, but 3 ms: noise
    (20_000, 20_100, None),  # 100 ms more, but half a per cent: noise
    (1_000, 1_200, None),  # exactly 20 % and 200 ms: not beyond the threshold
    (1_000, 1_250, Difference.SLOWER),
    (1_000, 1_150, None),
    (300, 100, Difference.FASTER),  # 200 ms less, twice the shorter one
    (0, 150, Difference.SLOWER),
    (4_000, 2_000, Difference.FASTER),
])
def test_a_duration_changes_only_beyond_both_thresholds(first_ms, second_ms, expected):
    assert duration_change(first_ms, second_ms) is expected


def test_the_thresholds_are_documented_numbers():
    assert (comparing.SLOWER_RATIO, comparing.SLOWER_MS) == (0.2, 100.0)


def test_identical_runs_pair_every_step_and_are_alike():
    run = [llm(1), tool(1, "echo"), llm(2), tool(2, "add"), llm(3)]
    result = compare_steps(run, list(run))
    assert all(row.alike for row in result.rows)
    assert result.summary.alike == 5
    assert len(result.rows) == 5


def test_an_inserted_step_is_a_row_of_its_own_and_shifts_nothing_after_it():
    first = [llm(1), tool(1, "flaky", "failed"), llm(2), tool(2, "add"), llm(3)]
    second = [llm(1), tool(1, "flaky", "failed"), tool(1, "flaky"), llm(2), tool(2, "add"), llm(3)]
    rows = compare_steps(first, second).rows
    assert [(row.first is not None, row.second is not None) for row in rows] == [
        (True, True), (True, True), (False, True), (True, True), (True, True), (True, True)]
    assert rows[2].differences == {Difference.ONLY_SECOND}
    assert all(row.alike for index, row in enumerate(rows) if index != 2)


def test_a_missing_round_leaves_the_rest_paired_by_round():
    first = [llm(1), tool(1, "write_note"), llm(2), tool(2, "hang", "cancelled", 2_000)]
    second = [llm(1), tool(1, "write_note"), llm(2), tool(2, "hang"), llm(3), tool(3, "list_notes"), llm(4)]
    result = compare_steps(first, second)
    assert names(first, second, align(first, second)) == [
        ("llm", "llm"), ("write_note", "write_note"), ("llm", "llm"), ("hang", "hang"), (None, "llm"),
        (None, "list_notes"), (None, "llm")]
    assert result.rows[3].differences >= {Difference.OUTCOME}
    assert result.summary.outcome_changes == {("cancelled", "ok"): 1}
    assert result.summary.only_second == 3 and result.summary.alike == 3


def test_pairs_of_the_same_round_are_preferred():
    first = [llm(1), tool(1, "echo"), llm(2), tool(2, "echo")]
    second = [llm(2), tool(2, "echo")]
    pairs = align(first, second)
    assert pairs == [(0, None), (1, None), (2, 0), (3, 1)]


def test_different_tools_at_one_place_are_two_rows_the_first_runs_first():
    first = [llm(1), tool(1, "add"), llm(2)]
    second = [llm(1), tool(1, "echo"), llm(2)]
    assert names(first, second, align(first, second)) == [
        ("llm", "llm"), ("add", None), (None, "echo"), ("llm", "llm")]


def test_steps_only_one_run_has_come_in_the_order_of_their_rounds():
    # user-cancels against happy-path: round 2 calls hang in the first run only, the second run goes
    # on to rounds 3 and 4. The first run's round-2 step comes before the second's rounds 3 and 4,
    # not after them.
    first = [llm(1), tool(1, "write_note"), llm(2), tool(2, "hang")]
    second = [llm(1), tool(1, "write_note"), llm(2), tool(2, "add"), llm(3), tool(3, "list_notes"), llm(4)]
    assert names(first, second, align(first, second)) == [
        ("llm", "llm"), ("write_note", "write_note"), ("llm", "llm"), ("hang", None), (None, "add"),
        (None, "llm"), (None, "list_notes"), (None, "llm")]
    assert names(second, first, align(second, first)) == [
        ("llm", "llm"), ("write_note", "write_note"), ("llm", "llm"), ("add", None), (None, "hang"),
        ("llm", None), ("list_notes", None), ("llm", None)]


def test_steps_without_rounds_align_by_order_and_name():
    first = [facts("request", None, "invoke_agent"), tool(None, "lookup"), tool(None, "slow", "failed")]
    second = [facts("request", None, "invoke_agent"), facts("request", None, "initialize.mcp"),
              tool(None, "lookup"), tool(None, "slow", "ok")]
    assert names(first, second, align(first, second)) == [
        ("invoke_agent", "invoke_agent"), (None, "initialize.mcp"), ("lookup", "lookup"), ("slow", "slow")]


def _weight(first, second, pairs) -> int:
    total = 0
    for i, j in pairs:
        if i is not None and j is not None:
            assert first[i].key == second[j].key
            total += 3 if first[i].round == second[j].round else 2
    return total


def _best_weight(first, second) -> int:
    # Every order-keeping pairing, tried one by one (tiny runs only).
    best = 0
    for size in range(min(len(first), len(second)) + 1):
        for picked_first in itertools.combinations(range(len(first)), size):
            for picked_second in itertools.combinations(range(len(second)), size):
                if all(first[i].key == second[j].key for i, j in zip(picked_first, picked_second, strict=True)):
                    best = max(best, _weight(first, second, zip(picked_first, picked_second, strict=True)))
    return best


def _random_run(chooser: random.Random, length: int) -> list[StepFacts]:
    return [tool(chooser.randint(1, 3), chooser.choice("abc")) if chooser.random() < 0.7 else llm(chooser.randint(1, 3))
            for _ in range(length)]


@pytest.mark.parametrize("seed", range(40))
def test_the_alignment_keeps_order_and_pairs_the_most(seed):
    chooser = random.Random(seed)
    first, second = _random_run(chooser, chooser.randint(0, 6)), _random_run(chooser, chooser.randint(0, 6))
    pairs = align(first, second)
    # Every step appears once, in its run's order.
    assert [i for i, _ in pairs if i is not None] == list(range(len(first)))
    assert [j for _, j in pairs if j is not None] == list(range(len(second)))
    assert _weight(first, second, pairs) == _best_weight(first, second)


def test_very_long_runs_are_aligned_greedily_with_the_same_result_for_a_plain_insertion(monkeypatch):
    first = [step for number in range(1, 40) for step in (llm(number), tool(number, f"t{number % 5}"))]
    second = first[:30] + [tool(15, "retry")] + first[30:]
    exact = align(first, second)
    monkeypatch.setattr(aligning, "MAX_ALIGNED_CELLS", 10)
    assert align(first, second) == exact
    assert (None, 30) in exact


def test_the_greedy_alignment_keeps_every_step_once(monkeypatch):
    monkeypatch.setattr(aligning, "MAX_ALIGNED_CELLS", 0)
    chooser = random.Random(7)
    first, second = _random_run(chooser, 300), _random_run(chooser, 280)
    pairs = align(first, second)
    assert [i for i, _ in pairs if i is not None] == list(range(300))
    assert [j for _, j in pairs if j is not None] == list(range(280))
    assert all(first[i].key == second[j].key for i, j in pairs if i is not None and j is not None)


def test_a_step_stored_before_steps_kept_structured_content_differs_only_by_its_text():
    """A run an earlier version stored (no ``structuredContent`` key) against today's of the same answer:
    the comparison said "another result" for every tool that answers with structured content too."""
    before = {"kind": "tool", "round": 0, "durationMs": 70, "toolName": "add", "toolArguments": {"a": 2, "b": 3},
              "toolResult": "2 + 3 = 5", "toolIsError": False, "toolOutcome": "ok"}
    now = dict(before, structuredContent={"sum": 5})
    assert differences(step_facts(before, 1), step_facts(now, 1)) == frozenset()
    assert differences(step_facts(now, 1), step_facts(before, 1)) == frozenset()
    assert differences(step_facts(before, 1), step_facts(dict(now, toolResult="2 + 3 = 6"), 1)) == {Difference.RESULT}
    assert differences(step_facts(now, 1), step_facts(dict(now, structuredContent={"sum": 6}), 1)) == {
        Difference.RESULT}
    assert differences(step_facts(now, 1), step_facts(dict(before, structuredContentText='{"sum":5'), 1)) == {
        Difference.RESULT}


def test_a_tool_step_whose_trace_recorded_no_arguments_has_none_to_differ():
    """The mcp SDK's spans record no arguments, Traceloop's do: compared, the same calls read "other arguments"
    (4 of 4 in tests/fixtures/otel mcp_sdk against traceloop), a change no one made. A model's step that asked
    for no tool still differs from one that asked for one."""
    recorded = {"kind": "tool", "durationMs": 12, "toolName": "lookup", "toolArguments": {"city": "Berlin"},
                "toolResult": "Berlin: 21 °C", "toolOutcome": "ok"}
    unrecorded = {key: value for key, value in recorded.items() if key != "toolArguments"}
    assert differences(step_facts(unrecorded, 1), step_facts(recorded, 1)) == frozenset()
    assert differences(step_facts(recorded, 1), step_facts(unrecorded, 1)) == frozenset()
    assert differences(step_facts(recorded, 1), step_facts(dict(recorded, toolArguments={}), 1)) == {
        Difference.ARGUMENTS}  # a call made with none keeps {}: other arguments
    asked = {"kind": "llm", "durationMs": 1, "content": "plan", "requestedToolCalls": [{"name": "echo"}]}
    answered = {key: value for key, value in asked.items() if key != "requestedToolCalls"}
    assert differences(step_facts(answered, 1), step_facts(asked, 1)) == {Difference.ARGUMENTS}


def test_the_differences_of_a_pair():
    one = tool(1, "echo", "ok", 100.0, arguments="a", result="r")
    assert differences(one, one) == frozenset()
    assert differences(one, None) == {Difference.ONLY_FIRST}
    assert differences(None, one) == {Difference.ONLY_SECOND}
    other = tool(2, "echo", "cancelled", 2_300.0, arguments="b", result="s")
    # Another outcome: not slower as well (a cancelled call was stopped, whatever its duration), and no other
    # result: a cancelled call has none, its text is our sentence of the cancel.
    assert differences(one, other) == {Difference.OUTCOME, Difference.ARGUMENTS}
    assert differences(one, tool(2, "echo", "ok", 2_300.0, arguments="a", result="r")) == {Difference.SLOWER}
    with pytest.raises(ValueError):
        differences(None, None)


def test_a_cancelled_step_is_not_faster_than_one_that_timed_out():
    """Run 1's call timed out after 1.51 s, run 2's was cancelled after 0.80 s: the pair differs in
    its outcome only, and no count calls it faster."""
    timed_out, cancelled = tool(1, "hang", "failed", 1_510.0), tool(1, "hang", "cancelled", 800.0)
    comparison = compare_steps([timed_out], [cancelled])
    [row] = comparison.rows
    assert row.differences == {Difference.OUTCOME}
    assert row.duration_change_ms == -710.0  # the change itself is still there to read
    summary = comparison.summary
    assert (summary.faster, summary.faster_ms, summary.slower) == (0, 0.0, 0)
    assert summary.outcome_changes == {("failed", "cancelled"): 1}


def test_an_outcome_change_is_counted_under_it_alone():
    first = [tool(1, "hang", "cancelled", 2_000.0, result="cancelled"), tool(1, "echo", ms=100.0),
             tool(1, "add", ms=100.0, arguments="1"), tool(1, "fail", "failed", ms=10.0, result="x")]
    second = [tool(1, "hang", "ok", 4_100.0, result="done"), tool(1, "echo", ms=2_200.0),
              tool(1, "add", ms=40.0 + 100, arguments="2"), tool(1, "fail", "failed", ms=10.0, result="y")]
    summary = compare_steps(first, second).summary
    assert summary.outcome_changes == {("cancelled", "ok"): 1}
    assert (summary.slower, summary.slower_ms) == (1, 2_100.0)
    assert (summary.faster, summary.arguments, summary.results, summary.alike) == (0, 1, 1, 0)


def test_a_row_says_its_duration_change():
    row = AlignedRow(tool(1, "a", ms=100.0), tool(1, "a", ms=350.0), frozenset({Difference.SLOWER}))
    assert row.duration_change_ms == 250.0
    assert AlignedRow(tool(1, "a"), None, frozenset({Difference.ONLY_FIRST})).duration_change_ms is None


def test_facts_of_stored_payloads():
    payload = {"kind": "tool", "round": 2, "durationMs": 12.5, "toolName": "echo", "toolArguments": {"b": 1, "a": 2},
               "toolResult": "hi", "toolIsError": False, "toolOutcome": "ok"}
    same_arguments_reordered = dict(payload, toolArguments={"a": 2, "b": 1})
    one, other = step_facts(payload, 3), step_facts(same_arguments_reordered, 4)
    assert (one.kind, one.round, one.name, one.outcome, one.duration_ms, one.sequence) == (
        "tool", 2, "echo", "ok", 12.5, 3)
    assert one.arguments_digest == other.arguments_digest
    assert step_facts(payload, 3, has_rounds=False).round is None
    for other_value in ({"a": 2, "b": 1.0}, {"a": 2, "b": "1"}, {"a": 2, "b": True}, {"a": [2], "b": 1}):
        assert step_facts(dict(payload, toolArguments=other_value), 4).arguments_digest != one.arguments_digest
    # A model's step: the calls it asked for, whatever their ids; its reply is its result.
    asked = {"kind": "llm", "round": 1, "durationMs": 1, "content": "plan",
             "requestedToolCalls": [{"id": "call_1", "name": "echo", "arguments": {"text": "x"}}]}
    renamed = dict(asked, requestedToolCalls=[{"id": "call_9", "name": "echo", "arguments": {"text": "x"}}])
    assert step_facts(asked, 1).arguments_digest == step_facts(renamed, 1).arguments_digest
    assert step_facts(asked, 1).result_digest != step_facts(dict(asked, content="other"), 1).result_digest
    # A tool that returned structured content (and no text): another structure is another result.
    shaped = dict(payload, toolResult="The tool returned no textual content.", structuredContent={"price": 3})
    assert differences(step_facts(shaped, 1), step_facts(dict(shaped), 2)) == frozenset()
    assert differences(step_facts(shaped, 1), step_facts(dict(shaped, structuredContent={"price": 4}), 1)) == {
        Difference.RESULT}
    cut = dict(payload, toolResult="rows", structuredContentText='{"rows":[1,\n\n[Cut: …]')
    assert differences(step_facts(cut, 1), step_facts(dict(cut, structuredContentText='{"rows":[2,'), 1)) == {
        Difference.RESULT}
    # An imported span: its name stands for the tool's; a damaged row still compares.
    span = {"kind": "request", "round": 0, "durationMs": 3, "raw": {"otlp": {"name": "tools/list.mcp"}}}
    assert step_facts(span, 1).name == "tools/list.mcp"
    odd = step_facts({"kind": 5, "round": "x", "durationMs": True}, 1)
    assert (odd.kind, odd.round, odd.duration_ms, odd.outcome) == ("", None, 0.0, "")
    # A legacy step: its outcome from toolIsError, as the timeline reads it.
    assert step_facts({"kind": "tool", "round": 1, "durationMs": 1, "toolIsError": True}, 1).outcome == "failed"


@pytest.mark.parametrize(("first", "second", "expected", "failed_both"), [
    (("ok", "done"), ("ok", "done"), set(), False),
    (("ok", "done"), ("ok", "other"), {Difference.RESULT}, False),
    # Two calls that failed with other messages: their texts are their errors.
    (("failed", "upstream 503"), ("failed", "upstream 504"), {Difference.RESULT}, True),
    # Our own sentences of why there is no answer, which differ with the moment and the source.
    (("cancelled", "You cancelled before it was sent."), ("cancelled", "You cancelled after it was sent."), set(),
     False),
    (("", "no outcome recorded: the span ended without a status"),
     ("", "no outcome recorded: the client stopped waiting 10 ms before"), set(), False),
    (("", "no outcome recorded: the span ended without a status"), ("ok", "done"), {Difference.OUTCOME}, False),
    (("cancelled", "You cancelled it."), ("ok", "done"), {Difference.OUTCOME}, False),
    (("failed", "upstream 503"), ("ok", "done"), {Difference.OUTCOME, Difference.RESULT}, False),
])
def test_each_pairing_of_outcomes_differs_only_in_what_both_recorded(first, second, expected, failed_both):
    """Two calls with no outcome recorded (the mcp SDK's and Traceloop's "not recorded · 0.2 s") ended alike: only
    their durations may differ, never "another result" from the importer's sentences of why none was recorded."""
    one = tool(1, "slow", first[0], 200.0, arguments="a", result=first[1])
    other = tool(1, "slow", second[0], 201.0, arguments="a", result=second[1])
    assert differences(one, other) == expected
    row = AlignedRow(one, other, differences(one, other))
    assert row.failed_both is failed_both
    summary = compare_steps([one], [other]).summary
    assert (summary.alike, summary.error_messages) == (int(not expected), int(failed_both))
    assert summary.results == int(expected == {Difference.RESULT})


def test_a_traced_call_that_kept_no_answer_text_has_none_to_differ():
    """The mcp SDK's spans keep no answer: its "lookup" (text "") said "another result" beside Traceloop's "Berlin:
    21 °C, clear". A call made here that answered "" did answer so."""
    traced = {"kind": "tool", "durationMs": 6, "toolName": "lookup", "toolResult": "", "toolOutcome": "ok",
              "toolIsError": False, "raw": {"otlp": {"name": "MCP send tools/call lookup"}}}
    answered = {**traced, "toolResult": "Berlin: 21 °C, clear", "raw": {"otlp": {"name": "lookup.tool"}}}
    assert differences(step_facts(traced, 1), step_facts(answered, 1)) == frozenset()
    assert differences(step_facts(answered, 1), step_facts(traced, 1)) == frozenset()
    here = {key: value for key, value in traced.items() if key != "raw"}
    assert differences(step_facts(here, 1), step_facts({**here, "toolResult": "x"}, 1)) == {Difference.RESULT}
