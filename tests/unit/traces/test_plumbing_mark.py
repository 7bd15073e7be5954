"""The importer's rule of plumbing asked again of the span a step keeps (inspector/traces/plumbing_mark.py): what
schema version 14 gives the steps imported before a part of the rule was written. It must give every stored step,
of every real trace of tests/fixtures/otel/, the mark the import gave (a part of the rule that read something a step
does not keep would mark an older database otherwise than a fresh import), and never fail on a kept span of
another shape (an upgrade that failed on one step would leave the whole database unopened)."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.store import RunStore
from inspector.traces.plumbing_mark import kept_span_is_plumbing
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES

ODD_VALUES: tuple[Any, ...] = (None, 7, 1.5, True, [], {}, ["notifications/x"], {"k": "v"}, "", "log",
                               "notifications/initialized", "Found propagated trace context.")


def kept_spans(store: RunStore, fixture: str) -> list[tuple[dict[str, Any], bool]]:
    """Each span the file's steps keep (a call's server side too), with the mark the import gave it."""
    run_ids = import_trace(store, FIXTURES / fixture).run_ids
    spans = []
    for run_id in run_ids:
        for step in store.iter_steps(run_id):
            otlp = step.payload["raw"]["otlp"]
            spans.append((otlp, otlp.get("plumbing") is True))
            if isinstance(otlp.get("server"), dict):
                spans.append((otlp["server"], otlp["server"].get("plumbing") is True))
    return spans


@pytest.mark.parametrize("fixture", sorted(path.name for path in FIXTURES.glob("*.jsonl")))
def test_the_rule_asked_of_a_kept_span_gives_the_imports_mark(empty_store: RunStore, fixture: str) -> None:
    spans = kept_spans(empty_store, fixture)
    assert spans
    assert [(kept["name"], kept_span_is_plumbing(kept)) for kept, _ in spans] == [
        (kept["name"], marked) for kept, marked in spans]


def test_a_kept_span_of_another_shape_is_no_plumbing_and_fails_nothing(empty_store: RunStore) -> None:
    spans = [kept for fixture in ("openlit_mcp2.jsonl", "logfire_mcp2.jsonl", "mcp_sdk.jsonl", "traceloop.jsonl")
             for kept, _ in kept_spans(empty_store, fixture)]
    for kept in spans:
        for key in ("name", "kind", "parentSpanId", "attributes", "scope", "events"):
            for value in ODD_VALUES:
                assert isinstance(kept_span_is_plumbing({**kept, key: value}), bool)
        for key in kept["attributes"]:
            for value in ODD_VALUES:
                assert isinstance(kept_span_is_plumbing({**kept, "attributes": {**kept["attributes"], key: value}}),
                                  bool)
    assert not kept_span_is_plumbing({})
    assert not kept_span_is_plumbing({"name": 3, "kind": 2, "attributes": {"mcp.method.name": "notifications/x"}})
    assert not kept_span_is_plumbing({"name": "session/init", "kind": True, "attributes": {}, "scope": []})
