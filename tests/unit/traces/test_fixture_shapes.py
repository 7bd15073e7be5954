"""tests/fixtures/otel/compare_traces.py, run as after ``make trace-fixtures``: a recording whose ids, times and values
differ from the committed files has their shape; a span whose status, kind or attributes differ, or a file not
recorded, is named and the exit status is 1."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.unit.traces.test_otel_agents import FIXTURES

SCRIPT = FIXTURES / "compare_traces.py"


def compare(recorded: Path) -> tuple[int, list[str]]:
    return run([sys.executable, str(SCRIPT), str(recorded), "--committed", str(FIXTURES)])


def run(command: list[str], cwd: Path | None = None) -> tuple[int, list[str]]:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout.splitlines()


def recording(folder: Path, change: Any, names: tuple[str, ...] = ()) -> Path:
    """A copy of the committed files (those named, or all) with ``change(file name, span)`` applied to each span."""
    for committed in [FIXTURES / name for name in names] or list(FIXTURES.glob("*.jsonl")):
        lines = []
        for line in committed.read_text(encoding="utf-8").splitlines():
            request = json.loads(line)
            for resource in request["resourceSpans"]:
                for scope in resource["scopeSpans"]:
                    for span in scope["spans"]:
                        change(committed.name, span)
            lines.append(json.dumps(request))
        (folder / committed.name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return folder


def new_ids_and_times(_: str, span: dict[str, Any]) -> None:
    """Other ids (the same parents) and times a day later, as a recording has."""
    for key in ("traceId", "spanId", "parentSpanId"):
        if span.get(key):
            span[key] = span[key][::-1]  # the same parents, other ids
    for key in ("startTimeUnixNano", "endTimeUnixNano"):
        span[key] = str(int(span[key]) + 86_400 * 10**9)


def new_ids_times_and_values(name: str, span: dict[str, Any]) -> None:
    new_ids_and_times(name, span)
    for attribute in span.get("attributes", []):
        if "stringValue" in attribute["value"]:
            attribute["value"]["stringValue"] += " (again)"


def test_a_recording_that_differs_in_ids_times_and_values_only_has_the_committed_shape(tmp_path: Path) -> None:
    status, report = compare(recording(tmp_path, new_ids_times_and_values))
    files = sorted(path.name for path in FIXTURES.glob("*.jsonl"))
    assert status == 0, report
    assert len(report) == len(files) >= 16
    assert [line.split()[:2] for line in report] == [["same", f"{name}:"] for name in files]
    assert "same     mcp_sdk_crash.jsonl: 9 spans committed, 9 recorded" in report


def test_a_status_a_kind_or_an_attribute_that_differs_is_named_and_a_missing_file_too(tmp_path: Path) -> None:
    def change(name: str, span: dict[str, Any]) -> None:
        if name == "mcp_sdk_crash.jsonl" and span.get("status", {}).get("code") == 2:
            span["status"] = {}  # the crashed call now says ok
        if name == "traceloop.jsonl" and span["name"] == "lookup.tool":
            span["kind"] = 3
        if name == "fastmcp.jsonl":
            span["attributes"] = [item for item in span.get("attributes", []) if item["key"] != "mcp.session.id"]

    folder = recording(tmp_path, change)
    (folder / "respan.jsonl").unlink()
    status, report = compare(folder)
    text = "\n".join(report)
    assert status == 1
    assert {line.split()[1] for line in report if line.startswith("differs")} == {
        "fastmcp.jsonl:", "mcp_sdk_crash.jsonl:", "traceloop.jsonl:"}
    assert "missing  respan.jsonl: not in" in text
    crash = report[report.index("differs  mcp_sdk_crash.jsonl: 9 spans committed, 9 recorded") + 1:][:3]
    assert crash[0].startswith("  'MCP send tools/call crash' (kind 3, scope 'mcp-python-sdk'")
    assert crash[1].startswith("    - 1 × status 2, parent 'invoke_agent support-agent', attributes ")
    assert crash[2].startswith("    + 1 × status 0, parent 'invoke_agent support-agent', attributes ")
    assert "mcp.session.id" in text and "'lookup.tool' (kind 3, scope" in text


def test_without_arguments_the_files_beside_it_are_compared_with_git_s_head(tmp_path: Path) -> None:
    """As after ``make trace-fixtures`` in a checkout: it wrote over the files; git's HEAD has the committed ones."""
    folder = tmp_path / "tests" / "fixtures" / "otel"
    folder.mkdir(parents=True)
    for path in (SCRIPT, FIXTURES / "mcp_sdk.jsonl", FIXTURES / "respan.jsonl"):
        shutil.copy(path, folder)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    for command in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "fixtures"]):
        assert run([*git, *command], cwd=tmp_path)[0] == 0
    recording(folder, lambda name, span: span.update(name="again") if name == "respan.jsonl" else None,
              names=("mcp_sdk.jsonl", "respan.jsonl"))
    status, report = run([sys.executable, str(folder / "compare_traces.py")], cwd=tmp_path)
    assert status == 1
    assert [line.split()[:2] for line in report if not line.startswith(" ")] == [
        ["same", "mcp_sdk.jsonl:"], ["differs", "respan.jsonl:"]]
