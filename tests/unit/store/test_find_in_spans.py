"""Find searches what a step from a trace kept of its span: attribute keys and values (span, resource,
scope, and a joined call's server side), event names and attributes, links. On the real traces of the
mcp SDK and Traceloop's instrumentation, and on a run of 10,000 imported spans, where it stays fast."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.browse import find_in_timeline, timeline_page
from inspector.transfer.importing import import_trace

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def ten_thousand(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunStore, int]]:
    """A run of 10,000 imported spans (:func:`_big_trace`), imported once for the tests that only read it."""
    folder = tmp_path_factory.mktemp("ten-thousand")
    opened = RunStore.open(folder / "runs.db")
    (run_id,) = import_trace(opened, _big_trace(folder / "big.otlp.json", 10_000)).run_ids
    yield opened, run_id
    opened.close()


def agent_run(store: RunStore, fixture: str) -> int:
    report = import_trace(store, FIXTURES / fixture)
    (run_id,) = [run_id for run_id in report.run_ids if store.get_run(run_id).title == "invoke_agent support-agent"]
    return run_id


def details(store: RunStore, run_id: int, rows: list[int]) -> list[str]:
    page = timeline_page(store, run_id, 0, 1000)
    return [page[row].details for row in rows]


def test_find_matches_event_text_and_attributes_of_both_sides(store: RunStore) -> None:
    run_id = agent_run(store, "mcp_sdk.jsonl")
    # The exception event's stack trace, only in the given-up call's events.
    assert details(store, run_id, find_in_timeline(store, run_id, "deadline exceeded")) == [
        "slow: TimeoutError"]
    # A key only the server side has: the tool calls joined with their server spans.
    found = details(store, run_id, find_in_timeline(store, run_id, "mcp.protocol.version"))
    assert {"lookup", "slow"} <= {text.split(":")[0] for text in found}
    # A resource attribute's value, on every step of the agent.
    assert len(find_in_timeline(store, run_id, "STAGING")) == len(timeline_page(store, run_id, 0, 1000))
    # The scope's name.
    assert find_in_timeline(store, run_id, "mcp-python-sdk")
    assert find_in_timeline(store, run_id, "no such text anywhere") == []


def test_find_matches_traceloop_attributes(store: RunStore) -> None:
    run_id = agent_run(store, "traceloop.jsonl")
    assert find_in_timeline(store, run_id, "traceloop.entity.input")
    assert find_in_timeline(store, run_id, "fixture.flavour")


def _big_trace(path: Path, spans: int) -> Path:
    trace = "ab" * 16
    records = []
    for number in range(spans):
        start = 1_764_580_443_000_000_000 + number * 1_000_000
        attributes = [{"key": "gen_ai.tool.name", "value": {"stringValue": f"tool{number % 7}"}},
                      {"key": "customer.ticket", "value": {"stringValue": f"T-{number:06d}"}}]
        events = [{"name": "retry", "timeUnixNano": str(start + 100),
                   "attributes": [{"key": "attempt", "value": {"intValue": "2"}},
                                  {"key": "reason", "value": {"stringValue": f"backoff {number}"}}]}]
        if number == spans - 1:
            events.append({"name": "exception", "timeUnixNano": str(start + 200), "attributes": [
                {"key": "exception.type", "value": {"stringValue": "QuotaExceeded"}}]})
        records.append({"traceId": trace, "spanId": f"{number + 1:016x}", "name": f"execute_tool tool{number % 7}",
                        "kind": 1, "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 500_000),
                        "attributes": attributes, "events": events})
    document = {"resourceSpans": [{"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": "big-agent"}}]},
        "scopeSpans": [{"scope": {"name": "big"}, "spans": records}]}]}
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_find_in_ten_thousand_imported_spans_stays_fast(ten_thousand: tuple[RunStore, int]) -> None:
    store, run_id = ten_thousand
    timings = {}
    for needle, expected in (("quotaexceeded", [9_999]), ("T-004242", [4_242]), ("nothing like this", [])):
        started = time.perf_counter()
        found = find_in_timeline(store, run_id, needle)
        timings[needle] = time.perf_counter() - started
        assert found == expected, needle
    assert len(find_in_timeline(store, run_id, "backoff")) == 10_000
    # Measured on the busy 2-core shared machine: 0.06 to 0.15 s each (before span text was searched,
    # 0.09 to 0.11 s); a text found nowhere reads all 10,000 payloads. The bound is generous.
    assert max(timings.values()) < 2.0, timings


def test_find_finds_a_value_as_the_attributes_table_shows_it(store: RunStore) -> None:
    """A value copied from the Attributes table, with its quotes: Traceloop keeps a call's input as
    JSON text in a string attribute (shown as it is), which the stored payload holds escaped."""
    run_id = agent_run(store, "traceloop.jsonl")
    assert details(store, run_id, find_in_timeline(store, run_id, '{"tool_name": "lookup", "arguments": {"city"')) \
        == ["lookup: Berlin: 21 °C, clear"]
    # A backslash as the table shows it (Traceloop wrote "°" as \u00b0 inside its JSON text).
    assert details(store, run_id, find_in_timeline(store, run_id, r'"Berlin: 21 \u00b0C, clear"')) \
        == ["lookup: Berlin: 21 °C, clear"]
    assert find_in_timeline(store, run_id, '"city": "Oslo"') and not find_in_timeline(store, run_id, '"city": "Rome"')


def _one_span(path: Path, attributes: dict[str, str], result: str) -> Path:
    span = {"traceId": "ef" * 16, "spanId": "12" * 8, "name": "execute_tool lookup", "kind": 1,
            "startTimeUnixNano": "1764580443000000000", "endTimeUnixNano": "1764580443500000000",
            "attributes": [{"key": key, "value": {"stringValue": value}} for key, value in
                           {"gen_ai.tool.name": "lookup", "gen_ai.tool.call.result": result, **attributes}.items()]}
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [
        {"scope": {"name": "agent"}, "spans": [span]}]}]}), encoding="utf-8")
    return path


@pytest.mark.parametrize("needle", ["Österreich", "österreich", "ÖSTERREICH", "Überlastung", "ÜBERLASTUNG",
                                    "Straße", "STRAẞE", "STRASSE", "strasse", 'C:\\Temp\\"neu"', "c:\\temp"])
def test_find_finds_words_with_letters_beyond_ascii_in_any_case(store: RunStore, tmp_path: Path,
                                                                needle: str) -> None:
    """SQLite's lower() folds only ASCII letters: "Österreich", typed exactly as the table shows it, was
    not found (the needle was lowered, the text was not). A needle of ASCII letters alone is compared with ASCII
    folded (the fast way, as before), and one with "ss" also folded as Python folds it where the payload
    has an ß: "STRASSE" finds "Straße"."""
    (run_id,) = import_trace(store, _one_span(tmp_path / "trace.json", {"customer.region": "Österreich",
                                                                        "path": 'C:\\Temp\\"neu"'},
                                              "Überlastung in der Straße")).run_ids
    assert find_in_timeline(store, run_id, needle) == [0]
    assert find_in_timeline(store, run_id, needle + "x") == []


def test_a_needle_beyond_ascii_stays_fast_in_ten_thousand_spans(ten_thousand: tuple[RunStore, int]) -> None:
    store, run_id = ten_thousand
    started = time.perf_counter()
    assert find_in_timeline(store, run_id, "Größe") == []  # read in every payload
    elapsed = time.perf_counter() - started
    # Each payload's texts folded by Python: 0.08 s measured on the busy 2-core shared machine (an ASCII
    # needle 0.06 to 0.1 s, as before).
    assert elapsed < 3.0, elapsed
    # An ASCII needle with "ss" is folded by Python only in a payload with an ß (none here): 0.12 s
    # measured, 0.06 s for a needle without "ss".
    started = time.perf_counter()
    assert find_in_timeline(store, run_id, "STRASSE") == []
    elapsed = time.perf_counter() - started
    assert elapsed < 3.0, elapsed
