"""ToolResult: factories, invariants, fail-closed cancellation and bounding."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.runs import (
    MAX_ARTIFACTS,
    MAX_CONTENT_BYTES,
    Artifact,
    ToolOutcome,
    ToolResult,
    WriteTarget,
)
from inspector.runs.bounding import utf8_size

PNG = Artifact(name="chart.png", media_type="image/png", data="iVBORw0KGgo=")
TARGET = WriteTarget(table="tt_content", uid=42)


# -- factories -------------------------------------------------------------


def test_text_is_ok_and_keeps_artifacts_and_write_target():
    result = ToolResult.text("done", artifacts=[PNG], write_target=TARGET)
    assert result.outcome is ToolOutcome.OK
    assert result.is_error is False
    assert result.artifacts == (PNG,)
    assert isinstance(result.artifacts, tuple)
    assert result.write_target == TARGET
    assert result.cancelled_in_flight is None


def test_text_defaults_to_no_artifacts_and_no_write_target():
    result = ToolResult.text("done")
    assert result.artifacts == ()
    assert result.write_target is None


def test_error_is_failed_with_nothing_else():
    result = ToolResult.error("boom")
    assert (result.content, result.outcome, result.is_error) == ("boom", ToolOutcome.FAILED, True)
    assert result.artifacts == ()
    assert result.write_target is None
    assert result.cancelled_in_flight is None


@pytest.mark.parametrize("in_flight", [True, False])
def test_cancelled_is_fail_closed_like_error(in_flight):
    result = ToolResult.cancelled("stopped by the user", in_flight=in_flight)
    assert result.outcome is ToolOutcome.CANCELLED
    assert result.is_error is True
    assert result.artifacts == ()
    assert result.write_target is None
    assert result.cancelled_in_flight is in_flight


def test_cancelled_is_not_failed():
    assert ToolResult.cancelled("x", in_flight=False) != ToolResult.error("x")


def test_a_result_is_immutable():
    result = ToolResult.text("x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.outcome = ToolOutcome.FAILED  # type: ignore[misc]


def test_an_outcome_given_as_its_string_is_normalised():
    result = ToolResult("x", True, (), "cancelled", None, True)  # type: ignore[arg-type]
    assert result.outcome is ToolOutcome.CANCELLED
    assert result == ToolResult.cancelled("x", in_flight=True)


# -- invariants ------------------------------------------------------------


@pytest.mark.parametrize(
    "is_error, outcome",
    [(True, ToolOutcome.OK), (False, ToolOutcome.FAILED), (False, ToolOutcome.CANCELLED)],
)
def test_is_error_must_agree_with_the_outcome(is_error, outcome):
    in_flight = True if outcome is ToolOutcome.CANCELLED else None
    with pytest.raises(ValueError, match="contradicts outcome") as caught:
        ToolResult("x", is_error, (), outcome, None, in_flight)
    assert "is_error must be true exactly when the outcome is not ok" in str(caught.value)


@pytest.mark.parametrize("outcome", [ToolOutcome.FAILED, ToolOutcome.CANCELLED])
def test_a_non_ok_result_carries_no_artifacts(outcome):
    in_flight = True if outcome is ToolOutcome.CANCELLED else None
    with pytest.raises(ValueError, match=f"a {outcome.value} tool result carries no artifacts"):
        ToolResult("x", True, (PNG,), outcome, None, in_flight)


@pytest.mark.parametrize("outcome", [ToolOutcome.FAILED, ToolOutcome.CANCELLED])
def test_a_non_ok_result_carries_no_write_target(outcome):
    in_flight = False if outcome is ToolOutcome.CANCELLED else None
    with pytest.raises(ValueError, match=f"a {outcome.value} tool result carries no write target"):
        ToolResult("x", True, (), outcome, TARGET, in_flight)


@pytest.mark.parametrize(
    "is_error, outcome", [(False, ToolOutcome.OK), (True, ToolOutcome.FAILED)]
)
@pytest.mark.parametrize("in_flight", [True, False])
def test_cancelled_in_flight_is_only_for_cancelled_results(is_error, outcome, in_flight):
    with pytest.raises(ValueError, match="cancelled_in_flight is only for cancelled results"):
        ToolResult("x", is_error, (), outcome, None, in_flight)


@pytest.mark.parametrize("in_flight", [None, 1, "yes"])
def test_a_cancelled_result_must_say_whether_the_request_was_sent(in_flight):
    with pytest.raises(ValueError, match="must say whether the request had been sent"):
        ToolResult("x", True, (), ToolOutcome.CANCELLED, None, in_flight)


@pytest.mark.parametrize("outcome", ["aborted", None, 1, "OK"])
def test_an_unknown_outcome_is_refused(outcome):
    with pytest.raises(ValueError, match="ToolResult.outcome must be one of"):
        ToolResult("x", False, (), outcome, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("is_error", [0, 1, None, "false"])
def test_is_error_must_be_a_bool(is_error):
    with pytest.raises(ValueError, match="ToolResult.is_error must be a bool"):
        ToolResult("x", is_error, (), ToolOutcome.OK, None)  # type: ignore[arg-type]


def test_content_must_be_text():
    with pytest.raises(ValueError, match="ToolResult.content must be a string"):
        ToolResult.text(b"bytes")  # type: ignore[arg-type]


def test_artifacts_must_be_artifacts():
    with pytest.raises(ValueError, match="ToolResult.artifacts must hold Artifact values"):
        ToolResult.text("x", artifacts=[{"name": "a"}])  # type: ignore[list-item]


def test_write_target_must_be_a_write_target():
    with pytest.raises(ValueError, match="ToolResult.write_target must be a WriteTarget"):
        ToolResult.text("x", write_target=("tt_content", 1))  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["name", "media_type", "data"])
def test_artifact_fields_must_be_text(field):
    values = {"name": "a", "media_type": "text/plain", "data": "x", field: 1}
    with pytest.raises(ValueError, match=f"Artifact.{field} must be a string"):
        Artifact(**values)


def test_artifact_to_dict_uses_camel_case():
    assert PNG.to_dict() == {"name": "chart.png", "mediaType": "image/png", "data": "iVBORw0KGgo="}


@pytest.mark.parametrize("table", ["", None, 3])
def test_write_target_needs_a_table(table):
    with pytest.raises(ValueError, match="WriteTarget.table must be a non-empty string"):
        WriteTarget(table=table, uid=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("uid", [-1, True, "1", 1.0])
def test_write_target_uid_is_a_non_negative_whole_number(uid):
    with pytest.raises(ValueError, match="WriteTarget.uid must be a non-negative whole number"):
        WriteTarget(table="pages", uid=uid)  # type: ignore[arg-type]


# -- with_bounded_channels ---------------------------------------------------


def test_the_reference_content_bound_is_50000_bytes():
    assert MAX_CONTENT_BYTES == 50_000


def test_a_small_result_is_unchanged_by_bounding():
    result = ToolResult.text("short", artifacts=[PNG], write_target=TARGET)
    assert result.with_bounded_channels() == result


def _bounded_variants():
    long = "x" * (MAX_CONTENT_BYTES + 10)
    return [
        ToolResult.text(long, artifacts=[PNG], write_target=TARGET),
        ToolResult.error(long),
        ToolResult.cancelled(long, in_flight=True),
        ToolResult.cancelled(long, in_flight=False),
    ]


@pytest.mark.parametrize("result", _bounded_variants(),
                         ids=["ok", "failed", "cancelled-in-flight", "cancelled-before-send"])
def test_bounding_keeps_everything_but_the_cut_content(result):
    bounded = result.with_bounded_channels()
    assert utf8_size(bounded.content) <= MAX_CONTENT_BYTES
    assert bounded.content != result.content
    assert f"{utf8_size(result.content):,} bytes" in bounded.content
    assert bounded.outcome is result.outcome
    assert bounded.is_error is result.is_error
    assert bounded.cancelled_in_flight is result.cancelled_in_flight
    assert bounded.artifacts == result.artifacts
    assert bounded.write_target == result.write_target


@pytest.mark.parametrize("char", ["é", "😀"])
@pytest.mark.parametrize("offset", range(4))
def test_bounding_cuts_multibyte_content_on_a_character_boundary(char, offset):
    original = "a" * offset + char * (MAX_CONTENT_BYTES // len(char.encode()) + 5)
    bounded = ToolResult.cancelled(original, in_flight=True).with_bounded_channels()
    content = bounded.content
    assert utf8_size(content) <= MAX_CONTENT_BYTES
    kept = content[: content.rindex("\n\n[Cut")]
    kept.encode("utf-8")  # strict: a split code point cannot survive this
    assert original.startswith(kept)
    assert utf8_size(kept) > MAX_CONTENT_BYTES - 300  # not cut far more than needed
    assert bounded.outcome is ToolOutcome.CANCELLED


def test_content_just_under_the_bound_with_multibyte_text_is_unchanged():
    content = "a" * (MAX_CONTENT_BYTES - 4) + "😀"  # exactly 50,000 bytes
    assert ToolResult.text(content).with_bounded_channels().content == content
    over = content + "é"
    assert ToolResult.text(over).with_bounded_channels().content != over


def test_bounding_keeps_at_most_max_artifacts_in_order():
    artifacts = [Artifact(f"a{i}", "text/plain", str(i)) for i in range(MAX_ARTIFACTS + 5)]
    bounded = ToolResult.text("x", artifacts=artifacts).with_bounded_channels()
    assert bounded.artifacts == tuple(artifacts[:MAX_ARTIFACTS])
    assert ToolResult.text("x", artifacts=artifacts).with_bounded_channels(max_artifacts=2).artifacts == tuple(
        artifacts[:2]
    )


def test_custom_content_bound():
    bounded = ToolResult.error("y" * 2000).with_bounded_channels(max_content_bytes=500)
    assert utf8_size(bounded.content) <= 500
    assert bounded.outcome is ToolOutcome.FAILED


@pytest.mark.parametrize("max_artifacts", [-1, True, 2.0])
def test_max_artifacts_must_be_a_non_negative_whole_number(max_artifacts):
    with pytest.raises(ValueError, match="max_artifacts must be a non-negative whole number"):
        ToolResult.text("x").with_bounded_channels(max_artifacts=max_artifacts)


_results = st.one_of(
    st.builds(ToolResult.text, st.text()),
    st.builds(ToolResult.error, st.text()),
    st.builds(ToolResult.cancelled, st.text(), st.booleans()),
)


@given(result=_results, limit=st.integers(min_value=200, max_value=5000))
def test_bounding_always_fits_and_never_changes_the_outcome(result, limit):
    bounded = result.with_bounded_channels(max_content_bytes=limit)
    assert utf8_size(bounded.content) <= limit
    assert (bounded.outcome, bounded.is_error, bounded.cancelled_in_flight) == (
        result.outcome,
        result.is_error,
        result.cancelled_in_flight,
    )
    assert bounded.with_bounded_channels(max_content_bytes=limit) == bounded


def test_content_blocks_are_bounded_in_count_and_text_and_stored_with_the_step():
    from inspector.runs import MAX_CONTENT_BLOCKS, RunStep, RunTrace
    from inspector.runs.result import MAX_RESOURCE_TEXT_BYTES

    long_text = "x" * (MAX_RESOURCE_TEXT_BYTES + 500)
    blocks = [{"type": "resource", "uri": "memo://big", "text": long_text}] + \
             [{"type": "resource_link", "uri": f"file:///{n}"} for n in range(MAX_CONTENT_BLOCKS + 49)]
    bounded = ToolResult.text("listing", content_blocks=blocks).with_bounded_channels()
    assert len(bounded.content_blocks) == MAX_CONTENT_BLOCKS
    assert bounded.content_blocks_dropped == 50
    assert len(bounded.content_blocks[0]["text"].encode()) <= MAX_RESOURCE_TEXT_BYTES
    assert "Cut" in bounded.content_blocks[0]["text"]
    assert bounded.with_bounded_channels() == bounded  # bounding twice changes nothing
    blocks.append("not a block")
    with pytest.raises(ValueError):
        ToolResult.text("x", content_blocks=blocks)

    step = RunTrace().record_tool_result(0, "ls", {}, bounded, 1.0)
    payload = step.to_payload()
    assert payload["contentBlocks"][1] == {"type": "resource_link", "uri": "file:///0"}
    assert payload["contentBlocksDropped"] == 50
    assert RunStep.from_payload(payload) == step


def test_a_tool_error_keeps_its_blocks_a_cancel_has_none():
    failed = ToolResult.error("it broke", content_blocks=[{"type": "resource_link", "uri": "file:///log"}])
    assert failed.content_blocks == ({"type": "resource_link", "uri": "file:///log"},)
    with pytest.raises(ValueError, match="no content blocks"):
        ToolResult(content="x", is_error=True, artifacts=(), outcome=ToolOutcome.CANCELLED, write_target=None,
                   cancelled_in_flight=True, content_blocks=({"type": "image"},))


def test_structured_content_is_kept_whole_within_the_bound_of_the_text_and_stored_with_the_step():
    """A tool may answer with structured content alone (no text block): the step kept none of it, and
    every view of the stored run said only "The tool returned no textual content"."""
    from inspector.runs import RunStep, RunTrace

    structured = {"items": [{"price": 3, "note": "Grüße"}]}
    bounded = ToolResult.text("The tool returned no textual content.",
                              structured_content=structured).with_bounded_channels()
    step = RunTrace().record_tool_result(0, "structure_only", {}, bounded, 1.0)
    payload = step.to_payload()
    assert payload["structuredContent"] == structured and "structuredContentText" not in payload
    assert RunStep.from_payload(payload) == step
    failed = ToolResult.error("breaks its schema", structured_content=structured)  # what broke it is kept
    assert RunTrace().record_tool_result(0, "quote", {}, failed, 1.0).to_payload()["structuredContent"] == structured
    with pytest.raises(ValueError, match="no structured content"):
        ToolResult(content="x", is_error=True, artifacts=(), outcome=ToolOutcome.CANCELLED, write_target=None,
                   cancelled_in_flight=True, structured_content=structured)


def test_structured_content_past_the_bound_is_kept_as_its_json_text_cut_as_the_text_is():
    from inspector.runs import RunStep, RunTrace

    structured = {"rows": [{"name": "Grüße", "n": number} for number in range(5000)]}  # 138,900 bytes of JSON
    bounded = ToolResult.text("rows", structured_content=structured).with_bounded_channels()
    kept = bounded.structured_content
    assert isinstance(kept, str) and utf8_size(kept) <= MAX_CONTENT_BYTES
    assert kept.startswith('{"rows":[{"name":"Grüße","n":0},')
    assert "[Cut: the original content had 138,900 bytes (UTF-8)" in kept
    assert bounded.with_bounded_channels() == bounded  # bounding twice changes nothing
    payload = RunTrace().record_tool_result(0, "rows", {}, bounded, 1.0).to_payload()
    assert payload["structuredContentText"] == kept and "structuredContent" not in payload
    assert RunStep.from_payload(payload).structured_content_text == kept


def test_structured_content_too_deep_to_write_is_said_not_kept_and_never_raises():
    from inspector.runs.result import TOO_DEEP_NOTE

    deep = 1
    for _ in range(5000):  # deeper than Python's recursion limit: json.dumps cannot write it
        deep = {"a": deep}
    assert ToolResult.text("", structured_content=deep).with_bounded_channels().structured_content == TOO_DEEP_NOTE
