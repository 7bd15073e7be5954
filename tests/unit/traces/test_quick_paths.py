"""The quick ways of an OTLP import (issue 23's speed) give exactly what the careful ways give.

Each quick way answers ``None`` (or False) for what it cannot vouch for; where it answers, its
answer must equal the careful one: a plain line parsed whole against the stream, a plain span and
its attributes against the careful reader.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from inspector.traces.fast_lines import MAX_LINE_BYTES, parse_line
from inspector.traces.format import TraceProblem
from inspector.traces.json_stream import ValueParser, Walker
from inspector.traces.otlp import read_attributes_carefully, read_span, read_span_carefully
from inspector.traces.quick_span import quick_attributes, quick_span
from inspector.traces.reader import reader_for
from inspector.traces.sniff import FileKind
from inspector.traces.span_parts import MAX_EVENTS, MAX_LINKS
from tests.support.json_leaves import leaves

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"
LINES = [line for name in ("mcp_sdk.jsonl", "traceloop.jsonl")
         for line in (FIXTURES / name).read_bytes().splitlines() if line.strip()]
SPANS = [span for line in LINES for rs in json.loads(line)["resourceSpans"] for scope in rs["scopeSpans"]
         for span in scope["spans"]]


def _filled(**fields: Any) -> Any:
    return read_span_carefully.__globals__["_filled_span"](**fields)


def _careful(record: Any) -> Any:
    try:
        return read_span_carefully(record, ("spans", 0))
    except TraceProblem:
        return TraceProblem


def _variants() -> list[Any]:
    """The fixtures' spans, and each changed in one way the quick reader must get right or leave."""
    base = SPANS[0]
    changes: list[tuple[str, Any]] = [
        ("traceId", base["traceId"].upper()), ("traceId", "0" * 32), ("traceId", "vOnXDmTT3d4Z8/WzqVYvEA=="),
        ("spanId", "zz"), ("spanId", None), ("parentSpanId", ""), ("parentSpanId", None), ("parentSpanId", 0),
        ("startTimeUnixNano", 12), ("startTimeUnixNano", "-1"), ("startTimeUnixNano", "١٢"),
        ("startTimeUnixNano", True),
        ("startTimeUnixNano", str(2**64)), ("startTimeUnixNano", None), ("endTimeUnixNano", "0"),
        ("endTimeUnixNano", "1"), ("endTimeUnixNano", 2**64 - 1), ("kind", "SPAN_KIND_CLIENT"), ("kind", True),
        ("kind", 2.0), ("name", None), ("name", 5), ("status", {"code": "STATUS_CODE_ERROR", "message": "x"}),
        ("status", {"code": True}), ("status", {"code": 3}), ("status", []), ("status", None),
        ("attributes", None), ("attributes", {}), ("attributes", [{"key": "a"}]), ("attributes", [{"key": 1}]),
        ("attributes", [{"key": "a", "value": {}}]), ("attributes", [{"key": "a", "value": {"intValue": "-5"}}]),
        ("attributes", [{"key": "a", "value": {"intValue": True}}]),
        ("attributes", [{"key": "a", "value": {"intValue": "1" * 21}}]),
        ("attributes", [{"key": "a", "value": {"doubleValue": "1.5"}}]),
        ("attributes", [{"key": "a", "value": {"doubleValue": 2}}, {"key": "a", "value": {"boolValue": False}}]),
        ("attributes", [{"key": "a", "value": {"arrayValue": {"values": [{"stringValue": "x"}]}}}]),
        ("attributes", [{"key": "a", "value": {"kvlistValue": {"values": [{"key": "b", "value": {}}]}}}]),
        ("attributes", [{"key": "a", "value": {"stringValue": "x", "intValue": 1}}]),
        ("events", [{"name": "e", "timeUnixNano": None}]), ("events", [{"timeUnixNano": "5"}]),
        ("events", [{"name": "e", "timeUnixNano": "5", "droppedAttributesCount": -1}]), ("events", {}),
        ("droppedEventsCount", 3), ("droppedEventsCount", 2**32),
        ("links", [{"traceId": base["traceId"], "spanId": base["spanId"], "traceState": "a=b"}]),
        ("links", [{"traceId": base["traceId"], "spanId": base["spanId"], "traceState": None}]),
        ("links", [{"traceId": base["traceId"]}]), ("droppedLinksCount", 1),
    ]
    variants: list[Any] = [*SPANS, None, [], "span"]
    for key, value in changes:
        changed = copy.deepcopy(base)
        changed[key] = value
        variants.append(changed)
    return variants


@pytest.mark.parametrize("record", _variants())
def test_a_span_read_the_quick_way_is_the_span_read_carefully(record: Any) -> None:
    quick = quick_span(record, _filled, MAX_EVENTS, MAX_LINKS)
    careful = _careful(record)
    if quick is not None:
        assert careful is not TraceProblem and quick == careful and quick.__dict__ == careful.__dict__
    assert _careful_or_raised(record) == careful


def _careful_or_raised(record: Any) -> Any:
    try:
        return read_span(record, ("spans", 0))
    except TraceProblem:
        return TraceProblem


def test_the_fixtures_spans_go_the_quick_way() -> None:
    assert all(quick_span(span, _filled, MAX_EVENTS, MAX_LINKS) is not None for span in SPANS)


@pytest.mark.parametrize("value", [
    None, [], {}, [{"key": "a", "value": None}], [{"key": "a", "value": {"intValue": 7}}],
    [{"key": "a", "value": {"intValue": "00012"}}], [{"key": "a", "value": {"boolValue": 1}}],
    [{"key": "a", "value": {"bytesValue": "AA=="}}], ["a"]])
def test_attributes_read_the_quick_way_are_those_read_carefully(value: Any) -> None:
    quick = quick_attributes(value)
    try:
        careful = read_attributes_carefully(value, ("attributes",))
    except TraceProblem:
        careful = TraceProblem
    if quick is not None:
        assert quick == careful and [type(item) for item in quick.values()] == [type(item) for item in careful.values()]


@pytest.mark.parametrize("line", [b'{"a": NaN}', b'{"a": Infinity}', b'{"a": 9223372036854775807}', b'{"a": 1e400}',
                                  b'{"a": "\\udc00"}', b'{"a": "\\ud83d\\ude00"}', b'{"sp\\u0061ns": []}',
                                  b'[' * 60 + b']' * 60, b'{"a": 1} x', b'{"a": 1} {}', b'{"a": "\xc3"}',
                                  b'{"a": "' + b"x" * MAX_LINE_BYTES + b'"}', b'{"a": "\t"}',
                                  b'{"a":18446744073709551616}', b'[-12345678901234567890]', b'[1,9223372036854775808]',
                                  b'{"a":[12345678901234567890.5]}'])
def test_lines_the_quick_way_cannot_vouch_for_are_left_to_the_stream(line: bytes) -> None:
    assert parse_line(line) is None


@pytest.mark.parametrize("line", [*LINES, b'{"a": "[[[", "b": "}}", "c": "\\"[\\\\"}', b' {"a": [1.5, -2, 1e-400]} ',
                                  b'[' * 30 + b']' * 30, b'{"t":"1712345678901234567","n":-123456789012345678}',
                                  b'{"a": 123456789012345678, "b": [0.1, 2.5e-3, 1E+20]}'])
def test_plain_lines_parse_the_quick_way_as_json_parses_them(line: bytes) -> None:
    parsed = parse_line(line)
    assert parsed is not None and parsed == json.loads(line)
    assert [type(value) for value in leaves(parsed)] == [type(value) for value in leaves(json.loads(line))]



class _Calls:
    """A sink that notes what it is handed."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def run(self, key: Any, header: Any, path: Any) -> None:
        self.calls.append(("run", key, header, path))

    def step(self, key: Any, step: Any, path: Any, size: int = 0) -> None:
        self.calls.append(("step", key, step, path))


def _read(line: bytes, quick: bool) -> list[Any]:
    sink = _Calls()
    reader = reader_for(FileKind("otlp", 0, "lines"), sink, checking=True, stored_payloads=True)
    reader.line = 1
    try:
        if quick:
            if not reader.quick_line(line, 1):
                return ["streamed"]
        else:
            parser = ValueParser(Walker(reader.shape), 0, 1)
            parser.feed(line)
            parser.close()
        reader.finish()
    except TraceProblem as problem:
        sink.calls.append(("problem", problem.path, str(problem.sentence), problem.line))
    return sink.calls


def _changed(line: bytes, old: bytes, new: bytes) -> bytes:
    assert old in line
    return line.replace(old, new, 1)


FIRST = LINES[0]
SHAPES = [
    *LINES, b'{}', b'{"resourceSpans": []}', b'{"resourceSpans": {}}', b'{"resourceSpans": [5]}',
    b'{"resourceSpans": [{"scopeSpans": 5}]}', b'{"resourceSpans": [{"scopeSpans": [{"spans": "x"}]}]}',
    b'{"resourceSpans": [{"scopeSpans": [{"spans": [1]}]}]}', b'{"resourceSpans": [{"resource": 3}]}',
    b'{"resourceSpans": [{"resource": null, "scopeSpans": [{"scope": null, "spans": []}]}], "x": {"spans": 1}}',
    _changed(FIRST, b'"spans":[', b'"spans":[],"spans":['),
    _changed(FIRST, b'"resource":{', b'"resource":{"attributes":[]},"resource":{'),
    _changed(FIRST, b'"scope":{', b'"scope":{"name":"first"},"scope":{'),
    _changed(FIRST, b'"MCP send initialize"', b'"a \\"spans\\" word"'),
    _changed(FIRST, b'"spanId":"4e34aa1e8ffa2329"', b'"spanId":"zz"'),
]


@pytest.mark.parametrize("line", SHAPES)
def test_a_line_read_the_quick_way_hands_on_what_the_stream_hands_on(line: bytes) -> None:
    quick = _read(line, quick=True)
    if quick != ["streamed"]:
        assert quick == _read(line, quick=False)


def test_the_fixtures_lines_go_the_quick_way() -> None:
    assert all(_read(line, quick=True) != ["streamed"] for line in LINES)


def test_a_resource_after_its_spans_is_not_theirs_the_quick_way_either() -> None:
    document = json.loads(FIRST)
    first = document["resourceSpans"][0]
    document["resourceSpans"][0] = {"scopeSpans": first["scopeSpans"], "resource": first["resource"]}
    line = json.dumps(document).encode()
    assert _read(line, quick=True) == _read(line, quick=False) != ["streamed"]


def test_a_foreign_traces_steps_keep_no_table_of_sequences() -> None:
    # The sorter numbers a foreign trace's steps itself, each once: the plan keeps no (run, sequence)
    # pairs for them (for 100,000 spans those alone moved to a table on disk, one query a step).
    from inspector.traces.progress import ProgressMeter
    from inspector.traces.reader import TracePlan, read_file
    from inspector.traces.sniff import sniff

    for name in ("mcp_sdk.jsonl", "traceloop.jsonl"):
        plan = TracePlan()
        kind = sniff(FIXTURES / name)
        read_file(FIXTURES / name, kind, reader_for(kind, plan, checking=True), ProgressMeter(None, 1, 1),
                  (FIXTURES / name).stat().st_size)
        assert plan.runs and plan.cache
        assert plan._sequences == {} and plan._seen is None and not plan.last_sequence
