"""How a step's server was reached (transport, command line, agreed revision, stderr, faults of the
line) in trace files: read back as written, and refused with the place named when a file holds
them wrongly (nothing written). Both formats: our trace format and OTLP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_trace_support import (
    TOOL_PAYLOAD,
    attr,
    fingerprint,
    otlp_doc,
    run_doc,
    span,
    step_doc,
    trace_doc,
    write_json,
)

from inspector.runs import RunStep
from inspector.store import RunStore
from inspector.traces.format import TraceImportError
from inspector.transfer.importing import import_trace

WIRE = {"transport": "stdio", "serverCommand": "API_KEY=… npx -y @modelcontextprotocol/server-everything stdio",
        "protocolVersion": "2025-06-18", "era": "handshake", "stderr": ["Starting server", "Listening on stdio"],
        "stderrDropped": 12,
        "lineProblems": ["the server wrote a line on stdout that is not JSON: hello"]}


def trace_file(tmp_path: Path, **wire: Any) -> Path:
    payload = {**TOOL_PAYLOAD, **wire}
    return write_json(tmp_path / "wire.json", trace_doc([run_doc(uid="wire-run", steps=[step_doc(1, payload)])]))


def otlp_file(tmp_path: Path, **wire: Any) -> Path:
    run = span(span_id="aaaaaaaaaaaaaaa1", attributes=[attr("run_inspector.span", "run"),
                                                       attr("run_inspector.run.uid", "wire-otlp"),
                                                       attr("run_inspector.outcome", "ok")])
    step = span(span_id="aaaaaaaaaaaaaaa2", parent="aaaaaaaaaaaaaaa1",
                attributes=[attr("run_inspector.span", "step"), attr("run_inspector.step.sequence", 1),
                            attr("run_inspector.step.payload", json.dumps({**TOOL_PAYLOAD, **wire}))])
    return write_json(tmp_path / "wire-otlp.json", otlp_doc(run, step))


def imported_payload(store: RunStore, path: Path) -> dict[str, Any]:
    report = import_trace(store, path)
    (run_id,) = report.run_ids
    return next(iter(store.iter_steps(run_id))).payload


@pytest.mark.parametrize("make", [trace_file, otlp_file])
def test_the_fields_are_read_back_as_written(store: RunStore, tmp_path: Path, make: Any) -> None:
    payload = imported_payload(store, make(tmp_path, **WIRE))
    assert {key: payload[key] for key in WIRE} == WIRE
    step = RunStep.from_payload(payload)
    assert (step.transport, step.stderr, step.stderr_dropped) == ("stdio", tuple(WIRE["stderr"]), 12)
    assert step.era == "handshake"


BAD = {
    "unknown transport": ({"transport": "carrier-pigeon"}, "payload.transport", "one of ['http', 'sse', 'stdio']"),
    "transport not a string": ({"transport": 3}, "payload.transport", "one of"),
    "command not a string": ({"serverCommand": ["npx", "-y"]}, "payload.serverCommand", "a string"),
    "stderr not a list": ({"stderr": "one line"}, "payload.stderr", "a list of at most 200 strings"),
    "stderr of numbers": ({"stderr": ["ok", 7]}, "payload.stderr", "a list of at most 200 strings"),
    "stderr too long": ({"stderr": ["line"] * 201}, "payload.stderr", "a list of at most 200 strings"),
    "negative count": ({"stderrDropped": -1}, "payload.stderrDropped", "non-negative whole number"),
    "count as text": ({"stderrDropped": "many"}, "payload.stderrDropped", "non-negative whole number"),
    "problems not lines": ({"lineProblems": {"a": 1}}, "payload.lineProblems", "a list of at most 200"),
    "version not a string": ({"protocolVersion": 20250618}, "payload.protocolVersion", "a string"),
    # "auto" is a configuration, never an era a step spoke in.
    "unknown era": ({"era": "auto"}, "payload.era", "one of ['handshake', 'stateless']"),
    "era not a string": ({"era": ["stateless"]}, "payload.era", "one of"),
}


@pytest.mark.parametrize("make", [trace_file, otlp_file])
@pytest.mark.parametrize("case", sorted(BAD))
def test_a_wrong_field_is_refused_naming_it_and_nothing_is_written(store: RunStore, tmp_path: Path, make: Any,
                                                                   case: str) -> None:
    wire, location, problem = BAD[case]
    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    before = fingerprint(db)
    with pytest.raises(TraceImportError) as caught:
        import_trace(store, make(tmp_path, **wire))
    assert fingerprint(db) == before
    assert location in caught.value.location, caught.value
    assert problem in caught.value.problem, caught.value


@pytest.mark.parametrize("make", [trace_file, otlp_file])
def test_a_stderr_line_that_is_not_text_is_refused(store: RunStore, tmp_path: Path, make: Any) -> None:
    # A lone surrogate, escaped in the file: not Unicode text, cannot be stored or shown.
    path = make(tmp_path, stderr=["LONE"])
    path.write_text(path.read_text().replace("LONE", "\\\\udc00" if make is otlp_file else "\\udc00"))
    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    before = fingerprint(db)
    with pytest.raises(TraceImportError) as caught:
        import_trace(store, path)
    assert fingerprint(db) == before
    assert "surrogate" in caught.value.problem, caught.value
