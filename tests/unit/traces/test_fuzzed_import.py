"""Files a structural fuzzer of the committed fixtures and of exports made it find (tracefuzz64), each
minimised: refused with a sentence naming the place, the database unchanged, in reasonable time."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from test_hostile_import import refused
from test_trace_support import (
    LLM_PAYLOAD,
    TOOL_PAYLOAD,
    attr,
    otlp_doc,
    run_doc,
    span,
    step_doc,
    trace_doc,
    write_json,
)

from inspector import i18n
from inspector.i18n.messages import translate
from inspector.store import RunStore
from inspector.traces.format import TraceImportError
from inspector.transfer.importing import import_trace


def german(error: TraceImportError) -> str:
    assert i18n.set_language("de") == "de"
    try:
        return translate(error)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("sequence", [2**63, 2**64, 10**30])
def test_a_step_number_beyond_what_the_database_holds_is_refused_naming_it(store: RunStore, tmp_path: Path,
                                                                            sequence: int) -> None:
    path = write_json(tmp_path / "big.json", trace_doc([run_doc(steps=[step_doc(1, TOOL_PAYLOAD)])]))
    path.write_text(path.read_text().replace('"sequence": 1', f'"sequence": {sequence}'))
    error = refused(store, path)
    assert str(error) == (f"Cannot import big.json: runs[0].steps[0].sequence: must be a whole number from 0 to "
                          f"9223372036854775807, got the number {sequence}. Nothing was imported.")


def test_the_largest_step_number_the_database_holds_imports(store: RunStore, tmp_path: Path) -> None:
    path = write_json(tmp_path / "big.json", trace_doc([run_doc(steps=[step_doc(2**63 - 1, TOOL_PAYLOAD)])]))
    report = import_trace(store, path)
    assert [step.sequence for step in store.iter_steps(report.run_ids[0])] == [2**63 - 1]
    assert json.loads(path.read_text())["runs"][0]["steps"][0]["sequence"] == 2**63 - 1


@pytest.mark.parametrize(("after", "reason"), [(b'", "status": NaN}]}', "a character that cannot begin a JSON value"),
                                               (b"\x01", "a control character inside a string (it must be escaped)")])
def test_bad_json_after_a_long_string_is_located_at_once(store: RunStore, tmp_path: Path, after: bytes,
                                                         reason: str) -> None:
    # The byte yajl gave up at was found by feeding it one byte at a time, and inside a long string yajl
    # reads the string's bytes again with each: 160 KB before the error took 17 s, 300 KB about a minute.
    head = b'{"format": "run-inspector-trace", "version": 1, "runs": [{"uid": "u", "title": "'
    path = tmp_path / "long.json"
    path.write_bytes(head + b"x" * 300_000 + after)
    started = time.monotonic()
    error = refused(store, path)
    assert time.monotonic() - started < 5
    offset = len(head) + 300_000 + after.index(b"N" if b"N" in after else b"\x01")
    line = f"byte {offset} (line 1, column {offset + 1})"
    assert str(error) == f"Cannot import long.json: {line}: invalid JSON: {reason}. Nothing was imported."


def test_bad_json_after_a_string_far_into_a_file_is_found_without_parsing_the_file_again(
        store: RunStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Halving tries a parser of its own on every byte from the file's start, some twenty times: after 50 MB
    # that took 6.7 s where feeding the bytes one at a time took 0.6 s (review64d). Far into a file the bytes
    # are fed; halving is for a long string in a short one (above).
    from inspector.traces import json_stream

    tries = []
    real = json_stream._refuses
    monkeypatch.setattr(json_stream, "_refuses", lambda *args: tries.append(args[-1]) or real(*args))
    head = (b'{"format": "run-inspector-trace", "version": 1, "extra": [' + b"123456, " * 250_000
            + b'0], "runs": [{"uid": "u", "title": "')
    path = tmp_path / "far.json"
    path.write_bytes(head + b"y" * 20_000 + b"\x01 more")
    error = refused(store, path)
    offset = len(head) + 20_000
    assert str(error) == (f"Cannot import far.json: byte {offset} (line 1, column {offset + 1}): invalid JSON: a "
                          "control character inside a string (it must be escaped). Nothing was imported.")
    assert tries == []


@pytest.mark.parametrize(("raw", "reason"), [(b"C:\\\xd6ffentlich", "a backslash inside a string before a character "
                                                                   "it cannot escape"),
                                             (b"\\u00\xe9", "a \\u escape inside a string without four hex digits")])
def test_a_bad_escape_before_a_byte_that_is_not_utf8_is_said_whole(store: RunStore, tmp_path: Path, raw: bytes,
                                                                    reason: str) -> None:
    # A Windows path left unescaped in a file saved as Latin-1. yajl's message then quotes bytes that are not
    # UTF-8 and comes as bytes: its repr escaped the quote the reason was cut at ("invalid JSON: inside a string,.").
    path = write_json(tmp_path / "latin1.json", trace_doc([run_doc(title="TITLE")]))
    path.write_bytes(path.read_bytes().replace(b"TITLE", raw))
    error = refused(store, path)
    assert error.problem == f"invalid JSON: {reason}"
    assert german(error).endswith(": ungültiges JSON: " + {
            "a backslash": "ein Backslash in einer Zeichenkette vor einem Zeichen, das er nicht maskieren kann",
            "a \\u escape": "eine \\u-Maskierung in einer Zeichenkette ohne vier Hexadezimalziffern",
        }[reason.split(" inside")[0]] + ". Es wurde nichts importiert.")


def test_a_second_run_span_of_a_trace_names_the_first_s_place_as_a_place(store: RunStore, tmp_path: Path) -> None:
    def run_span(span_id: str) -> dict:
        return span(span_id=span_id, attributes=[attr("run_inspector.span", "run"), attr("run_inspector.run.uid", "u1"),
                                                 attr("run_inspector.outcome", "ok")])

    path = tmp_path / "twice.jsonl"
    path.write_text(json.dumps(otlp_doc(span(span_id="aaaaaaaaaaaaaaa3"), run_span("aaaaaaaaaaaaaaa1"))) + "\n"
                    + json.dumps(otlp_doc(run_span("aaaaaaaaaaaaaaa2"))) + "\n")
    error = refused(store, path)
    assert str(error) == ("Cannot import twice.jsonl: line 2: resourceSpans[0].scopeSpans[0].spans[0]: trace "
                          "5b8efff798038103d269b633813fc60c has a second run span (the first is at line 1: "
                          "resourceSpans[0].scopeSpans[0].spans[1]). Nothing was imported.")
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(otlp_doc(run_span("aaaaaaaaaaaaaaa1"), run_span("aaaaaaaaaaaaaaa2")), indent=1))
    assert str(refused(store, path)).endswith("has a second run span (the first is at "
                                              "resourceSpans[0].scopeSpans[0].spans[0]). Nothing was imported.")


def test_a_step_number_twice_in_an_otlp_export_of_ours_names_its_attribute(store: RunStore, tmp_path: Path) -> None:
    # It named the span's "sequence", which a span does not have (the step spans' traces mixed by the fuzzer).
    def step_span(span_id: str) -> dict:
        return span(span_id=span_id, parent="aaaaaaaaaaaaaaa1",
                    attributes=[attr("run_inspector.span", "step"), attr("run_inspector.step.sequence", 1),
                                attr("run_inspector.step.payload", json.dumps(LLM_PAYLOAD))])

    run = span(span_id="aaaaaaaaaaaaaaa1", attributes=[attr("run_inspector.span", "run"),
                                                       attr("run_inspector.run.uid", "u1"),
                                                       attr("run_inspector.outcome", "ok")])
    path = tmp_path / "ours.json"
    path.write_text(json.dumps(otlp_doc(run, step_span("aaaaaaaaaaaaaaa2"), step_span("aaaaaaaaaaaaaaa3")), indent=1))
    assert str(refused(store, path)) == (
        "Cannot import ours.json: resourceSpans[0].scopeSpans[0].spans[2].attributes.run_inspector.step.sequence: "
        "sequence 1 appears twice in this run. Nothing was imported.")
