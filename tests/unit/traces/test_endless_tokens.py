"""A string too long for the limits is refused as it arrives, not once it is whole.

yajl holds an unfinished token whole and reads it again with each piece it is given, so a file of
one 200 MB string took 42 s and 418 MB to refuse (a 2 GB one would take more than 4 GB): now it is
refused once more bytes than the longest legal token (MAX_TOKEN_BYTES) pass without the end of a
token, wherever the string sits: the first key the sniffer reads, the first line of a JSON Lines
file, a field the reader skips, a span it builds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_trace_support import attr, fingerprint, otlp_doc, span, trace_doc

from inspector.store import RunStore
from inspector.traces.format import MAX_STRING_CHARS, TraceImportError
from inspector.traces.json_stream import MAX_TOKEN_BYTES
from inspector.transfer.importing import import_trace

MARK = "@@LONG@@"
ENDLESS = "more than 60 MB of the file without the end of a string, key or number: a string longer than the limit"


def _write_with_long_string(path: Path, text: str, count: int, unit: bytes = b"a", *, ends: bool = True) -> Path:
    """``text`` (JSON holding ``"@@LONG@@"``) with the mark replaced by ``count`` times ``unit``; the
    file ends there when not ``ends`` (a string that never ends)."""
    before, after = text.encode().split(MARK.encode())
    per_block = 1024 * 1024 // len(unit)
    with path.open("wb") as file:
        file.write(before)
        for _ in range(count // per_block):
            file.write(unit * per_block)
        file.write(unit * (count % per_block))
        if ends:
            file.write(after)
    return path


CASES = {
    # The sniffer reads the first key to tell the kind of file.
    "the first key": ('{"' + MARK + '": 1}', "the top level"),
    # A top-level field of our format the reader skips unread.
    "a field skipped": (json.dumps(trace_doc([]) | {"x": MARK}), "x"),
    # The first line of OTLP JSON Lines, read whole to tell lines from a document; then a span built.
    "a span attribute, JSON Lines": (json.dumps(otlp_doc(span(attributes=[attr("k", MARK)]))) + "\n",
                                     "line 1: resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.stringValue"),
    # The same span pretty-printed: one document.
    "a span attribute, a document": (json.dumps(otlp_doc(span(attributes=[attr("k", MARK)])), indent=1),
                                     "resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.stringValue"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_string_past_every_limit_is_refused_as_it_arrives(store: RunStore, tmp_path: Path, case: str) -> None:
    """The file ends inside the string: read whole first, it was refused as a file cut short."""
    text, location = CASES[case]
    path = _write_with_long_string(tmp_path / "long.json", text, MAX_TOKEN_BYTES + 40_000_000, ends=False)
    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    before = fingerprint(db)
    try:
        with pytest.raises(TraceImportError) as caught:
            import_trace(store, path)
    finally:
        path.unlink()
    assert fingerprint(db) == before
    assert caught.value.problem.startswith(ENDLESS), caught.value.problem
    assert caught.value.location == location


def test_the_longest_string_the_limits_allow_is_still_read(store: RunStore, tmp_path: Path) -> None:
    """MAX_STRING_CHARS characters each written as an escaped surrogate pair: the most bytes a
    string within the limits takes, which the bound on a token must never refuse."""
    path = _write_with_long_string(tmp_path / "longest.json", json.dumps(otlp_doc(span(attributes=[
        attr("k", MARK)]))), MAX_STRING_CHARS // 2, b"\\ud83d\\ude00" * 2)
    assert path.stat().st_size > MAX_TOKEN_BYTES
    try:
        report = import_trace(store, path)
    finally:
        path.unlink()
    assert report.steps_imported == 1
