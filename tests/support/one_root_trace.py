"""A trace of one long run: the mcp SDK fixture's tool calls (client and server spans, joined on import)
repeated under its one agent span, for Find and the timeline on a run of thousands of joined steps."""

from __future__ import annotations

import json
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"


def write_one_root_trace(path: Path, copies: int) -> Path:
    """Write to ``path`` the fixture's agent span once and its tool calls ``copies`` times under it (four
    calls a copy, each a client and a server span; span ids renewed per copy). Returns ``path``."""
    documents = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    spans = [span for document in documents for resource in document["resourceSpans"]
             for scope in resource["scopeSpans"] for span in scope["spans"]]
    calls = {span["spanId"] for span in spans if span["name"].startswith("MCP send tools/call")}
    with path.open("w", encoding="utf-8") as out:
        for document in documents:
            for resource in document["resourceSpans"]:
                for scope in resource["scopeSpans"]:
                    kept = [span for span in scope["spans"] if span["spanId"] in calls
                            or span.get("parentSpanId") in calls]
                    roots = [span for span in scope["spans"] if span["name"].startswith("invoke_agent")]
                    scope["spans"] = roots + [{**span, "spanId": span["spanId"][:8] + f"{copy:08x}",
                                               "parentSpanId": (span["parentSpanId"] if span["spanId"] in calls
                                                                else span["parentSpanId"][:8] + f"{copy:08x}")}
                                              for copy in range(copies) for span in kept]
            out.write(json.dumps(document, separators=(",", ":")) + "\n")
    return path


__all__ = ["write_one_root_trace"]
