"""The streaming walker gives the same records, sizes and problems however the bytes arrive:
a record, a skipped value or a key may be split between any two batches of parser events."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.traces.format import MAX_DEPTH, TraceProblem
from inspector.traces.json_stream import BadJson, ListShape, ObjectShape, Record, ValueParser, Walker


def walk(data: bytes, piece: int) -> list[Any]:
    """Feed ``data`` in pieces of ``piece`` bytes; return what the shape's callbacks saw."""
    seen: list[Any] = []
    step = Record(lambda path, value, size: seen.append(("step", path, value, size)), sized=True)
    run = ObjectShape({"steps": ListShape(step, on_end=lambda path, count: seen.append(("steps", path, count)))},
                      frozenset({"uid", "title"}), on_field=lambda path, value: seen.append(("field", path, value)),
                      on_end=lambda path: seen.append(("run end", path)))
    shape = ObjectShape({"runs": ListShape(run)}, frozenset({"format"}),
                        on_field=lambda path, value: seen.append(("field", path, value)))
    parser = ValueParser(Walker(shape), 0)
    try:
        for start in range(0, len(data), piece):
            parser.feed(data[start:start + piece])
        parser.close()
    except TraceProblem as problem:
        seen.append(("problem", problem.path, problem.problem))
    return seen


def document(*steps: Any, **extra: Any) -> bytes:
    run = {"uid": "u", "skipped": {"a": [1, {"b": "c" * 40}], "d": None}, "steps": list(steps), "title": "t"}
    return json.dumps({"format": "x", "runs": [run], **extra}, indent=1).encode()


STEP = {"sequence": 1, "payload": {"kind": "tool", "legs": [{"method": "m", "x": [1.5, True, None, "s"]}]}}
DEEP = [[[[]]]]
for _ in range(MAX_DEPTH):
    DEEP = [DEEP]
DOCUMENTS = {
    "valid": document(STEP, STEP, {"empty": {}, "list": []}, 7, "text", None),
    "too deep in a step": document(STEP, {"payload": DEEP}),
    "too deep where skipped": document(STEP, skipped=DEEP),
    "too long a string": document(STEP, {"payload": {"k": "y" * 5_000_001}}),
    "too long a key": document({"payload": {"z" * 5_000_001: 1}}),
    "too long where skipped": document(STEP, skipped=["w" * 5_000_001]),
    "too big a record": document({"payload": [{}] * 200_001}),  # 160 estimated bytes each
}


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_the_pieces_the_bytes_come_in_change_nothing(name: str) -> None:
    data = DOCUMENTS[name]
    whole = walk(data, len(data))
    pieces = (1, 2, 3, 5, 64) if len(data) < 10_000 else (65521,)
    for piece in pieces:
        assert walk(data, piece) == whole, f"fed {piece} bytes at a time"
    expected = {"valid": None, "too deep in a step": "nested deeper", "too deep where skipped": "nested deeper",
                "too long a string": "a string of 5000001", "too long a key": "an object key of 5000001",
                "too long where skipped": "holds a string of 5000001", "too big a record": "larger than the limit"}
    if expected[name] is None:
        assert all(entry[0] != "problem" for entry in whole)
    else:
        assert whole[-1][0] == "problem" and expected[name] in whole[-1][2]


def test_a_record_is_handed_on_with_its_estimated_size() -> None:
    # 160 for the object, 8 + 1 for the key, 48 + 2 for the string, 160 + 24 for the list and its number.
    seen = walk(document({"a": "xy", "b": [1]}), 3)
    assert [entry for entry in seen if entry[0] == "step"] == [
        ("step", ("runs", 0, "steps", 0), {"a": "xy", "b": [1]}, 160 + 9 + 50 + 9 + 160 + 24)]


def test_bytes_that_are_not_json_are_reported_before_a_problem_earlier_in_the_same_read() -> None:
    # A step nested too deep near the start, a byte that is not JSON near the end, 40 kB apart.
    data = document({"payload": DEEP}, *[STEP] * 300)
    data = data[:-10] + b"\x01" + data[-10:]
    assert len(data) > 40_000
    with pytest.raises(BadJson):  # one read: the whole of it is parsed before it is walked
        walk(data, len(data))
    # Read in two, the first holding the deep step: that problem is found before the bad byte is read.
    kind, path, problem = walk(data, 20_000)[-1]
    assert kind == "problem" and path[:5] == ("runs", 0, "steps", 0, "payload") and "nested deeper" in problem
