"""Hostile bytes in a trace file: strings that are not text, and times at the edge of the
range, are refused naming the place, and the database is left byte for byte as it was."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import subprocess
import sys
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from test_trace_support import (
    LLM_PAYLOAD,
    attr,
    fingerprint,
    otlp_doc,
    run_doc,
    span,
    step_doc,
    trace_doc,
)

from inspector.store import RunStore
from inspector.traces.format import MAX_DEPTH, TraceImportError
from inspector.transfer.importing import import_trace

ROOT = Path(__file__).resolve().parents[3]


def refused(store: RunStore, path: Path) -> TraceImportError:
    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    before = fingerprint(db)
    with pytest.raises(TraceImportError) as caught:
        import_trace(store, path)
    assert fingerprint(db) == before
    return caught.value


def _trace_with(tmp: Path, marker: str, raw: bytes, *, lines: bool = False) -> Path:
    """A valid trace whose text ``marker`` is replaced by the bytes ``raw``."""
    payload = dict(LLM_PAYLOAD, content="CONTENT", raw={"KEY": 1})
    doc = trace_doc([run_doc(uid="UID", steps=[step_doc(1, payload)], title="TITLE")])
    text = json.dumps(doc).encode()
    assert marker.encode() in text
    path = tmp / "hostile.json"
    path.write_bytes(text.replace(marker.encode(), raw))
    return path


CASES = {
    "overlong UTF-8 in a key": ("KEY", b"a\xc0\xafb"),
    "overlong UTF-8 in a uid": ("UID", b"a\xe0\x80\xafb"),
    "escaped lone low surrogate in a uid": ("UID", b"a\\udc00b"),
    "escaped lone low surrogate in a key": ("KEY", b"k\\udfff"),
    "escaped lone low surrogate in a title": ("TITLE", b"\\udc00"),
    "escaped lone low surrogate in content": ("CONTENT", b"a\\udc00b"),
    # yajl reads a lone high one as "?", and joins one with any escape after it (U+10041 here):
    "escaped lone high surrogate in a key": ("KEY", b"k\\ud800"),
    "escaped lone high surrogate in a title": ("TITLE", b"\\udbff"),
    "escaped high surrogate before a letter's escape in content": ("CONTENT", b"a\\ud800\\u0041b"),
    "escaped high surrogate before a pair in a uid": ("UID", b"\\uD800\\uD800\\uDC00"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_string_that_is_not_text_is_refused_naming_the_byte(store: RunStore, tmp_path: Path, case: str) -> None:
    marker, raw = CASES[case]
    path = _trace_with(tmp_path, marker, raw)
    error = refused(store, path)
    offset = path.read_bytes().index(raw)
    assert error.location.startswith("byte "), error
    assert abs(int(error.location.split()[1]) - offset) <= len(raw) + 2, error
    assert "not valid UTF-8 text" in error.problem


@pytest.mark.parametrize("lone", ["\\udc00", "\\ud800", "a\\uDBFF\\u00e9"])
def test_a_json_lines_file_with_a_lone_surrogate_names_the_line(store: RunStore, tmp_path: Path, lone: str) -> None:
    good = json.dumps(otlp_doc(span()))
    bad = json.dumps(otlp_doc(span(trace_id="1" * 32, name="NAME"))).replace("NAME", lone)
    path = tmp_path / "spans.jsonl"
    path.write_text(f"{good}\n{bad}\n")
    error = refused(store, path)
    assert error.location.startswith("line 2"), error


def test_a_lone_surrogate_inside_an_embedded_otlp_payload_is_refused(store: RunStore, tmp_path: Path) -> None:
    run = span(span_id="aaaaaaaaaaaaaaa1", attributes=[attr("run_inspector.span", "run"),
                                                       attr("run_inspector.run.uid", "u1"),
                                                       attr("run_inspector.outcome", "ok")])
    text = json.dumps(dict(LLM_PAYLOAD, content="PLACE")).replace("PLACE", "a\\udc00b")
    step = span(span_id="aaaaaaaaaaaaaaa2", parent="aaaaaaaaaaaaaaa1",
                attributes=[attr("run_inspector.span", "step"), attr("run_inspector.step.sequence", 1),
                            attr("run_inspector.step.payload", text)])
    path = tmp_path / "otlp.json"
    path.write_text(json.dumps(otlp_doc(run, step), indent=1))
    error = refused(store, path)
    assert "run_inspector.step.payload" in error.location and "lone surrogate" in error.problem


def test_a_valid_surrogate_pair_still_imports(store: RunStore, tmp_path: Path) -> None:
    path = _trace_with(tmp_path, "CONTENT", b"smile \\ud83d\\ude00")
    report = import_trace(store, path)
    assert report.runs_imported == 1


def test_an_escaped_backslash_before_the_letters_of_a_surrogate_is_text(store: RunStore, tmp_path: Path) -> None:
    path = _trace_with(tmp_path, "CONTENT", b"C:\\\\ud800\\\\\\\\udc00")
    import_trace(store, path)
    run = store.find_run_by_uid("UID")
    assert run is not None
    (step,) = store.iter_steps(run.id)
    assert step.payload["content"] == "C:\\ud800\\\\udc00"


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_a_time_the_store_cannot_hold_is_refused(store: RunStore, tmp_path: Path, moment: str) -> None:
    path = tmp_path / "edge.json"
    path.write_text(json.dumps(trace_doc([run_doc(steps=[step_doc(1, LLM_PAYLOAD, started_at=moment)])])))
    error = refused(store, path)
    assert error.location == "runs[0].steps[0].started_at" and "years 1 to 9999" in error.problem


def test_the_command_line_says_it_in_one_sentence_with_exit_2(tmp_path: Path) -> None:
    path = _trace_with(tmp_path, "KEY", b"a\xc0\xafb")
    done = subprocess.run([sys.executable, "-m", "inspector", "import", str(path), "--db", str(tmp_path / "x.db")],
                          capture_output=True, text=True, cwd=ROOT, env=os.environ.copy(), timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert "Nothing was imported." in done.stderr


@pytest.mark.parametrize("note, said", [("n" * 20_001, "at most 20000 characters"), (["a", "list"], "must be a string"),
                                        ({"deep": "x"}, "must be a string")])
def test_a_run_note_in_a_strangers_file_is_bounded_and_checked(tmp_path: Path, note: object, said: str) -> None:
    from test_trace_support import run_doc, trace_doc, write_json

    from inspector.store import RunStore
    from inspector.traces.format import TraceImportError
    from inspector.transfer.importing import import_trace

    path = write_json(tmp_path / "noted.json", trace_doc([run_doc(note=note)]))
    with RunStore.open(tmp_path / "runs.db") as store:
        with pytest.raises(TraceImportError) as refused:
            import_trace(store, path)
        assert said in str(refused.value) and "runs[0].note" in str(refused.value)
        assert store.list_runs(limit=None) == []


@pytest.mark.parametrize("field, value, said", [
    ("startTimeUnixNano", "9" * 29, "must be nanoseconds since 1970 (0 to 2^64-1), got a number of 29 digits"),
    ("endTimeUnixNano", "253402300800000000000", "must be nanoseconds since 1970 (0 to 2^64-1), got a number of 21"),
    ("intValue", "9" * 400, "must be a whole number of at most 20 digits (64 bits), got one of 400 digits"),
])
def test_a_number_too_large_for_64_bits_is_said_so(store: RunStore, tmp_path: Path, field: str, value: str,
                                                   said: str) -> None:
    """A whole number too large is called too large, not 'not a whole number'."""
    if field == "intValue":
        record = span(attributes=[{"key": "count", "value": {"intValue": value}}])
    else:
        record = span(**{"start" if field.startswith("start") else "end": value})
    path = tmp_path / "large.json"
    path.write_text(json.dumps(otlp_doc(record)))
    error = refused(store, path)
    assert said in error.problem and "got the string" not in error.problem
    assert error.location.endswith(field)


@pytest.mark.parametrize("value", ["9223372036854775808", "18446744073709551615", "-9223372036854775809", 1e19])
def test_an_int_value_beyond_int64_is_refused_naming_its_place(store: RunStore, tmp_path: Path, value: object) -> None:
    """An AnyValue's intValue is protobuf's int64. One beyond it (20 digits fit the old check) was imported, and
    the run's export in our own format then held a number that no int64 holds."""
    path = tmp_path / "large.json"
    path.write_text(json.dumps(otlp_doc(span(attributes=[attr("count", "x"),
                                                         {"key": "big", "value": {"intValue": value}}]))))
    error = refused(store, path)
    assert error.problem.startswith("must be a whole number of 64 bits (-9223372036854775808 to 9223372036854775807)")
    assert error.location.endswith("attributes[1].value.intValue")


@pytest.mark.parametrize("low", ["-9223372036854775808", -(2**63)])
def test_the_int64_edges_import_and_come_back_from_our_export(tmp_path: Path, low: object) -> None:
    """-2^63 (Java's Long.MIN_VALUE, a sentinel some agents record) was refused: yajl reads it as "integer
    overflow", and our export of it would have been a file no import read. Such a file is now read exactly."""
    from inspector.transfer.exporting import export

    path = tmp_path / "edges.json"
    edges = [{"key": "low", "value": {"intValue": low}},
             {"key": "high", "value": {"intValue": "9223372036854775807"}}]
    path.write_text(json.dumps(otlp_doc(span(attributes=edges))))
    with RunStore.open(tmp_path / "first.db") as first:
        import_trace(first, path)
        export(first, None, None, tmp_path / "again.json")
    with RunStore.open(tmp_path / "second.db") as second:
        import_trace(second, tmp_path / "again.json")
        (run,) = second.list_runs(limit=None)
        (step,) = second.iter_steps(run.id)
        assert step.payload["raw"]["otlp"]["attributes"] == {"low": -(2**63), "high": 2**63 - 1}


def test_a_place_nested_deep_is_said_by_its_first_and_last_steps(store: RunStore, tmp_path: Path) -> None:
    """A file nested 150 levels deep: the sentence names where it starts and where it broke, in a
    line a person can read (not two thousand characters of path)."""
    deep: dict = {"arrayValue": {"values": []}}
    inner = deep
    for _level in range(75):
        nested = {"arrayValue": {"values": []}}
        inner["arrayValue"]["values"].append(nested)
        inner = nested
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(otlp_doc(span(attributes=[{"key": "k", "value": deep}]))))
    error = refused(store, path)
    assert f"nested deeper than {MAX_DEPTH} levels" in error.problem
    assert error.location.startswith("line 1: resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.arrayValue…")
    assert error.location.endswith(".arrayValue.values[0]") and len(error.location) < 120
    assert len(str(error)) < 250


@pytest.mark.parametrize(("encoding", "bom", "named"), [
    ("utf-16", b"", "UTF-16"), ("utf-16-le", b"", "UTF-16"), ("utf-16-be", b"\xfe\xff", "UTF-16"),
    ("utf-32", b"", "UTF-32"),
    # Without a mark, beginning with a space or a line's end: "a character that cannot begin a JSON value" before
    ("utf-16-be", " ".encode("utf-16-be"), "UTF-16"), ("utf-16-le", "\n".encode("utf-16-le"), "UTF-16"),
    ("utf-32-le", b"", "UTF-32")])
def test_a_trace_saved_as_utf16_or_utf32_is_named_so(store: RunStore, tmp_path: Path, encoding: str, bom: bytes,
                                                     named: str) -> None:
    """PowerShell's `>` saves a trace as UTF-16: the sentence names the encoding and what to do, not
    "a character that cannot begin a JSON value" at byte 0."""
    path = tmp_path / "powershell.json"
    path.write_bytes(bom + json.dumps(otlp_doc(span())).encode(encoding))
    error = refused(store, path)
    assert error.problem == f"the file is {named} text, not UTF-8: save it as UTF-8 and import it again"


def _zipped(data: bytes) -> bytes:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("trace.json", data)
    return packed.getvalue()


@pytest.mark.parametrize(("packing", "pack"), [
    ("gzip", gzip.compress), ("zip", _zipped), ("bzip2", bz2.compress), ("xz", lzma.compress),
    ("zstd", lambda data: b"\x28\xb5\x2f\xfd" + data)])  # a zstd frame's magic number (no zstd in the standard library)
def test_a_compressed_trace_is_named_so(store: RunStore, tmp_path: Path, packing: str, pack: Any) -> None:
    """A trace sent gzip-compressed or zipped (or a collector's zstd file): the sentence says it is
    packed and what to do, not "a character that cannot begin a JSON value" at byte 0."""
    path = tmp_path / "trace.json.packed"
    path.write_bytes(pack(json.dumps(otlp_doc(span())).encode()))
    error = refused(store, path)
    assert error.problem == f"the file is compressed ({packing}), not JSON text: unpack it and import the trace inside"


@pytest.mark.parametrize(("moment", "said"), [
    ("2024-02-30T00:00:00Z", "names a day or time the calendar does not have"),
    ("2024-12-31T23:59:60Z", "names a day or time the calendar does not have"),
    ("10000-01-01T00:00:00Z", "is outside the times that can be stored (years 1 to 9999 in UTC)"),
    ("0000-01-01T00:00:00Z", "is outside the times that can be stored (years 1 to 9999 in UTC)"),
    ("yesterday", "is not an ISO 8601 time")])
def test_a_time_the_calendar_has_not_is_said_for_what_it_is(store: RunStore, tmp_path: Path, moment: str,
                                                            said: str) -> None:
    """30 February, a leap second, year 10000: said as such, not "not an ISO 8601 time"."""
    path = tmp_path / "edge.json"
    path.write_text(json.dumps(trace_doc([run_doc(steps=[step_doc(1, LLM_PAYLOAD, started_at=moment)])])))
    error = refused(store, path)
    assert error.location == "runs[0].steps[0].started_at"
    assert error.problem.startswith(f"{moment!r} {said}")


@pytest.mark.parametrize("moment", ["2024-02-29T12:00:00z", "2024-02-29t12:00:00.5z"])
def test_utc_written_with_a_small_z_is_read_as_utc(store: RunStore, tmp_path: Path, moment: str) -> None:
    """RFC 3339 allows 'z' for 'Z': it was refused as "a day or time the calendar does not have"."""
    path = tmp_path / "small_z.json"
    path.write_text(json.dumps(trace_doc([run_doc(started_at=moment, steps=[step_doc(1, LLM_PAYLOAD,
                                                                                     started_at=moment)])])))
    assert import_trace(store, path).runs_imported == 1
    run, = (run for run in store.list_runs() if run.uid == "run-1")
    assert run.started_at == datetime(2024, 2, 29, 12, 0, 0, 500_000 if ".5" in moment else 0, tzinfo=UTC)


@pytest.mark.parametrize("start, expected", [
    ("1.7e18", 1_700_000_000_000_000_000), (1.7e18, 1_700_000_000_000_000_000),
    ("1700000000000000000.0", 1_700_000_000_000_000_000), ("17000000001234567E2", 1_700_000_000_123_456_700),
    # a JSON number is the double its writer had (Python's time.time() * 1e9 is written 1.7000000001234568e+18)
    (1700000000.1234567e9, int(1700000000.1234567e9)),
    # a string is read exactly, as a collector (Go's protojson) reads it
    ("1700000000123456789.0", 1_700_000_000_123_456_789)])
@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_nanoseconds_with_an_exponent_or_a_fraction_are_read_as_protobuf_json_says(
        store: RunStore, tmp_path: Path, start: object, expected: int, suffix: str) -> None:
    """Protobuf's JSON mapping (and so a collector) takes a 64-bit integer written "1.7e18" or
    "5.0". The whole file was refused ("must be a whole number"), and the receiver dropped the span."""
    path = tmp_path / f"exponent{suffix}"
    path.write_text(json.dumps(otlp_doc(span(start=start, end="1700000002000000000"))) + "\n")  # type: ignore[arg-type]
    assert import_trace(store, path).runs_imported == 1
    run, = (run for run in store.list_runs() if run.source == "imported")
    step, = store.iter_steps(run.id)
    assert step.payload["raw"]["otlp"]["startTimeUnixNano"] == str(expected)
    assert step.started_at == datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=expected // 1000)


@pytest.mark.parametrize("start, shown", [("1.5", "the string '1.5'"), ("1700000000000000000.5", "the string"),
                                          (1.5, "the number 1.5"), ("1e400", "the string '1e400'")])
def test_nanoseconds_that_are_no_whole_number_are_still_refused(store: RunStore, tmp_path: Path, start: object,
                                                                shown: str) -> None:
    path = tmp_path / "fraction.json"
    path.write_text(json.dumps(otlp_doc(span(start=start))))  # type: ignore[arg-type]
    error = refused(store, path)
    assert error.location.endswith("startTimeUnixNano")
    assert f"must be a whole number (as a string or a number), got {shown}" in error.problem
