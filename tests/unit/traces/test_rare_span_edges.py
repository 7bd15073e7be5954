"""Rare spans an import reads the quick way for ordinary ones: an attribute read without the loop over its
value's fields, and a span's own ``exception.*`` attributes looked at only when it names one. Such spans must
import exactly as they did before those quick ways (stored rows, refusals and their places)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_trace_support import attr, otlp_doc, span

from inspector.store import RunStore
from inspector.traces import TraceImportError
from inspector.transfer.importing import import_trace

TRACE = "c" * 32


def _file(tmp_path: Path, *spans: dict[str, Any]) -> Path:
    path = tmp_path / "rare.jsonl"
    path.write_text(json.dumps(otlp_doc(*spans)) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("span_id", ["2" * 16, "IiIiIiIiIiI="], ids=["read quickly", "read carefully"])
@pytest.mark.parametrize("place", ["attributes", "events"])
def test_a_string_attribute_whose_value_has_a_second_kind_is_refused(
        empty_store: RunStore, tmp_path: Path, span_id: str, place: str) -> None:
    # {"stringValue": "a", "intValue": 1}: the quick read of a string attribute takes a value of one field only.
    # (A base64 span id sends the span the careful way, which reads its attributes the quick way first too.)
    two_kinds = {"key": "note", "value": {"stringValue": "a", "intValue": 1}}
    fields: dict[str, Any] = {"attributes": [attr("mcp.method.name", "tools/call"), two_kinds]}
    if place == "events":
        fields = {"attributes": [attr("mcp.method.name", "tools/call")],
                  "events": [{"name": "exception", "timeUnixNano": "1700000000500000000", "attributes": [two_kinds]}]}
    source = _file(tmp_path, span(TRACE, "1" * 16, name="agent"),
                   span(TRACE, span_id, parent="1" * 16, name="tools/call lookup", **fields))
    with pytest.raises(TraceImportError) as refused:
        import_trace(empty_store, source)
    where = "attributes[1].value" if place == "attributes" else "events[0].attributes[0].value"
    assert f"spans[1].{where}: an AnyValue holds exactly one of its fields, got ['intValue', 'stringValue']" \
        in str(refused.value)
    assert empty_store.list_runs(limit=None) == []


@pytest.mark.parametrize(("given", "said"), [
    ([attr("exception.message", "disk full")], "failed: disk full"),
    ([attr("exception.type", "OSError")], "failed: OSError"),
    ([attr("exception.type", "OSError"), attr("exception.message", "disk full")], "failed: OSError: disk full"),
    ([attr("exception.type", "asyncio.CancelledError")], "cancelled: asyncio.CancelledError"),
], ids=["message alone", "type alone", "both", "a cancellation"])
def test_an_exception_said_only_by_the_span_s_own_attributes_is_said(
        empty_store: RunStore, tmp_path: Path, given: list[dict[str, Any]], said: str) -> None:
    source = _file(tmp_path, span(TRACE, "1" * 16, name="agent"),
                   span(TRACE, "2" * 16, parent="1" * 16, name="execute_tool lookup", kind=1, status={"code": 2},
                        attributes=[attr("gen_ai.operation.name", "execute_tool"),
                                    attr("gen_ai.tool.name", "lookup"), *given]))
    import_trace(empty_store, source)
    (run,) = empty_store.list_runs(limit=None)
    (step,) = [step.payload for step in empty_store.iter_steps(run.id) if step.payload.get("kind") == "tool"]
    assert step["toolResult"].startswith(said)
