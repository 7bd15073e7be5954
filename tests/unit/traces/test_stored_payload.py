"""An importer writes a foreign step's checked payload without building the step: the row it
writes is the one the step would give, and whatever the fast form leaves aside the step decides."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from inspector.runs import InvalidStepError, RunStep
from inspector.runs.step import StoredPayload, stored_payload
from inspector.store import step_row
from inspector.traces.format import RunHeader, TraceStep
from inspector.traces.progress import ProgressMeter
from inspector.traces.reader import read_file, reader_for
from inspector.traces.sniff import sniff

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"


class _Collect:
    def __init__(self) -> None:
        self.steps: list[tuple[Any, TraceStep]] = []

    def run(self, key: Any, header: RunHeader, path: Any) -> None:
        pass

    def step(self, key: Any, step: TraceStep, path: Any, size: int = 0) -> None:
        self.steps.append((key, step))


def _rows(source: Path, stored: bool) -> list[tuple[Any, ...]]:
    kind = sniff(source)
    sink = _Collect()
    read_file(source, kind, reader_for(kind, sink, checking=True, stored_payloads=stored), ProgressMeter(None, 1, 1),
              source.stat().st_size)
    return [(key, step.sequence, step.started_at, type(step.step) is StoredPayload, step_row(step.step))
            for key, step in sink.steps]


@pytest.mark.parametrize("fixture", ["mcp_sdk.jsonl", "traceloop.jsonl"])
def test_the_real_traces_give_the_same_rows_either_way(fixture: str) -> None:
    fast, steps = _rows(FIXTURES / fixture, True), _rows(FIXTURES / fixture, False)
    assert fast and all(row[3] for row in fast) and not any(row[3] for row in steps)
    assert [row[:3] + row[4:] for row in fast] == [row[:3] + row[4:] for row in steps]


BASE = {"kind": "tool", "round": 0, "durationMs": 12.345, "toolName": "echo"}
CASES: list[dict[str, Any]] = [
    BASE,
    {**BASE, "durationMs": 3},
    {**BASE, "durationMs": 0},
    {**BASE, "toolIsError": True, "toolOutcome": "failed", "toolResult": "boom"},
    {**BASE, "toolIsError": False, "toolOutcome": "failed"},
    {**BASE, "toolOutcome": "ok"},
    {**BASE, "toolIsError": True, "toolOutcome": "cancelled", "cancelledInFlight": True},
    {**BASE, "cancelledInFlight": True},
    {**BASE, "kind": "llm", "toolOutcome": "ok", "toolIsError": False},
    {**BASE, "toolArguments": {"a": [1, 2.5, None, {"b": True}]}, "raw": {"otlp": {"x": ("t", 1)}}},
    {**BASE, "toolArguments": {1: "not a string key"}},
    {**BASE, "toolArguments": {"a": {1, 2}}},
    {**BASE, "raw": "text"},
    {**BASE, "round": -1},
    {**BASE, "round": True},
    {**BASE, "durationMs": math.inf},
    {**BASE, "durationMs": -1.0},
    {**BASE, "durationMs": 10**400},
    {**BASE, "kind": "nonsense"},
    {**BASE, "toolName": 5},
    {**BASE, "unknown": object(), "note": None},
    {**BASE, "legs": []},
    {**BASE, "legs": [{"method": "tools/call", "grantedS": 3, "elapsedMs": 5.0, "httpStatus": 200,
                       "outcome": "ok"}]},
    {"kind": "llm", "round": 2, "durationMs": 1.0, "content": "hi", "promptTokens": 3, "completionTokens": 4,
     "messages": [{"role": "user", "content": "x"}], "note": "seen"},
    {"kind": "llm", "round": 0, "durationMs": 1.0, "promptTokens": -3},
    {"kind": "request", "round": 0, "durationMs": 1.0, "content": "x", "transport": "nonsense"},
]


@pytest.mark.parametrize("payload", CASES)
def test_the_stored_form_is_the_steps_or_left_to_it(payload: dict[str, Any]) -> None:
    try:
        step: RunStep | None = RunStep.from_payload(payload)
    except InvalidStepError:
        step = None
    fast = stored_payload(payload)
    if step is None:
        assert fast is None  # refused: the step's own check says why
    elif fast is not None:
        assert step_row(fast) == step_row(step)


ODD_VALUES: list[Any] = [
    {"a": [1e16, -0.0, 1.5e-300, 2**70, 12.345, True, False, None], "b": {"": {}, "é": []}},
    {"text": "é\u2028\"\\\x01\t\U0001f600", "nested": [[[{"x": ("t", 1)}]]]},
    {"nan": math.nan, "inf": -math.inf},
]


@pytest.mark.parametrize("payload", ODD_VALUES)
def test_a_payload_is_written_as_json_dumps_writes_it(payload: dict[str, Any]) -> None:
    # The store encodes payloads with a C encoder made once (run_store._payload_text): the text
    # must stay exactly the standard library's, byte for byte.
    from inspector.store.run_store import _payload_text

    assert _payload_text(payload) == json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    row = step_row(StoredPayload("tool", 0, 1.0, payload))
    assert row[4] == json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
