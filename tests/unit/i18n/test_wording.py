"""A sentence of ours kept as data beside the stored English (``wording``): said again in the
reader's language, with plural forms and numbers; a stranger's note never reaches into objects."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from inspector import i18n
from inspector.i18n.details import localized_step_details
from inspector.i18n.messages import message_from_note, said_again
from inspector.mcp.messages import N_, NP_, Message, Number, note_of, one_sentence
from inspector.runs import RunStep, step_details


@pytest.fixture
def german() -> Iterator[None]:
    assert i18n.set_language("de") == "de", "the German catalogue is not compiled (make translations)"
    yield
    i18n.set_language("en")


def _catalogue(count: int, pages: int) -> Message:
    if pages == 1:
        head = NP_("{count} tool in 1 page:", "{count} tools in 1 page:", {"count": count}, "count")
    else:
        head = NP_("{count} tool in {pages} pages:", "{count} tools in {pages} pages:",
                   {"count": count, "pages": pages}, "count")
    return Message("{operation}: {said}", {"operation": "tools/list", "said": head})


@pytest.mark.parametrize(("count", "pages", "german_head"), [
    (1, 1, "tools/list: 1 Tool auf 1 Seite:"),
    (10, 1, "tools/list: 10 Tools auf 1 Seite:"),
    (1200, 12, "tools/list: 1.200 Tools auf 12 Seiten:"),
])
def test_a_catalogue_sentence_is_said_in_german_with_its_plural_and_the_names_stay(
        german, count: int, pages: int, german_head: str) -> None:
    sentence = _catalogue(count, pages)
    stored = f"{sentence} echo, add"
    assert said_again(stored, note_of(sentence)) == f"{german_head} echo, add"


def test_in_english_the_stored_text_is_said_as_it_is() -> None:
    sentence = _catalogue(2, 1)
    stored = f"{sentence} echo, add"
    assert stored == "tools/list: 2 tools in 1 page: echo, add"
    assert said_again(stored, note_of(sentence)) == stored


def test_a_number_is_stored_as_its_value_and_formatted_for_the_reader(german) -> None:
    sentence = Message(N_("the server {server} speaks MCP {version} and answered ping in {seconds} s"),
                       {"server": "demo", "version": "2026-07-28", "seconds": Number(0.125, "0.125")})
    note = note_of(sentence)
    assert note["params"]["seconds"] == 0.125 and note["text"].endswith("in 0.125 s")
    assert said_again(str(sentence), note) == (
        "der Server demo spricht MCP 2026-07-28 und hat ping in 0,125 s beantwortet")


def test_several_sentences_are_said_one_after_the_other(german) -> None:
    first = Message(N_("The tool {tool} on the server {server} reported an error:"), {"tool": "fail", "server": "x"})
    both = one_sentence((first, Message("{text}", {"text": "it broke"})))
    assert str(both) == "The tool fail on the server x reported an error: it broke"
    assert said_again(str(both), note_of(both)) == "Das Tool fail auf dem Server x meldete einen Fehler: it broke"


def test_text_that_does_not_begin_with_the_note_is_shown_as_stored(german) -> None:
    sentence = _catalogue(2, 1)
    note = note_of(sentence)
    for stored in ("tools/list: 2 tools in 1 [REDACTED]", "", "other text"):
        assert said_again(stored, note) == stored
    assert said_again("tools/list: 2 tools in 1 page: a", None) == "tools/list: 2 tools in 1 page: a"
    assert said_again("tools/list: 2 tools in 1 page: a", {"text": ""}) == "tools/list: 2 tools in 1 page: a"


HOSTILE = [
    {"template": "{x.__class__.__mro__}", "params": {"x": "a"}},
    {"template": "{x:>999999999}", "params": {"x": "a"}},
    {"template": "{count} a", "plural": "{count.real} b", "count": "count", "params": {"count": 2}},
    {"template": "{count} a", "plural": "{count} b", "count": "count", "params": {"count": "2"}},
    {"template": "{count} a", "plural": "{count} b", "count": "count", "params": {"count": True}},
    {"template": "{count} a", "plural": "{count} b", "count": "count", "params": {"count": 2.5}},
    {"template": "{count} a", "plural": "{count} b", "count": "count", "params": {"count": 10**30}},
    {"template": "{count} a", "plural": "{count} b", "count": "Count!", "params": {"count": 2}},
    {"template": "{count} a", "plural": ["{count} b"], "count": "count", "params": {"count": 2}},
    {"template": "{count} a", "plural": "{count} b", "params": {"count": 2}},
    {"template": "{x} a", "params": {"x": float("nan")}},
    {"template": "{x} a", "params": {"x": [1, 2]}},
    {"template": "{x} a", "params": {}},
]


@pytest.mark.parametrize("note", HOSTILE)
def test_a_stranger_s_note_that_is_not_plain_gives_the_stored_english(german, note: dict) -> None:
    note = {**note, "text": "stored english"}
    assert message_from_note(note) == "stored english"
    assert said_again("stored english, then more", note) == "stored english, then more"


def test_a_stranger_s_plain_note_is_said_with_its_own_words_and_nothing_else(german) -> None:
    note = {"template": "{count} thing", "plural": "{count} things", "count": "count", "params": {"count": 3},
            "text": "3 things"}
    assert said_again("3 things: a, b, c", note) == "3 things: a, b, c"


def test_a_note_nested_deeper_than_ours_gives_the_stored_english(german) -> None:
    note: dict = {"template": "{x}", "params": {"x": "end"}, "text": "end"}
    for _ in range(8):
        note = {"template": "{x}", "params": {"x": note}, "text": "end"}
    assert said_again("end", note) == "end"


def test_a_step_keeps_its_wording_through_its_payload_and_the_timeline_says_it(german) -> None:
    sentence = Message(N_("The tool {tool} on the server {server} reported an error:"),
                       {"tool": "fail", "server": "demo"})
    step = RunStep(kind="tool", round=1, duration_ms=3, tool_name="fail",
                   tool_result=f"{sentence} This tool always fails.", tool_is_error=True, tool_outcome="failed",
                   wording=note_of(sentence))
    payload = step.to_payload()
    assert RunStep.from_payload(payload) == step
    assert step_details(payload) == "fail: The tool fail on the server demo reported an error: This tool always fails."
    assert localized_step_details(payload) == (
        "fail: Das Tool fail auf dem Server demo meldete einen Fehler: This tool always fails.")
    request = RunStep(kind="request", round=0, duration_ms=3, content=f"{_catalogue(2, 1)} echo, add",
                      wording=note_of(_catalogue(2, 1))).to_payload()
    assert localized_step_details(request) == "tools/list: 2 Tools auf 1 Seite: echo, add"


def test_text_cut_inside_the_sentence_gives_the_sentence_s_first_line(german) -> None:
    sentence = Message(N_("The tool {tool} on the server {server} reported an error:"),
                       {"tool": "fail", "server": "a server with a long name"})
    note = note_of(sentence)
    cut = str(sentence)[:30]  # a row's clip, or a first line, ending inside our sentence
    assert said_again(cut, note) == "Das Tool fail auf dem Server a server with a long name meldete einen Fehler:"


def test_a_budget_spent_before_a_leg_names_the_earlier_legs_and_an_older_runs_steps_still_read_in_german(
        german) -> None:
    from inspector.mcp.errors import RETIRED_SENTENCES, McpTransportError

    error = McpTransportError.exhausted_budget("http://127.0.0.1:1/mcp", "tools/call", 3)
    # A step is the run's (the model's, the tool's); what spent the budget were this step's legs.
    assert "used up by its earlier legs." in error.message and "earlier steps" not in error.message
    assert "von seinen früheren Etappen aufgebraucht" in said_again(error.message, note_of(error.sentences[0]))
    # A run stored before the new wording keeps its old English and template: still said in German.
    [older] = RETIRED_SENTENCES
    params = {"method": "tools/call", "server": "http://127.0.0.1:1/mcp", "budget": "3"}
    stored = older.format(**params)
    said = said_again(stored, note_of(Message(older, params)))
    assert said.startswith("tools/call wurde nicht an den Server http://127.0.0.1:1/mcp gesendet")
    assert "Etappen" in said
