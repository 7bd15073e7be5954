"""The streaming walker gives the same records, sizes and problems however the bytes arrive:
a record, a skipped value or a key may be split between any two batches of parser events."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.traces.format import MAX_DEPTH, TraceProblem
from inspector.traces.json_stream import BadJson, ListShape, ObjectShape, Record, ValueParser, Walker


def walk(data: bytes, piece: int, exact: bool = False) -> list[Any]:
    """Feed ``data`` in pieces of ``piece`` bytes (to an ``exact`` parser: whole numbers of any size);
    return what the shape's callbacks saw."""
    seen: list[Any] = []
    step = Record(lambda path, value, size: seen.append(("step", path, value, size)), sized=True)
    run = ObjectShape({"steps": ListShape(step, on_end=lambda path, count: seen.append(("steps", path, count)))},
                      frozenset({"uid", "title"}), on_field=lambda path, value: seen.append(("field", path, value)),
                      on_end=lambda path: seen.append(("run end", path)))
    shape = ObjectShape({"runs": ListShape(run)}, frozenset({"format"}),
                        on_field=lambda path, value: seen.append(("field", path, value)))
    parser = ValueParser(Walker(shape), 0, exact=exact)
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


BIG = {"payload": {"a": 2**64, "b": -(2**63), "c": [0.1, -0.0, 1e-400, 1.7976931348623157e308, 12, -0], "d": 7}}


@pytest.mark.parametrize("piece", [1, 3, 64, 10_000])
def test_an_exact_parser_reads_whole_numbers_of_any_size_and_the_floats_the_quick_one_reads(piece: int) -> None:
    """A live call's arguments may hold 2^64 (or -2^63, which yajl refuses too): the parser of a file
    that holds one reads it, and every other number as the quick parser does, however the bytes come."""
    data = document(BIG, skipped=[2**70, 3.5])
    with pytest.raises(BadJson) as quick:
        walk(data, piece)
    assert quick.value.overflow and not quick.value.exact
    steps = [entry[2] for entry in walk(data, piece, exact=True) if entry[0] == "step"]
    assert steps == [BIG] and [type(value) for value in BIG["payload"]["c"]] == [type(value) for value in
                                                                                 steps[0]["payload"]["c"]]
    plain = document({"payload": {k: v for k, v in BIG["payload"].items() if k not in ("a", "b")}})
    assert walk(plain, piece, exact=True) == walk(plain, piece)


@pytest.mark.parametrize("piece", [1, 7, 4096, 100_000])
def test_an_exact_parser_refuses_more_digits_than_python_reads_as_one_number(piece: int) -> None:
    """int() reads 4,300 digits; ijson's C backend fails on more in ways no caller can handle (a SystemError,
    an event without a value, an error left pending), so such a run is refused before the parser sees it."""
    def holding(digits: int) -> bytes:
        return document({"n": "N"}).replace(b'"N"', b"9" * digits)

    assert [entry[2] for entry in walk(holding(4300), piece, exact=True) if entry[0] == "step"] == [
        {"n": int("9" * 4300)}]
    with pytest.raises(BadJson) as refused:
        walk(holding(4301), piece, exact=True)
    assert str(refused.value) == "more than 4,300 digits in a row (a whole number too long to read)"
    assert refused.value.exact and not refused.value.overflow


def test_an_exact_parser_refuses_a_number_too_large_for_a_float_where_it_is() -> None:
    data = document({"payload": {"big": 2**64, "x": [1, 1e308]}}).replace(b"1e+308", b"1e999")
    assert walk(data, 5, exact=True)[-1] == ("problem", ("runs", 0, "steps", 0, "payload", "x", 1),
                                             "the number 1E+999 is too large for a floating-point number")
