"""A trace the run model refuses (a leg, a step or one of its keys) is refused in the reader's
language, the whole sentence: the run model's own problem too, not only the importer's words around
it. Its English (``str()``, ``.problem``, ``--json``) stays byte for byte what it was."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from test_trace_support import TOOL_PAYLOAD, attr, otlp_doc, run_doc, span, step_doc, trace_doc, write_json

from inspector.cli import main
from inspector.i18n import set_language
from inspector.i18n.messages import translate
from inspector.runs import InvalidLegError, InvalidStepError, Leg, RunStep
from inspector.runs.step import _OPTIONAL_FIELDS, _SHAPE_SAID
from inspector.store import RunStore
from inspector.transfer import TraceExportError, TraceImportError, export, import_trace

#: Words of the English problems that a German sentence must not hold.
ENGLISH_WORDS = (" must ", " got ", " needs ", "non-negative", "whole number", " a string", " leg ", " step ",
                 "refused", "contradicts", "Cannot import", "Nothing was imported")

#: Python's words for what a file held, which a refusal must say in JSON's ("null", "the number 5", "a list").
PYTHON_WORDS = ("None", "True", "False", "got int", "got str", "got float", "got bool", "got list", "got dict",
                "got tuple", "mapping")


def _payload(**changes: Any) -> dict[str, Any]:
    payload = copy.deepcopy(TOOL_PAYLOAD)
    for key, value in changes.items():
        if value is None:
            payload.pop(key)
        else:
            payload[key] = value
    return payload


# name → (payload, location after runs[0].steps[0].payload, English problem, German problem)
CASES = {
    "leg_outcome": (
        _payload(legs=[{"method": "tools/call", "outcome": "exploded"}]), ".legs[0]",
        "outcome must be one of ['ok', 'failed', 'not_sent', 'cancelled'], got the string 'exploded'",
        "outcome muss einer der Werte ['ok', 'failed', 'not_sent', 'cancelled'] sein, erhalten: die Zeichenkette "
        "'exploded'"),
    "leg_method": (
        _payload(legs=[{"method": None, "outcome": "ok"}]), ".legs[0]",
        "method must be a non-empty string, got null",
        "method muss eine nicht leere Zeichenkette sein, erhalten: null"),
    "leg_seconds": (
        _payload(legs=[{"method": "tools/call", "outcome": "ok", "grantedS": -5}]), ".legs[0]",
        "grantedS must be a non-negative whole number of seconds, got the number -5",
        "grantedS muss eine nicht negative ganze Zahl von Sekunden sein, erhalten: die Zahl -5"),
    "leg_not_an_object": (
        _payload(legs=[[None]]), ".legs[0]",
        "a leg must be an object, got a list",
        "eine Etappe muss ein Objekt sein, erhalten: eine Liste"),
    "exchange": (
        _payload(legs=[{"method": "tools/call", "outcome": "ok", "exchange": [None]}]), ".legs[0]",
        "exchange must be an object, got a list",
        "exchange muss ein Objekt sein, erhalten: eine Liste"),
    "leg_key": (
        _payload(legs=[{"method": "tools/call", "grantedS": 20}]), ".legs[0]",
        "a leg needs the key 'outcome'",
        "einer Etappe fehlt der Schlüssel 'outcome'"),
    "leg_status": (
        _payload(legs=[{"method": "tools/call", "outcome": "not_sent", "httpStatus": 200}]), ".legs[0]",
        "a leg that was not sent cannot have an HTTP status",
        "eine Etappe, die nicht gesendet wurde, kann keinen HTTP-Status haben"),
    "step_key": (
        _payload(round=None), ".round",
        "a step payload needs the key 'round'",
        "den Rohdaten eines Schritts fehlt der Schlüssel 'round'"),
    "round": (
        _payload(round=-1), ".round",
        "round must be a non-negative whole number, got the number -1",
        "round muss eine nicht negative ganze Zahl sein, erhalten: die Zahl -1"),
    "duration": (
        _payload(durationMs="5"), ".durationMs",
        "durationMs must be a finite non-negative number, got the string '5'",
        "durationMs muss eine endliche, nicht negative Zahl sein, erhalten: die Zeichenkette '5'"),
    "kind": (
        _payload(kind=True), ".kind",
        "kind must be one of ['request', 'llm', 'tool', 'assembled', 'context', 'dropped', 'tool_write'], "
        "got the boolean true",
        "kind muss einer der Werte ['request', 'llm', 'tool', 'assembled', 'context', 'dropped', 'tool_write'] "
        "sein, erhalten: der Wahrheitswert true"),
    "tokens": (
        _payload(promptTokens=-5), ".promptTokens",
        "promptTokens must be a non-negative whole number, got the number -5",
        "promptTokens muss eine nicht negative ganze Zahl sein, erhalten: die Zahl -5"),
    "tool_name": (
        _payload(toolName=[None]), ".toolName",
        "toolName must be a string, got a list",
        "toolName muss eine Zeichenkette sein, erhalten: eine Liste"),
    "tool_result": (
        _payload(toolResult=5), ".toolResult",
        "toolResult must be a string, got the number 5",
        "toolResult muss eine Zeichenkette sein, erhalten: die Zahl 5"),
    "tool_outcome": (
        _payload(toolOutcome="exploded"), ".toolOutcome",
        "toolOutcome must be one of ['ok', 'failed', 'cancelled'], got the string 'exploded'",
        "toolOutcome muss einer der Werte ['ok', 'failed', 'cancelled'] sein, erhalten: die Zeichenkette "
        "'exploded'"),
    "contradiction": (
        _payload(toolIsError=True), ".toolIsError",
        "toolIsError=true contradicts toolOutcome 'ok': toolIsError must be true exactly when the outcome is not ok",
        "toolIsError=true widerspricht toolOutcome 'ok': toolIsError muss genau dann true sein, wenn das Ergebnis "
        "nicht ok ist"),
    "in_flight": (
        _payload(cancelledInFlight=True), ".cancelledInFlight",
        "cancelledInFlight is only for a step whose toolOutcome is 'cancelled', got toolOutcome 'ok'",
        "cancelledInFlight gibt es nur bei einem Schritt, dessen toolOutcome 'cancelled' ist, erhalten: "
        "toolOutcome 'ok'"),
    "in_flight_without_outcome": (
        _payload(cancelledInFlight=True, toolOutcome=None, toolIsError=None), ".cancelledInFlight",
        "cancelledInFlight is only for a step whose toolOutcome is 'cancelled', and this step has no toolOutcome",
        "cancelledInFlight gibt es nur bei einem Schritt, dessen toolOutcome 'cancelled' ist, und dieser Schritt hat "
        "kein toolOutcome"),
    "progress": (
        _payload(progress=[{"atMs": -1}]), ".progress",
        "progress must be a list of progress notes ({atMs, progress, total, message}), got a list",
        "progress muss eine Liste von Fortschrittsmeldungen ({atMs, progress, total, message}) sein, "
        "erhalten: eine Liste"),
}


def _refused(path: Path) -> TraceImportError:
    with RunStore.open(path.parent / "runs.db") as store, pytest.raises(TraceImportError) as caught:
        import_trace(store, path)
    return caught.value


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_run_model_s_problem_is_said_in_german_and_its_english_is_unchanged(tmp_path: Path, name: str) -> None:
    payload, where, english, german = CASES[name]
    path = write_json(tmp_path / f"{name}.json", trace_doc([run_doc(steps=[step_doc(1, payload)])]))
    error = _refused(path)
    location = f"runs[0].steps[0].payload{where}"
    assert (error.location, error.problem) == (location, english)
    assert not [word for word in PYTHON_WORDS if word in english]
    assert str(error) == f"Cannot import {name}.json: {location}: {english}. Nothing was imported."
    set_language("de")
    said = translate(error)
    assert said == f"{name}.json kann nicht importiert werden: {location}: {german}. Es wurde nichts importiert."
    assert not [word for word in ENGLISH_WORDS if word in said]
    # The English stays English whatever the language.
    assert str(error) == f"Cannot import {name}.json: {location}: {english}. Nothing was imported."
    assert error.problem == english


def test_an_otlp_file_s_step_is_refused_in_german_too(tmp_path: Path) -> None:
    run = span(span_id="aaaaaaaaaaaaaaa1", attributes=[attr("run_inspector.span", "run"),
                                                       attr("run_inspector.run.uid", "u1"),
                                                       attr("run_inspector.outcome", "ok")])
    step = span(span_id="aaaaaaaaaaaaaaa2", parent="aaaaaaaaaaaaaaa1",
                attributes=[attr("run_inspector.span", "step"), attr("run_inspector.step.sequence", 1),
                            attr("run_inspector.step.payload", json.dumps(_payload(round=-1)))])
    error = _refused(write_json(tmp_path / "otlp.json", otlp_doc(run, step)))
    assert error.problem == "round must be a non-negative whole number, got the number -1"
    set_language("de")
    said = translate(error)
    assert said.endswith(": round muss eine nicht negative ganze Zahl sein, erhalten: die Zahl -1. Es wurde nichts "
                         "importiert.")
    assert str(error).endswith(": round must be a non-negative whole number, got the number -1. Nothing was imported.")


def test_the_command_line_says_it_in_german_and_its_json_is_unchanged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.cli.ending as ending

    payload, _, english, german = CASES["leg_outcome"]
    bad = write_json(tmp_path / "bad.json", trace_doc([run_doc(steps=[step_doc(1, payload)])]))
    db = str(tmp_path / "runs.db")

    def run(*argv: str) -> tuple[int, str, str]:
        monkeypatch.setattr(ending, "_json_emitted", False)
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    english_json = run("import", str(bad), "--json", "--db", db)
    german_json = run("--lang", "de", "import", str(bad), "--json", "--db", db)
    german_text = run("--lang", "de", "import", str(bad), "--db", db)
    assert english_json[0] == german_json[0] == german_text[0] == 2
    assert german_json[1] == english_json[1]
    message = json.loads(english_json[1])["error"]["message"]
    assert message == f"Cannot import bad.json: runs[0].steps[0].payload.legs[0]: {english}. Nothing was imported."
    assert f"bad.json kann nicht importiert werden: runs[0].steps[0].payload.legs[0]: {german}. " in german_text[2]
    assert not [word for word in ENGLISH_WORDS if word in german_text[2]]


def test_a_step_the_database_holds_damaged_is_said_in_german_where_the_export_refuses_it(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        from tests.support.sample_runs import mixed_run

        run_id = mixed_run(store)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE steps SET payload = ? WHERE run_id = ? AND sequence = (SELECT MIN(sequence) FROM steps "
                     "WHERE run_id = ?)", (json.dumps({"kind": "llm", "round": -1, "durationMs": 1}), run_id, run_id))
    conn.close()
    with RunStore.open(db) as store, pytest.raises(TraceExportError) as caught:
        export(store, [run_id], None, tmp_path / "out.json", "trace")
    assert "is damaged in the database: round must be a non-negative whole number, got the number -1. " in str(
        caught.value)
    set_language("de")
    assert "round muss eine nicht negative ganze Zahl sein, erhalten: die Zahl -1" in translate(caught.value)
    assert "round must be" in str(caught.value)


# -- the run model's sentences ------------------------------------------------------------------------

def test_each_shape_is_said_with_its_own_english() -> None:
    assert {str(_SHAPE_SAID[field.shape]) for field in _OPTIONAL_FIELDS} == {field.shape for field in _OPTIONAL_FIELDS}


def test_a_nested_leg_problem_keeps_the_leg_s_sentence_inside_the_step_s() -> None:
    with pytest.raises(InvalidStepError) as caught:
        RunStep.from_payload(_payload(legs=[{"method": "tools/call", "outcome": "x"}]))
    error = caught.value
    assert str(error) == "legs[0]: outcome must be one of ['ok', 'failed', 'not_sent', 'cancelled'], got the string 'x'"
    assert error.template == "{place}: {problem}" and error.params["place"] == "legs[0]"
    set_language("de")
    assert translate(error) == ("legs[0]: outcome muss einer der Werte ['ok', 'failed', 'not_sent', 'cancelled'] sein, "
                                "erhalten: die Zeichenkette 'x'")


def test_an_error_given_plain_text_is_that_text_in_every_language() -> None:
    error = InvalidLegError("something {odd}")
    assert str(error) == "something {odd}" and error.template.format(**error.params) == "something {odd}"
    set_language("de")
    assert translate(error) == "something {odd}"
    with pytest.raises(InvalidLegError) as caught:
        Leg("", None, None, None, "ok")
    assert str(caught.value) == "method must be a non-empty string, got the string ''"
    assert translate(caught.value) == "method muss eine nicht leere Zeichenkette sein, erhalten: die Zeichenkette ''"
