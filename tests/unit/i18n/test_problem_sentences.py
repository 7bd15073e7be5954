"""Problem sentences of the importer, the store and the client are said in the current language where a
person reads them, while their English (``str()``, ``.problem``, ``.message``, ``--json``) stays byte for byte."""

from __future__ import annotations

import ast
import gettext
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from inspector.cli import main
from inspector.i18n import install
from inspector.i18n.messages import translate
from inspector.store import RunStore
from inspector.traces.format import describe, format_path, place
from inspector.transfer import TraceExportError, TraceImportError, export, import_trace
from tests.support.fault_server import FaultServer, operate
from tests.unit.i18n.test_strings import Shouting

PACKAGE = Path(__file__).resolve().parents[3] / "inspector"


@pytest.fixture
def shouting() -> Iterator[None]:
    install(Shouting())
    yield
    install(None)


def _refused(tmp_path: Path, name: str, text: str) -> TraceImportError:
    bad = tmp_path / name
    bad.write_text(text, encoding="utf-8")
    with RunStore.open(tmp_path / "runs.db") as store, pytest.raises(TraceImportError) as caught:
        import_trace(store, bad)
    return caught.value


BAD_STATUS = ('{"format": "run-inspector-trace", "version": 1, "runs": [{"uid": "a", "title": "t", '
              '"status": 5, "steps": []}]}')


def test_a_corrupt_trace_says_its_problem_translated_with_the_value_named_as_a_phrase(
        tmp_path: Path, shouting: None) -> None:
    error = _refused(tmp_path, "bad.json", BAD_STATUS)
    english = ("Cannot import bad.json: runs[0].status: must be one of ['running', 'ok', 'failed', 'cancelled', "
               "'interrupted'], got the number 5. Nothing was imported.")
    assert str(error) == english
    assert error.location == "runs[0].status"
    assert error.problem == ("must be one of ['running', 'ok', 'failed', 'cancelled', 'interrupted'], "
                             "got the number 5")
    assert translate(error) == ("CANNOT IMPORT bad.json: runs[0].status: MUST BE ONE OF ['running', 'ok', "
                                "'failed', 'cancelled', 'interrupted'], GOT THE NUMBER 5. NOTHING WAS IMPORTED.")


@pytest.mark.parametrize(("text", "english", "shown"), [
    ('"just a string"', "Cannot import f.json: the top level: the file holds the string 'just a string'; a trace "
     "is a JSON object or list. Nothing was imported.",
     "CANNOT IMPORT f.json: THE TOP LEVEL: THE FILE HOLDS THE STRING 'just a string'; A TRACE IS A JSON OBJECT OR "
     "LIST. NOTHING WAS IMPORTED."),
    ('{"format": "run-inspector-trace", "version": 1, "runs": [', "Cannot import f.json: byte 57 (line 1, column "
     "58): invalid JSON: the JSON ends too early (is the file truncated?). Nothing was imported.",
     "CANNOT IMPORT f.json: BYTE 57 (LINE 1, COLUMN 58): INVALID JSON: THE JSON ENDS TOO EARLY (IS THE FILE "
     "TRUNCATED?). NOTHING WAS IMPORTED."),
    ('{"format": "run-inspector-trace", "version": true}', "Cannot import f.json: version: must be a whole number "
     "from 1, got the boolean true. Nothing was imported.",
     "CANNOT IMPORT f.json: version: MUST BE A WHOLE NUMBER FROM 1, GOT THE BOOLEAN TRUE. NOTHING WAS IMPORTED."),
])
def test_locations_and_inner_phrases_are_translated_too(tmp_path: Path, shouting: None, text: str, english: str,
                                                       shown: str) -> None:
    error = _refused(tmp_path, "f.json", text)
    assert str(error) == english
    assert translate(error) == shown


@pytest.mark.parametrize(("name", "text", "said"), [
    # A span export saved as CSV, its head quoted: was "the file holds the string 'trace_id'".
    ("spans.csv", '"trace_id","span_id"\n"ab","cd"\n', "byte 10 (line 1, column 11): invalid JSON: something that "
     "does not belong here (a value missing, or a comma too many)"),
    # A script handed over instead of its output: was "the file holds the string ''".
    ("make.py", '"""Make a trace."""\nprint(1)\n', "byte 20 (line 2, column 1): invalid JSON: a "
     "character that cannot begin a JSON value"),
    # Values alone are still said as what the file holds.
    ("one.json", '"just a string"\n', "the top level: the file holds the string 'just a string'"),
    ("two.json", '1\n2\n', "the top level: the file holds the number 1"),
])
def test_text_that_only_begins_as_json_is_said_to_be_invalid_json_where_it_stops(
        tmp_path: Path, name: str, text: str, said: str) -> None:
    """A file that begins with a JSON string but is no JSON (a CSV's quoted head, a Python file's docstring)
    was refused as if it held that string alone; it is invalid JSON, said where the JSON stops."""
    assert str(_refused(tmp_path, name, text)).startswith(f"Cannot import {name}: {said}")


def test_a_folder_and_an_unreadable_file_are_said_translated(tmp_path: Path, shouting: None) -> None:
    folder = tmp_path / "folder.json"
    folder.mkdir()
    with RunStore.open(tmp_path / "runs.db") as store, pytest.raises(TraceImportError) as caught:
        import_trace(store, folder)
    assert caught.value.problem == "is a folder, not a regular file; save the trace to a file and import that"
    # Said of the file, as an unreadable one is: not "the top level: is a folder" (no place inside it).
    assert caught.value.location == "the file"
    assert str(caught.value).startswith(f"Cannot import {folder}: it is a folder, not a regular file;")
    assert "IS A FOLDER, NOT A REGULAR FILE" in translate(caught.value)
    with RunStore.open(tmp_path / "runs.db") as store, pytest.raises(TraceImportError) as caught:
        import_trace(store, tmp_path / "missing.json")
    assert caught.value.location == "the file" and caught.value.problem.startswith("cannot be read (")
    assert str(caught.value).startswith(f"Cannot import {tmp_path / 'missing.json'}: it cannot be read (")
    assert ": IT CANNOT BE READ (" in translate(caught.value)


def test_the_phrases_keep_their_english_words() -> None:
    assert str(describe(None)) == "null" and str(describe(False)) == "the boolean false"
    assert str(describe(5)) == "the number 5" and str(describe(2.5)) == "the number 2.5"
    assert str(describe("x" * 61)) == "a string (61 characters)" and str(describe("ab")) == "the string 'ab'"
    assert str(describe({})) == "an object" and str(describe([])) == "a list"
    assert format_path(()) == "the top level" and format_path(("runs", 3, "steps")) == "runs[3].steps"
    assert place(("runs", 3)) == "runs[3]"  # file words are never translated


def test_a_german_catalogue_says_the_import_problem_in_german(tmp_path: Path) -> None:
    catalog = Catalog(locale="de")
    catalog.add("Cannot import {file}: {location}: {problem}. Nothing was imported.",
                "{file} kann nicht importiert werden: {location}: {problem}. Es wurde nichts importiert.")
    catalog.add("must be a whole number from 1, got {value}", "muss eine ganze Zahl ab 1 sein, erhalten: {value}")
    catalog.add("the string {text}", "die Zeichenkette {text}")
    path = tmp_path / "messages.mo"
    with path.open("wb") as out:
        write_mo(out, catalog)
    error = _refused(tmp_path, "v.json", '{"format": "run-inspector-trace", "version": "1"}')
    with path.open("rb") as source:
        install(gettext.GNUTranslations(source))
    try:
        assert translate(error) == ("v.json kann nicht importiert werden: version: muss eine ganze Zahl ab 1 sein, "
                                    "erhalten: die Zeichenkette '1'. Es wurde nichts importiert.")
    finally:
        install(None)
    assert str(error) == ("Cannot import v.json: version: must be a whole number from 1, got the string '1'. "
                          "Nothing was imported.")


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    import inspector.cli.ending as ending

    monkeypatch.setattr(ending, "_json_emitted", False)
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_line_says_an_import_problem_translated_and_its_json_is_unchanged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.cli.app as app

    bad = tmp_path / "bad.json"
    bad.write_text(BAD_STATUS, encoding="utf-8")
    db = str(tmp_path / "runs.db")
    english_json = _cli(["import", str(bad), "--json", "--db", db], capsys, monkeypatch)
    english_text = _cli(["import", str(bad), "--db", db], capsys, monkeypatch)
    assert english_json[0] == english_text[0] == 2
    assert json.loads(english_json[1])["error"]["message"].endswith("got the number 5. Nothing was imported.")
    assert "got the number 5" in english_text[2]
    monkeypatch.setattr(app, "apply_language", lambda argv: (None, list(argv)))
    install(Shouting())
    try:
        shouted_json = _cli(["import", str(bad), "--json", "--db", db], capsys, monkeypatch)
        shouted_text = _cli(["import", str(bad), "--db", db], capsys, monkeypatch)
    finally:
        install(None)
    assert shouted_json[:2] == english_json[:2]
    assert "CANNOT IMPORT bad.json: runs[0].status: MUST BE ONE OF" in shouted_text[2]
    assert "GOT THE NUMBER 5. NOTHING WAS IMPORTED." in shouted_text[2]


def _malformed(exchange) -> None:
    exchange.send(200, b'{"jsonrpc": "2.0", "id": ')


def test_a_malformed_server_answer_is_shown_translated_and_keeps_its_english_message(shouting: None) -> None:
    with FaultServer(work=_malformed) as server:
        from inspector.mcp import ServerEndpoint

        (ran,) = operate(ServerEndpoint(server.url, era="handshake"), "call")
    error = ran.error
    assert error is not None and error.kind.value == "malformed"
    assert error.message == (f"The server {server.url} sent a malformed answer to tools/call: the body is not "
                             "valid JSON.")
    assert translate(error) == (f"THE SERVER {server.url} SENT A MALFORMED ANSWER TO tools/call: THE BODY IS NOT "
                                "VALID JSON.")


def test_the_command_line_says_a_malformed_answer_translated_and_its_json_error_is_unchanged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.cli.app as app

    db = str(tmp_path / "runs.db")
    with FaultServer(work=_malformed) as server:
        english_json = _cli(["call", server.url, "echo", "--json", "--db", db], capsys, monkeypatch)
        monkeypatch.setattr(app, "apply_language", lambda argv: (None, list(argv)))
        install(Shouting())
        try:
            shouted_json = _cli(["call", server.url, "echo", "--json", "--db", db], capsys, monkeypatch)
            shouted_text = _cli(["call", server.url, "echo", "--db", db], capsys, monkeypatch)
        finally:
            install(None)
    english_error, shouted_error = json.loads(english_json[1])["error"], json.loads(shouted_json[1])["error"]
    assert english_error == shouted_error
    assert english_error["message"].endswith("sent a malformed answer to tools/call: the body is not valid JSON.")
    assert "SENT A MALFORMED ANSWER TO tools/call: THE BODY IS NOT VALID JSON." in shouted_text[1] + shouted_text[2]


def test_a_damaged_stored_step_is_said_translated_where_the_export_refuses_it(tmp_path: Path,
                                                                            shouting: None) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        from tests.support.sample_runs import mixed_run

        run_id = mixed_run(store)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE steps SET payload = '[1]' WHERE run_id = ? AND sequence = "
                     "(SELECT MIN(sequence) FROM steps WHERE run_id = ?)", (run_id, run_id))
    conn.close()
    with RunStore.open(db) as store:
        with pytest.raises(TraceExportError) as caught:
            export(store, [run_id], None, tmp_path / "out.json", "trace")
    english = str(caught.value)
    assert "is damaged in the database: the payload is not a JSON object." in english
    assert "IS DAMAGED IN THE DATABASE: THE PAYLOAD IS NOT A JSON OBJECT. EXPORT THE OTHER RUNS" in translate(
        caught.value)


def _english_literal_args(path: Path, call: str, index: int) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or len(node.args) <= index:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name == call and isinstance(node.args[index], (ast.Constant, ast.JoinedStr)):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_problem_or_malformed_detail_is_a_bare_english_string() -> None:
    offenders = []
    for path in sorted([*PACKAGE.joinpath("traces").glob("*.py"), *PACKAGE.joinpath("transfer").glob("*.py")]):
        offenders += _english_literal_args(path, "TraceProblem", 1) + _english_literal_args(path, "TraceImportError", 2)
    for path in sorted(PACKAGE.joinpath("mcp").glob("*.py")):
        offenders += _english_literal_args(path, "malformed", 2) + _english_literal_args(path, "NotAnAnswer", 0)
    assert offenders == []


@pytest.mark.parametrize(("text", "ours"), [
    ('[1,,2]', "something that does not belong here (a value missing, or a comma too many)"),
    ('[{"kind" "tool"}]', "an object's key without a colon after it"),
    ('{"format": "run-inspector-trace" "version": 1}',
     "a value in an object followed by neither a comma nor the object's end (a comma missing?)"),
    ('[{1: 2}]', "an object's key that is not a string in double quotes"),
    ('[1 2]', "a value in a list followed by neither a comma nor the list's end (a comma missing?)"),
    ('[tru]', "a word that is not JSON (only true, false and null are; a string without its double quotes?)"),
    ('[@]', "a character that cannot begin a JSON value"),
    ('["\\q"]', "a backslash inside a string before a character it cannot escape"),
    ('["\\u12x4"]', "a \\u escape inside a string without four hex digits"),
    ('[1.]', "a number without a digit after its decimal point"),
    ('[1] // note', "a comment (JSON has none)"),
    ('[' + '9' * 4301 + ']', "more than 4,300 digits in a row (a whole number too long to read)"),
    ('[1e999]', "a number too large for a floating-point number (such as 1e999)"),
])
def test_the_json_parser_s_complaint_is_said_in_words_of_ours(tmp_path: Path, shouting: None, text: str,
                                                             ours: str) -> None:
    # yajl's own words ("unallowed token at this point in JSON text") are English only and name no cause.
    error = _refused(tmp_path, "f.json", text)
    assert str(error).endswith(f": invalid JSON: {ours}. Nothing was imported."), str(error)
    assert translate(error).endswith(f": INVALID JSON: {ours.upper()}. NOTHING WAS IMPORTED.")


def test_the_place_of_bad_json_is_written_as_the_language_writes_numbers(tmp_path: Path) -> None:
    """A cut file said "Byte 20000 (Zeile 16, Spalte 1409)" in German; --json keeps the bare digits."""
    from inspector.i18n import set_language

    text = '{"format": "run-inspector-trace", "version": 1, "runs": [' + '\n' * 11 + '"' + "x" * 20_000
    error = _refused(tmp_path, "cut.json", text)
    assert str(error).startswith("Cannot import cut.json: byte 20069 (line 12, column 20002): invalid JSON")
    assert translate(error).startswith("Cannot import cut.json: byte 20,069 (line 12, column 20,002): invalid JSON")
    try:
        set_language("de")
        assert translate(error).startswith("cut.json kann nicht importiert werden: Byte 20.069 (Zeile 12, "
                                           "Spalte 20.002): ungültiges JSON")
    finally:
        set_language("en")
