"""A span that ended cancelled fails no run, though OpenTelemetry marks it with an error status: the
Logfire recording of an agent (tests/fixtures/otel/logfire.jsonl) cut to its ``lookup`` call (ok) and its
cancelled ``slow`` call (the client's span and the server's, both status ERROR with a CancelledError) was
stored as a *failed* run with no failed step; it is an ok run whose call was cancelled. A root span that
ended cancelled makes the run cancelled; a span that failed still fails it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.i18n.recovery import status_with_recovery
from inspector.store import RunStore
from inspector.store.recovery import page_reasons
from inspector.transfer.importing import import_trace

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"
#: The spans of logfire.jsonl's two calls that did not end ok or cancelled (``fail``, the first ``slow``),
#: each side: their span ids begin so.
_FAILED_CALLS = ("9b09bf", "f9025d", "b9f295", "688517")
_CANCELLED_CALL = ("846968", "28a906")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


def _logfire_without(tmp_path: Path, dropped: tuple[str, ...], change: Any = None) -> Path:
    lines = []
    for line in (FIXTURES / "logfire.jsonl").read_text(encoding="utf-8").splitlines():
        document = json.loads(line)
        for resource in document["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                scope["spans"] = [span for span in scope["spans"] if not span["spanId"].startswith(dropped)]
                for span in scope["spans"]:
                    if change is not None:
                        change(span)
        lines.append(json.dumps(document))
    path = tmp_path / "agent.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _imported(store: RunStore, path: Path) -> tuple[str, list[str]]:
    [run_id] = import_trace(store, path).run_ids
    outcomes = sorted(step.outcome for step in store.iter_steps(run_id) if step.payload["kind"] == "tool")
    return store.get_run(run_id).status, outcomes


def test_a_run_whose_only_error_is_a_cancelled_call_is_ok_and_says_the_cancel(store: RunStore,
                                                                               tmp_path: Path) -> None:
    path = _logfire_without(tmp_path, _FAILED_CALLS)
    spans = [span for line in path.read_text(encoding="utf-8").splitlines()
             for resource in json.loads(line)["resourceSpans"] for scope in resource["scopeSpans"]
             for span in scope["spans"]]
    assert [span.get("status", {}).get("code") for span in spans if span["spanId"].startswith(_CANCELLED_CALL)] \
        == [2, 2], "the cancelled call's two sides say error, as the recording has them"
    assert _imported(store, path) == ("ok", ["cancelled", "ok"])
    [run] = store.list_runs()
    [reason] = page_reasons(store, [run]).values()
    assert status_with_recovery(run.status, reason.said()) == "ok (1 of 2 tool calls cancelled)"


def test_a_root_span_that_ended_cancelled_makes_the_run_cancelled(store: RunStore, tmp_path: Path) -> None:
    def cancel_the_root(span: dict[str, Any]) -> None:
        if not span.get("parentSpanId"):
            span["status"] = {"code": 2, "message": "Cancelled by cancel scope"}
            span["events"] = [{"name": "exception", "timeUnixNano": span["endTimeUnixNano"], "attributes": [
                {"key": "exception.type", "value": {"stringValue": "asyncio.exceptions.CancelledError"}},
                {"key": "exception.message", "value": {"stringValue": "Cancelled by cancel scope"}}]}]

    assert _imported(store, _logfire_without(tmp_path, _FAILED_CALLS, cancel_the_root)) == \
        ("cancelled", ["cancelled", "ok"])


def test_a_failed_call_beside_a_cancelled_one_still_fails_the_run(store: RunStore, tmp_path: Path) -> None:
    assert _imported(store, _logfire_without(tmp_path, _FAILED_CALLS[:2])) == \
        ("failed", ["cancelled", "failed", "ok"])
