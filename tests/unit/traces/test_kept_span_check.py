"""A span a step keeps (``raw.otlp``) comes from a file in our format as it is, and an OTLP export writes it
back as that span: one no OTLP reader takes is refused on import, naming its place, with nothing written.

Found by a mutation fuzzer over our export of the real traces: a file whose kept span had an id of the wrong
length, a status code 7 or a time past 2^64-1 ns imported, and its OTLP export was then refused by every
import (ours too), a viewer's as well."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_trace_support import LLM_PAYLOAD, fill, fingerprint, settle

from inspector.store import RunStore
from inspector.traces.format import TraceImportError
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"


@pytest.fixture(scope="module")
def our_export(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Our trace format's export of the mcp SDK's real trace (its calls joined with their server sides)."""
    folder = tmp_path_factory.mktemp("kept")
    with RunStore.open(folder / "source.db") as source:
        import_trace(source, FIXTURES / "mcp_sdk.jsonl")
        export(source, None, None, folder / "ours.json")
    return json.loads((folder / "ours.json").read_text(encoding="utf-8"))


def _joined_step(document: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    steps = document["runs"][0]["steps"]
    return next((index, step) for index, step in enumerate(steps) if "server" in step["payload"]["raw"]["otlp"])


def _refused(tmp_path: Path, document: Any, name: str = "changed.json") -> TraceImportError:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    with RunStore.open(tmp_path / "runs.db") as store:
        settle(store)
        before = fingerprint(tmp_path / "runs.db")
        with pytest.raises(TraceImportError) as caught:
            import_trace(store, path)
        assert fingerprint(tmp_path / "runs.db") == before
    return caught.value


@pytest.mark.parametrize(("field", "value", "said"), [
    ("spanId", "f" * 15, "must be 16 hexadecimal digits (or 8 bytes in base64), got the string 'fffffffffffffff'"),
    ("parentSpanId", "0" * 16, "an all-zero id is invalid"),
    ("traceId", "F" * 16, "must be 32 hexadecimal digits (or 16 bytes in base64)"),
    ("traceId", None, "must be 32 hexadecimal digits (or 16 bytes in base64), got null"),
    ("status.code", 7, "must be a status code (0, 1 or 2), got the number 7"),
    ("endTimeUnixNano", "18446744073709551616", "must be nanoseconds since 1970 (0 to 2^64-1)"),
    ("server.spanId", "g" * 16, "must be 16 hexadecimal digits"),
    ("server.endTimeUnixNano", "1", "the span ends before it starts"),
])
def test_a_kept_span_no_otlp_reader_takes_is_refused_naming_its_place(our_export: dict[str, Any], tmp_path: Path,
                                                                     field: str, value: Any, said: str) -> None:
    document = json.loads(json.dumps(our_export))
    index, step = _joined_step(document)
    *parents, last = ["raw", "otlp", *field.split(".")]
    target = step["payload"]
    for key in parents:
        target = target[key]
    target[last] = value
    error = _refused(tmp_path, document)
    assert error.location == f"runs[0].steps[{index}].payload.raw.otlp.{field}"
    assert error.problem.startswith(said)


def test_the_export_itself_imports_and_its_otlp_export_too(our_export: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "ours.json"
    path.write_text(json.dumps(our_export), encoding="utf-8")
    with RunStore.open(tmp_path / "runs.db") as store:
        assert import_trace(store, path).runs_imported == 4
        export(store, None, None, tmp_path / "again.json", format="otlp")
    with RunStore.open(tmp_path / "again.db") as again:
        assert import_trace(again, tmp_path / "again.json").runs_imported == 4


def test_a_bare_list_of_payloads_is_checked_so_too(tmp_path: Path) -> None:
    kept = {"name": "x", "traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b716920333", "kind": 1,
            "status": {"code": 0, "message": ""}, "attributes": {}}
    error = _refused(tmp_path, [LLM_PAYLOAD, dict(LLM_PAYLOAD, raw={"otlp": kept})], "payloads.json")
    assert error.location == "[1].raw.otlp.spanId"


def test_a_step_span_of_ours_is_checked_so_too(tmp_path: Path) -> None:
    """Our OTLP format: a step's payload is the attribute run_inspector.step.payload, its raw.otlp checked as above."""
    with RunStore.open(tmp_path / "source.db") as source:
        fill(source)
        export(source, None, None, tmp_path / "ours.otlp.json", format="otlp")
    document = json.loads((tmp_path / "ours.otlp.json").read_text(encoding="utf-8"))
    spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    index, attribute = next((index, item) for index, span in enumerate(spans) for item in span["attributes"]
                            if item["key"] == "run_inspector.step.payload")
    payload = json.loads(attribute["value"]["stringValue"])
    payload["raw"] = {"otlp": {"name": "x", "traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331",
                               "kind": 1, "status": {"code": 9}, "attributes": {}}}
    attribute["value"]["stringValue"] = json.dumps(payload)
    error = _refused(tmp_path, document)
    assert error.location == (f"line 1: resourceSpans[0].scopeSpans[0].spans[{index}].attributes."
                              "run_inspector.step.payload.raw.otlp.status.code")
    assert error.problem.startswith("must be a status code (0, 1 or 2), got the number 9")
