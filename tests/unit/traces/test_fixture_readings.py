"""tests/fixtures/otel/compare_readings.py, run as after ``make trace-fixtures``: a recording whose ids and times
differ from the committed files reads the same; one whose ``error.type`` value changed (the same shape, so
``compare_traces.py`` finds nothing) reads otherwise, and the step's sentences on each side are printed; a file not
recorded is named; the exit status is 1 then."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from tests.unit.traces.test_fixture_shapes import new_ids_and_times, recording, run
from tests.unit.traces.test_otel_agents import FIXTURES

SCRIPT = FIXTURES / "compare_readings.py"
#: The files compared: the mcp SDK's own spans, Traceloop's, and an agent framework's over the SDK's.
NAMES = ("mcp_sdk.jsonl", "traceloop.jsonl", "openai_agents_openinference.jsonl")


def committed(folder: Path) -> Path:
    folder.mkdir()
    for name in NAMES:
        shutil.copy(FIXTURES / name, folder)
    return folder


def test_a_recording_that_differs_in_ids_and_times_only_reads_the_same(tmp_path: Path) -> None:
    (tmp_path / "recorded").mkdir()
    recorded = recording(tmp_path / "recorded", new_ids_and_times, NAMES)
    status, report = run([sys.executable, str(SCRIPT), str(recorded), "--committed", str(committed(tmp_path / "c"))])
    assert status == 0, report
    assert report == ["same     mcp_sdk.jsonl: runs: 4 committed, 4 recorded",
                      "same     openai_agents_openinference.jsonl: runs: 5 committed, 5 recorded",
                      "same     traceloop.jsonl: runs: 1 committed, 1 recorded"]


def test_an_error_type_value_that_changed_reads_otherwise_where_the_shape_is_the_same(tmp_path: Path) -> None:
    def renamed(name: str, span: dict[str, Any]) -> None:
        new_ids_and_times(name, span)
        for attribute in span.get("attributes", []):
            if name == "mcp_sdk.jsonl" and attribute == {"key": "error.type", "value": {"stringValue": "tool_error"}}:
                attribute["value"]["stringValue"] = "ToolError"

    (tmp_path / "recorded").mkdir()
    recorded = recording(tmp_path / "recorded", renamed, NAMES[:2])  # (the third file not recorded)
    folder = str(committed(tmp_path / "c"))
    shape_status, shapes = run([sys.executable, str(FIXTURES / "compare_traces.py"), str(recorded),
                                "--committed", folder])
    assert [line.split()[:2] for line in shapes] == [
        ["same", "mcp_sdk.jsonl:"], ["missing", "openai_agents_openinference.jsonl:"], ["same", "traceloop.jsonl:"]]
    status, report = run([sys.executable, str(SCRIPT), str(recorded), "--committed", folder])
    assert status == 1
    assert [line.split()[:2] for line in report if not line.startswith(" ")] == [
        ["differs", "mcp_sdk.jsonl:"], ["missing", "openai_agents_openinference.jsonl:"], ["same", "traceloop.jsonl:"]]
    changed = [line for line in report if line.startswith("    ")]
    assert len(changed) == 2, report  # the failed call's step on each side; no other line
    before = next(line for line in changed if line.startswith("    -  ") and "'MCP send tools/call fail'" in line)
    after = next(line for line in changed if line.startswith("    +  ") and "'MCP send tools/call fail'" in line)
    assert 'toolResult="the tool reported an error (error.type tool_error)"' in before
    assert 'toolResult="failed with error.type ToolError' in after
    assert "outcome=failed" in before and "outcome=failed" in after and "server side=joined" in after
