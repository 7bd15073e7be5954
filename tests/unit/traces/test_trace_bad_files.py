"""Bad, truncated and hostile files: each is refused with a TraceImportError that names the
place and the problem, and the database is left byte for byte as it was."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from test_trace_support import (
    LLM_PAYLOAD,
    TOOL_PAYLOAD,
    attr,
    fingerprint,
    otlp_doc,
    run_doc,
    span,
    step_doc,
    trace_doc,
    write_json,
)

from inspector.i18n import set_language
from inspector.i18n.messages import translate
from inspector.store import RunStore
from inspector.traces.format import MAX_DEPTH, MAX_STRING_CHARS, TraceError, TraceImportError
from inspector.traces.json_stream import READ_CHUNK
from inspector.transfer import importing as trace_import
from inspector.transfer.importing import import_trace

BAD = Path(__file__).parent / "bad_traces"

# file → (text the location must contain, text the problem must contain)
EXPECTED = {
    "truncated.json": ("byte ", "truncated"),
    "top_level_string.json": ("the top level", "a trace is a JSON object or list"),
    "unknown_format.json": ("format", "unknown format 'other-trace'"),
    "format_is_an_object.json": ("format", "must be the string 'run-inspector-trace', got an object"),
    "newer_version.json": ("version", "version 99, written by a newer Run Inspector"),
    "missing_runs.json": ("the top level", "no 'runs'"),
    "missing_version.json": ("the top level", "no 'version'"),
    "version_as_string.json": ("version", "whole number"),
    "steps_not_a_list.json": ("runs[0].steps", "must be a list, got an object"),
    "payload_not_an_object.json": ("runs[0].steps[0].payload", "must be an object, got a list"),
    "step_not_an_object.json": ("runs[0].steps[0]", "a step must be an object"),
    "unknown_kind.json": ("runs[0].steps[0].payload.kind", "'teleport'"),
    "negative_duration.json": ("runs[0].steps[0].payload.durationMs", "non-negative"),
    "round_negative.json": ("runs[0].steps[0].payload.round", "non-negative"),
    "nan_token.json": ("byte 497 (line 21, column 21)", "invalid JSON"),
    "infinity_token.json": ("byte 498 (line 21, column 22)", "invalid JSON"),
    "empty.json": ("the top level", "the file is empty"),
    "whitespace_only.json": ("the top level", "the file is empty"),
    "binary_garbage.bin": ("byte 0 (line 1, column 1)", "invalid JSON"),
    "bom_garbage.json": ("byte 3", "invalid JSON"),
    "invalid_utf8.json": ("byte ", "not UTF-8 text"),
    "trailing_comma.json": ("byte ", "invalid JSON"),
    "two_documents.json": ("the top level", "more than one JSON value"),
    "duplicate_run_uid.json": ("runs[1]", "'same' appears twice in the file (first at runs[0])"),
    "duplicate_sequence.json": ("runs[0].steps[1].sequence", "sequence 1 appears twice"),
    "negative_sequence.json": ("runs[0].steps[0].sequence", "whole number"),
    "legs_not_a_list.json": ("runs[0].steps[0].payload.legs", "must be a list of legs"),
    "leg_unknown_outcome.json": ("runs[0].steps[0].payload.legs[0]", "'exploded'"),
    "outcome_on_llm_step.json": ("runs[0].steps[0].payload.toolOutcome", "an outcome on a non-tool step is refused"),
    "contradicting_outcome.json": ("runs[0].steps[0].payload.toolIsError", "contradicts toolOutcome 'failed'"),
    "legacy_outcome_on_llm.json": ("[1].toolOutcome", "non-tool step"),
    "empty_payload_list.json": ("the top level", "the list is empty"),
    "time_without_zone.json": ("runs[0].started_at", "no time zone"),
    "bad_status.json": ("runs[0].status", "'exploded'"),
    "run_without_uid.json": ("runs[0]", "no 'uid'"),
    "title_not_a_string.json": ("runs[0].title", "must be a string"),
    "neither_format_nor_spans.json": ("the top level", "unknown format"),
    "otlp_bad_trace_id.json": ("spans[0].traceId", "32 hexadecimal digits"),
    "otlp_zero_trace_id.json": ("spans[0].traceId", "all-zero"),
    "otlp_end_before_start.json": ("spans[0].endTimeUnixNano", "ends before it starts"),
    "jsonl_bad_line.jsonl": ("line 3, column", "truncated"),
    "jsonl_invalid_span_line.jsonl": ("line 2: resourceSpans[0].scopeSpans[0].spans[0].spanId", "16 hexadecimal"),
    "otlp_our_step_without_run.json": ("spans[0]", "no run span"),
    "otlp_payload_not_json.json": ("attributes.run_inspector.step.payload", "not valid JSON"),
    "otlp_spans_not_a_list.json": ("scopeSpans[0].spans", "must be a list"),
    "otlp_attribute_without_key.json": ("spans[0].attributes[0]", "string 'key'"),
    "otlp_array_bad_element.json": ("[1]", "must be an object"),
}


def refused(store: RunStore, path: Path) -> TraceImportError:
    """Import ``path``, expecting a refusal that changed nothing; return the error."""
    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    before = fingerprint(db)
    with pytest.raises(TraceImportError) as caught:
        import_trace(store, path)
    assert fingerprint(db) == before
    assert isinstance(caught.value, TraceError)
    # A problem of the file as a whole (it cannot be read) is said of the file, named by its path as given:
    # "Cannot import /tmp/…/missing.json: it cannot be read"; one inside it of its name and the place.
    whole = caught.value.location == "the file"
    where = "it " if whole else f"{caught.value.location}: "
    assert str(caught.value).startswith(f"Cannot import {path if whole else path.name}: {where}")
    return caught.value


def test_every_fixture_has_an_expectation() -> None:
    assert sorted(p.name for p in BAD.iterdir()) == sorted(EXPECTED)
    assert len(EXPECTED) >= 20


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_bad_file_is_refused_naming_the_place(store: RunStore, name: str) -> None:
    error = refused(store, BAD / name)
    location, problem = EXPECTED[name]
    assert location in error.location, error
    assert problem in error.problem, error


def _huge_string(tmp: Path) -> Path:
    payload = dict(LLM_PAYLOAD, content="x" * (MAX_STRING_CHARS + 1))
    return write_json(tmp / "huge.json", trace_doc([run_doc(steps=[step_doc(1, payload)])]))


def _deep_nesting(tmp: Path) -> Path:
    path = tmp / "deep.json"
    raw = "[" * 10_000 + "]" * 10_000
    path.write_text(json.dumps(trace_doc([run_doc(steps=[step_doc(1, dict(LLM_PAYLOAD, raw="RAW"))])]))
                    .replace('"RAW"', raw))
    return path


def _deep_unknown_key(tmp: Path) -> Path:
    path = tmp / "deep-unknown.json"
    path.write_text(json.dumps(trace_doc(extra="X")).replace('"X"', "{\"a\":" * 5_000 + "1" + "}" * 5_000))
    return path


def _huge_unknown_key(tmp: Path) -> Path:
    return write_json(tmp / "huge-unknown.json", trace_doc(notes="y" * (MAX_STRING_CHARS + 1)))


def _huge_key(tmp: Path) -> Path:
    payload = dict(LLM_PAYLOAD, raw={"k" * (MAX_STRING_CHARS + 1): 1})
    return write_json(tmp / "huge-key.json", trace_doc([run_doc(steps=[step_doc(1, payload)])]))


def _many_tiny_objects(tmp: Path) -> Path:
    payload = dict(LLM_PAYLOAD, raw=[{}] * 250_000)  # small as text, large in memory
    return write_json(tmp / "tiny-objects.json", trace_doc([run_doc(steps=[step_doc(1, payload)])]))


def _deep_otlp_payload(tmp: Path) -> Path:
    run = span(span_id="aaaaaaaaaaaaaaa1", attributes=[attr("run_inspector.span", "run"),
                                                       attr("run_inspector.run.uid", "u1"),
                                                       attr("run_inspector.outcome", "ok")])
    deep = dict(LLM_PAYLOAD, raw="RAW")
    text = json.dumps(deep).replace('"RAW"', "[" * 5_000 + "]" * 5_000)
    step = span(span_id="aaaaaaaaaaaaaaa2", parent="aaaaaaaaaaaaaaa1",
                attributes=[attr("run_inspector.span", "step"), attr("run_inspector.step.sequence", 1),
                            attr("run_inspector.step.payload", text)])
    return write_json(tmp / "deep-otlp.json", otlp_doc(run, step))


def _nan_in_otlp_payload(tmp: Path) -> Path:
    run = span(span_id="aaaaaaaaaaaaaaa1", attributes=[attr("run_inspector.span", "run"),
                                                       attr("run_inspector.run.uid", "u1"),
                                                       attr("run_inspector.outcome", "ok")])
    step = span(span_id="aaaaaaaaaaaaaaa2", parent="aaaaaaaaaaaaaaa1",
                attributes=[attr("run_inspector.span", "step"), attr("run_inspector.step.sequence", 1),
                            attr("run_inspector.step.payload", '{"kind": "llm", "round": 0, "durationMs": NaN}')])
    return write_json(tmp / "nan-otlp.json", otlp_doc(run, step))


def _jsonl_two_values_on_a_line(tmp: Path) -> Path:
    path = tmp / "two-on-a-line.jsonl"
    line = json.dumps(otlp_doc(span()))
    path.write_text(f"{line}\n{line}{line}\n")
    return path


def _tool_steps_with_duplicate_uids_in_otlp(tmp: Path) -> Path:
    def run(trace_id: str) -> dict:
        return span(trace_id, attributes=[attr("run_inspector.span", "run"), attr("run_inspector.run.uid", "same"),
                                          attr("run_inspector.outcome", "ok")])
    return write_json(tmp / "dup-otlp.json", otlp_doc(run("1" * 32), run("2" * 32)))


GENERATED: dict[str, tuple[Callable[[Path], Path], str, str]] = {
    "huge string": (_huge_string, "runs[0].steps[0].payload.content", "longer than the limit"),
    "nesting 10,000 deep": (_deep_nesting, "runs[0].steps[0].payload.raw", f"nested deeper than {MAX_DEPTH}"),
    "deep unknown key": (_deep_unknown_key, "extra", f"nested deeper than {MAX_DEPTH}"),
    "huge unknown key": (_huge_unknown_key, "notes", "longer than the limit"),
    "huge object key": (_huge_key, "runs[0].steps[0].payload.raw", "an object key of"),
    "many tiny objects": (_many_tiny_objects, "runs[0].steps[0].payload.raw", "larger than the limit"),
    "deep OTLP payload": (_deep_otlp_payload, "run_inspector.step.payload", "nested deeper"),
    "NaN in OTLP payload": (_nan_in_otlp_payload, "run_inspector.step.payload", "NaN"),
    "two values on a JSON line": (_jsonl_two_values_on_a_line, "line 2: the top level", "more than one JSON value"),
    "duplicate uid in OTLP": (_tool_steps_with_duplicate_uids_in_otlp, "spans[1]", "'same' appears twice"),
}


@pytest.mark.parametrize("case", sorted(GENERATED))
def test_a_hostile_file_is_refused(store: RunStore, tmp_path: Path, case: str) -> None:
    make, location, problem = GENERATED[case]
    error = refused(store, make(tmp_path))
    assert location in error.location, error
    assert problem in error.problem, error


def test_a_missing_file_is_refused(store: RunStore, tmp_path: Path) -> None:
    error = refused(store, tmp_path / "nowhere.json")
    assert error.location == "the file" and "cannot be read" in error.problem


def test_a_file_that_changes_between_the_passes_is_refused(store: RunStore, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # A budget of 0 keeps no steps, so the file is read twice; it changes after the first read.
    monkeypatch.setattr(trace_import, "CACHE_BUDGET", 0)
    monkeypatch.setattr(trace_import, "PROGRESS_INTERVAL_S", 0)
    path = write_json(tmp_path / "t.json", trace_doc([run_doc("new-run")]))
    other = json.dumps(trace_doc([run_doc("new-run", steps=[step_doc(1, LLM_PAYLOAD)])]), indent=1)

    def change(done: int, total: int) -> None:
        if done >= total // 2:
            path.write_text(other.ljust(total // 2))

    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    before = fingerprint(db)[2]
    with pytest.raises(TraceImportError) as refused_:
        import_trace(store, path, progress=change)
    # Said of the file as a whole (it was "t.json: the top level: the file changed ..."), in English and German.
    error = refused_.value
    assert (error.location, error.problem) == ("the file", "changed while it was being imported; try again")
    assert str(error) == ("Cannot import t.json: it changed while it was being imported; try again. "
                          "Nothing was imported.")
    set_language("de")
    assert translate(error) == ("t.json kann nicht importiert werden: Die Datei hat sich während des Imports geändert; "
                                "versuchen Sie es erneut. Es wurde nichts importiert.")
    assert fingerprint(db)[2] == before  # rolled back
    assert store.find_run_by_uid("new-run") is None


def test_a_file_that_grows_while_it_is_read_is_refused(store: RunStore, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A collector's file exporter still appending: the import read on as long as lines came (an
    append loop kept it reading a 4 GB file for a minute, until it was killed); now it stops at the
    size the file had when it began and says so."""
    monkeypatch.setattr(trace_import, "PROGRESS_INTERVAL_S", 0)
    lines = [json.dumps(otlp_doc(span(trace_id=f"{n:032x}"))) + "\n" for n in range(1, 3001)]
    path = tmp_path / "live.jsonl"
    path.write_text("".join(lines))
    assert path.stat().st_size > 2 * READ_CHUNK

    def append(done: int, total: int) -> None:
        with path.open("a") as file:
            file.write(lines[0].replace(f"{1:032x}", f"{done + 10_000:032x}"))

    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    before = fingerprint(db)
    with pytest.raises(TraceImportError) as caught:
        import_trace(store, path, progress=append)
    assert caught.value.problem == ("the file grew while it was being read (is something still writing it?): "
                                    "import it once it is complete")
    assert fingerprint(db) == before


@pytest.mark.parametrize("budget", [0, trace_import.CACHE_BUDGET])
def test_a_progress_callback_that_raises_cancels_the_import(store: RunStore, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch, budget: int) -> None:
    monkeypatch.setattr(trace_import, "CACHE_BUDGET", budget)
    monkeypatch.setattr(trace_import, "PROGRESS_INTERVAL_S", 0)
    steps = [step_doc(n, dict(TOOL_PAYLOAD, round=n)) for n in range(1, 3001)]
    path = write_json(tmp_path / "t.json", trace_doc([run_doc("big", steps=steps)]))

    class Stop(Exception):
        pass

    def stop_late(done: int, total: int) -> None:
        if done > total * 3 // 4:  # in the middle of writing
            raise Stop

    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    before = fingerprint(db)[2]
    with pytest.raises(Stop):
        import_trace(store, path, progress=stop_late)
    assert fingerprint(db)[2] == before
    assert store.find_run_by_uid("big") is None
    assert import_trace(store, path).steps_imported == 3000  # and the store still works


def test_a_bad_legs_place_is_said_once(store: RunStore) -> None:
    """The path names the leg; the sentence after it does not name it again ("legs[0]: legs[0]: …")."""
    error = refused(store, BAD / "leg_unknown_outcome.json")
    assert error.location.endswith("payload.legs[0]")
    assert str(error).count("legs[0]") == 1 and "outcome must be one of" in str(error)
