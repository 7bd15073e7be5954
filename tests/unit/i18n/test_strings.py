"""Sentences of the client, the command line and the importer come from the catalogue when shown,
while ``--json`` (and the error's English ``message``) stays the same in every language."""

from __future__ import annotations

import gettext
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.i18n import install
from inspector.i18n.messages import Message, translate
from inspector.mcp.errors import McpTransportError
from inspector.transfer import TraceImportError, import_trace


class Shouting(gettext.NullTranslations):
    """A 'language' that upper-cases every message it knows: what it returns came from the catalogue."""

    def gettext(self, message: str) -> str:
        return _upper_outside_placeholders(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return _upper_outside_placeholders(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return _upper_outside_placeholders(message)


def _upper_outside_placeholders(text: str) -> str:
    out, depth = [], 0
    for char in text:
        depth += char == "{"
        out.append(char if depth else char.upper())
        depth -= char == "}"
    return "".join(out)


@pytest.fixture
def shouting() -> Iterator[None]:
    install(Shouting())
    yield
    install(None)


def test_a_client_error_is_shown_translated_but_keeps_its_english_message(shouting: None) -> None:
    error = McpTransportError.timed_out("http://127.0.0.1:1/mcp", "tools/call", 2.5, 3, 2.5)
    assert error.message.startswith("The server http://127.0.0.1:1/mcp did not finish answering tools/call")
    assert error.to_dict()["message"] == error.message
    shown = translate(error)
    assert shown.startswith("THE SERVER http://127.0.0.1:1/mcp DID NOT FINISH ANSWERING tools/call")
    assert "2.5 S" in shown  # the number filled in after translation, in the locale's way


def test_an_added_sentence_is_translated_whole() -> None:
    error = McpTransportError.cancelled("srv", "tools/call", True)
    from inspector.mcp.server_requests import declined_sentence

    error.add_sentence(declined_sentence(["sampling/createMessage", "roots/list"]))
    assert error.message.endswith("may have been waiting on those requests.")
    install(Shouting())
    try:
        assert translate(error).endswith("MAY HAVE BEEN WAITING ON THOSE REQUESTS.")
    finally:
        install(None)


def test_a_german_catalogue_built_here_fills_named_placeholders(tmp_path: Path) -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale="de")
    catalog.add("There is no run {id}.", "Es gibt keinen Lauf {id}.")
    catalog.add(("{count} step was added.", "{count} steps were added."),
                ("{count} Schritt wurde hinzugefügt.", "{count} Schritte wurden hinzugefügt."))
    path = tmp_path / "messages.mo"
    with path.open("wb") as out:
        write_mo(out, catalog)
    with path.open("rb") as source:
        install(gettext.GNUTranslations(source))
    try:
        from inspector.i18n import N_
        assert translate(Message(N_("There is no run {id}."), {"id": 7})) == "Es gibt keinen Lauf 7."
        assert str(Message(N_("There is no run {id}."), {"id": 7})) == "There is no run 7."
        plural = Message("{count} step was added.", {"count": 3}, plural="{count} steps were added.", count="count")
        assert translate(plural) == "3 Schritte wurden hinzugefügt."
    finally:
        install(None)


def test_an_importer_problem_sentence_is_translated(tmp_path: Path) -> None:
    from inspector.store import RunStore

    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "run-inspector-trace", "version": 1, "runs": [}', encoding="utf-8")
    with RunStore.open(tmp_path / "runs.db") as store, pytest.raises(TraceImportError) as caught:
        import_trace(store, bad)
    assert str(caught.value).startswith("Cannot import broken.json:")
    install(Shouting())
    try:
        assert translate(caught.value).startswith("CANNOT IMPORT broken.json:")
        assert str(caught.value).startswith("Cannot import broken.json:")
    finally:
        install(None)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_readable_output_is_translated_and_json_is_not(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.cli.ending as ending

    db = str(tmp_path / "runs.db")
    from inspector.store import RunStore

    with RunStore.open(db) as store:
        run_id = store.start_run("call echo", "live", "http://127.0.0.1:9/mcp")
        store.finish_run(run_id, "cancelled")
    english_json = _run(["runs", "list", "--json", "--db", db], capsys)[1]
    english_show = _run(["runs", "show", str(run_id), "--json", "--db", db], capsys)[1]
    monkeypatch.setattr(ending, "_json_emitted", False)
    english_error = _run(["runs", "show", "99", "--json", "--db", db], capsys)
    english_text = _run(["runs", "show", str(run_id), "--db", db], capsys)[1]
    assert "status cancelled" in english_text

    # The command line chooses its language from --lang or the environment; here it keeps the test's.
    import inspector.cli.app as app

    monkeypatch.setattr(app, "apply_language", lambda argv: (None, list(argv)))
    install(Shouting())
    try:
        assert _run(["runs", "list", "--json", "--db", db], capsys)[1] == english_json
        assert _run(["runs", "show", str(run_id), "--json", "--db", db], capsys)[1] == english_show
        monkeypatch.setattr(ending, "_json_emitted", False)
        status, out, err = _run(["runs", "show", "99", "--json", "--db", db], capsys)
        assert (status, out) == english_error[:2]
        assert json.loads(out)["error"]["message"] == "There is no run 99. `runs list` shows the runs that are stored."
        assert "THERE IS NO RUN 99. `RUNS LIST` SHOWS THE RUNS THAT ARE STORED." in err
        shown = _run(["runs", "show", str(run_id), "--db", db], capsys)[1]
        assert "STATUS CANCELLED" in shown and f"RUN {run_id}: call echo" in shown
    finally:
        install(None)
    assert json.loads(english_json)["runs"][0]["status"] == "cancelled"


def test_a_client_sentence_with_plural_forms_is_german_in_both_forms() -> None:
    """NP_ gives Babel both forms as one plural message, so German's own plural rule picks the form."""
    from inspector import i18n
    from inspector.i18n.messages import translate
    from inspector.mcp.server_requests import declined_sentence

    assert i18n.set_language("de") == "de"
    try:
        one, two = translate(declined_sentence(["roots/list"])), translate(declined_sentence(["ping", "roots/list"]))
    finally:
        i18n.set_language("en")
    assert one.startswith("Der Server hatte den Client um roots/list gebeten")
    assert one.endswith("diese Anfrage gewartet.")
    assert two.endswith("diese Anfragen gewartet.")
    assert str(declined_sentence(["ping", "roots/list"])).endswith("waiting on those requests.")
