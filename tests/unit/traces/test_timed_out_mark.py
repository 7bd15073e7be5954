"""The importer keeps its finding that a call timed out in the step's payload (``raw.otlp.timedOut``,
on the timed-out steps only), and the OTLP export writes nothing of it into the span: the exported
trace is the file it came from (the field-by-field round trip is test_otlp_foreign_roundtrip.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.runs.ending import TIMED_OUT_MARK, payload_timed_out, stored_ending
from inspector.store import RunStore
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"


@pytest.mark.parametrize(("fixture", "timed_out"), [("traceloop.jsonl", {11}), ("mcp_sdk.jsonl", {5}),
                                                    ("fastmcp.jsonl", {5, 10})])
def test_only_the_timed_out_calls_are_marked_and_the_export_says_nothing_new(tmp_path: Path, fixture: str,
                                                                              timed_out: set[int]) -> None:
    with RunStore.open(str(tmp_path / "runs.db")) as store:
        import_trace(store, FIXTURES / fixture)
        steps = [step for run in store.list_runs(limit=None) for step in store.iter_steps(run.id)]
        marked = {step.sequence for step in steps if TIMED_OUT_MARK in step.payload["raw"]["otlp"]}
        assert marked == timed_out
        for step in steps:
            said = payload_timed_out(step.payload)
            assert said == (step.sequence in timed_out)
            if said:  # a failed call, whose note names the time-out (its error's own words, where they say it)
                assert step.payload["toolOutcome"] == "failed"
                note = step.payload["raw"]["otlp"]["notes"][0]
                assert note["template"] in ("{error}", "{error} (JSON-RPC error {value})")  # its error says it
                assert note["text"].lower().count("timed out") + note["text"].count("Timeout") == 1
                assert stored_ending("failed", (), step.payload) == "timed_out"
        target = tmp_path / "again.json"
        export(store, None, None, target, format="otlp")
        assert TIMED_OUT_MARK not in target.read_text(encoding="utf-8")


def test_a_payload_without_the_mark_or_with_a_strangers_value_is_no_time_out() -> None:
    for payload in (None, {}, {"raw": None}, {"raw": {"otlp": []}}, {"raw": {"otlp": {TIMED_OUT_MARK: "yes"}}},
                    {"raw": {"otlp": {TIMED_OUT_MARK: 1}}}):
        assert not payload_timed_out(payload)
        assert stored_ending("failed", (), payload) == "failed"
