"""Progress notes kept with a step: checked like every payload key, bounded to the first and last."""

from __future__ import annotations

import pytest

from inspector.mcp.reports import KEEP_FIRST_PROGRESS, KEEP_LAST_PROGRESS
from inspector.runs import InvalidStepError, RunStep, RunTrace, ToolResult
from inspector.runs.progress import KEEP_FIRST, KEEP_LAST, MAX_MESSAGE_CHARS, bound_progress, progress_note


def notes(count: int) -> list[dict]:
    return [progress_note(float(n), n, count, f"step {n}") for n in range(count)]


def test_the_notes_a_recorder_drops_are_counted_with_the_steps():
    """A long call's recorder keeps as many notes as a step does; the ones it dropped are added."""
    assert (KEEP_FIRST_PROGRESS, KEEP_LAST_PROGRESS) == (KEEP_FIRST, KEEP_LAST)
    kept = notes(KEEP_FIRST) + notes(KEEP_LAST)
    step = RunTrace().record_tool_result(0, "slow", {}, ToolResult.text("done"), 5.0, progress=kept,
                                         progress_dropped=9_950)
    assert len(step.to_payload()["progress"]) == 50 and step.to_payload()["progressDropped"] == 9_950


def test_a_step_keeps_the_first_and_last_notes_and_counts_the_rest():
    step = RunTrace().record_tool_result(0, "slow", {}, ToolResult.text("done"), 5.0, progress=notes(3000))
    payload = step.to_payload()
    kept = payload["progress"]
    assert len(kept) == KEEP_FIRST + KEEP_LAST
    assert [note["progress"] for note in kept[:KEEP_FIRST]] == list(range(KEEP_FIRST))
    assert [note["progress"] for note in kept[KEEP_FIRST:]] == list(range(3000 - KEEP_LAST, 3000))
    assert payload["progressDropped"] == 3000 - KEEP_FIRST - KEEP_LAST
    assert kept[0] == {"atMs": 0.0, "progress": 0, "total": 3000, "message": "step 0"}
    assert RunStep.from_payload(payload) == step


def test_few_notes_are_all_kept_and_none_means_no_key():
    assert bound_progress(notes(5)) == (notes(5), 0)
    payload = RunTrace().record_tool_result(0, "t", {}, ToolResult.text("x"), 1.0).to_payload()
    assert "progress" not in payload and "progressDropped" not in payload


def test_a_long_message_is_cut():
    note = progress_note(1.0, 1, None, "x" * 10_000)
    assert len(note["message"]) == MAX_MESSAGE_CHARS and note["message"].endswith("…")


@pytest.mark.parametrize("bad", [
    "not a list", [{"progress": 1}], [{"atMs": -1, "progress": 1}], [{"atMs": 1, "progress": float("nan")}],
    [{"atMs": 1, "progress": 1, "total": "ten"}], [{"atMs": 1, "progress": 1, "message": 5}],
    [{"atMs": True, "progress": 1}], [{"atMs": 1, "progress": 10**400}], ["note"],
])
def test_a_stored_note_of_the_wrong_shape_is_refused_naming_the_key(bad):
    with pytest.raises(InvalidStepError, match="progress"):
        RunStep.from_payload({"kind": "request", "round": 0, "durationMs": 1, "progress": bad})
