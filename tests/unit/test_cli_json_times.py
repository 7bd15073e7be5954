"""Times in `runs list --json` and `runs show --json` are written one way: UTC, `Z`, always with their
microseconds. A time on a whole second lost its fraction ("…:40Z"), and sorted after "…:40.5Z" as text."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli import main


def one_span_trace(path: Path, start_ns: int, end_ns: int) -> Path:
    span = {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "name": "tools/call echo",
            "kind": 3, "startTimeUnixNano": str(start_ns), "endTimeUnixNano": str(end_ns),
            "attributes": [{"key": "mcp.method.name", "value": {"stringValue": "tools/call"}}], "status": {"code": 1}}
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": "agent"}}]}, "scopeSpans": [{"spans": [span]}]}]}))
    return path


def test_a_time_on_a_whole_second_keeps_its_fraction(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "runs.db")
    second = 1_764_000_000 * 10**9  # 2025-11-24T16:00:00Z
    assert main(["import", str(one_span_trace(tmp_path / "t.json", second, second + 500_000_000)), "--db", db]) == 0
    capsys.readouterr()
    assert main(["runs", "list", "--json", "--db", db]) == 0
    (run,) = json.loads(capsys.readouterr().out)["runs"]
    assert (run["started_at"], run["finished_at"]) == ("2025-11-24T16:00:00.000000Z", "2025-11-24T16:00:00.500000Z")
    assert main(["runs", "show", "1", "--json", "--db", db]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["run"]["started_at"] == "2025-11-24T16:00:00.000000Z"
    assert [step["time"] for step in shown["timeline"]] == ["2025-11-24T16:00:00.000000Z"]
