"""An OTLP JSON trace whose spans nest in one chain, each the parent of the next (as an agent's recursion,
or a hostile file, makes it): for the tests of what a long chain costs to import, list and show."""

from __future__ import annotations

import json
from pathlib import Path


def chain_trace(path: Path, depth: int) -> Path:
    """``path``, written as one trace of ``depth`` spans of service "deep", level n the parent of n + 1."""
    spans = []
    for level in range(depth):
        span = {"traceId": "7" * 32, "spanId": f"{level + 1:016x}", "name": f"level-{level + 1}", "kind": 1,
                "startTimeUnixNano": str(1_700_000_000_000_000_000 + level * 1_000),
                "endTimeUnixNano": str(1_700_000_000_000_000_000 + (2 * depth - level) * 1_000), "status": {}}
        if level:
            span["parentSpanId"] = f"{level:016x}"
        spans.append(span)
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": "deep"}}]}, "scopeSpans": [{"spans": spans}]}]}) + "\n")
    return path
