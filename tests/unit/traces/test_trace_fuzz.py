"""Fuzzing the importer: mutated and truncated valid traces, and random JSON. Whatever the
bytes, an import either succeeds or raises TraceImportError (never another exception) and
then leaves the database byte for byte unchanged."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_trace_support import LLM_PAYLOAD, TOOL_PAYLOAD, fill, fingerprint, otlp_doc, settle, span, trace_doc

from inspector.store import RunStore
from inspector.traces.format import TraceImportError
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace

# TRACE_FUZZ_EXAMPLES=5000 for a longer hunt than the default run affords.
FUZZ = settings(max_examples=int(os.environ.get("TRACE_FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class Workspace:
    """One database for a whole test module, and the valid files the mutations start from."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        source = RunStore.open(folder / "source.db")
        fill(source)
        export(source, None, None, folder / "seed.trace.json")
        export(source, None, None, folder / "seed.otlp.json", format="otlp")
        source.close()
        self.seeds = {
            "trace": (folder / "seed.trace.json").read_bytes(),
            "otlp": (folder / "seed.otlp.json").read_bytes(),
            "payloads": json.dumps([LLM_PAYLOAD, TOOL_PAYLOAD], indent=1).encode(),
            "lines": "\n".join(json.dumps(otlp_doc(span(span_id=f"{n:016x}"))) for n in range(1, 4)).encode(),
        }
        self.db = folder / "target.db"
        self.store = RunStore.open(self.db)

    def attempt(self, data: bytes, name: str = "fuzz.json") -> None:
        """Import ``data``; on refusal, assert the error type and that nothing changed."""
        path = self.folder / name
        path.write_bytes(data)
        settle(self.store)
        before = fingerprint(self.db)
        try:
            import_trace(self.store, path)
        except TraceImportError as error:
            assert type(error) is TraceImportError
            assert error.location and error.problem
            assert fingerprint(self.db) == before, f"refused, but the database changed: {error}"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    space = Workspace(tmp_path_factory.mktemp("fuzz"))
    yield space
    space.store.close()


SEEDS = st.sampled_from(["trace", "otlp", "payloads", "lines"])


@FUZZ
@given(seed=SEEDS, cut=st.floats(0, 1))
def test_a_truncated_trace_is_refused_cleanly(workspace: Workspace, seed: str, cut: float) -> None:
    data = workspace.seeds[seed]
    workspace.attempt(data[: int(len(data) * cut)])


@FUZZ
@given(seed=SEEDS, edits=st.lists(st.tuples(st.floats(0, 1), st.sampled_from(["flip", "insert", "delete", "copy"]),
                                            st.binary(min_size=1, max_size=8)), min_size=1, max_size=4))
def test_a_mutated_trace_imports_or_is_refused_cleanly(workspace: Workspace, seed: str,
                                                       edits: list[tuple[float, str, bytes]]) -> None:
    data = bytearray(workspace.seeds[seed])
    for where, how, noise in edits:
        at = int(len(data) * where)
        if how == "flip" and data:
            data[min(at, len(data) - 1)] ^= noise[0] or 1
        elif how == "insert":
            data[at:at] = noise
        elif how == "delete":
            del data[at:at + len(noise)]
        else:
            data[at:at] = data[at:at + 40]
    workspace.attempt(bytes(data), "fuzz.jsonl" if seed == "lines" else "fuzz.json")


JSON_SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
                | st.text(max_size=20))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=30)
FIELD_NAMES = st.sampled_from(["format", "version", "runs", "steps", "payload", "sequence", "uid", "status",
                               "kind", "round", "durationMs", "toolIsError", "toolOutcome", "legs", "outcome",
                               "resourceSpans", "scopeSpans", "spans", "traceId", "spanId", "attributes",
                               "startTimeUnixNano", "endTimeUnixNano", "started_at", "title"])


@FUZZ
@given(value=JSON_VALUES)
def test_random_json_imports_or_is_refused_cleanly(workspace: Workspace, value: Any) -> None:
    workspace.attempt(json.dumps(value).encode())


def _replace(document: Any, path: list[int], value: Any) -> Any:
    """``document`` with the node reached along ``path`` (indexes into sorted keys) replaced."""
    if not path:
        return value
    if isinstance(document, dict) and document:
        key = sorted(document)[path[0] % len(document)]
        return {**document, key: _replace(document[key], path[1:], value)}
    if isinstance(document, list) and document:
        index = path[0] % len(document)
        return [*document[:index], _replace(document[index], path[1:], value), *document[index + 1:]]
    return value


@FUZZ
@given(seed=st.sampled_from(["trace", "otlp"]), path=st.lists(st.integers(0, 30), min_size=1, max_size=9),
       value=JSON_VALUES | FIELD_NAMES)
def test_a_trace_with_one_node_replaced_imports_or_is_refused_cleanly(workspace: Workspace, seed: str,
                                                                      path: list[int], value: Any) -> None:
    document = json.loads(workspace.seeds[seed])
    workspace.attempt(json.dumps(_replace(document, path, value)).encode())


@FUZZ
@given(key=FIELD_NAMES, value=JSON_VALUES, where=st.sampled_from(["top", "run", "step", "payload"]))
def test_a_trace_with_one_field_changed_imports_or_is_refused_cleanly(workspace: Workspace, key: str, value: Any,
                                                                      where: str) -> None:
    document = trace_doc()
    target = {"top": document, "run": document["runs"][0], "step": document["runs"][0]["steps"][0],
              "payload": document["runs"][0]["steps"][0]["payload"]}[where]
    target[key] = value
    workspace.attempt(json.dumps(document).encode())
