"""The shipped scenarios' descriptions are in the catalogue: German readers read them in German."""

from __future__ import annotations

import pytest

from inspector.agent import load_scenario, shipped_scenarios
from inspector.i18n import set_language
from inspector.i18n.scenarios import SHIPPED_DESCRIPTIONS, SHIPPED_TITLES, described, titled


def test_every_shipped_description_is_known_and_said_in_german() -> None:
    descriptions = {load_scenario(name).description for name in shipped_scenarios()}
    assert descriptions == set(SHIPPED_DESCRIPTIONS)
    set_language("de")
    try:
        german = {described(text) for text in descriptions}
    finally:
        set_language("en")
    assert german.isdisjoint(descriptions) and len(german) == len(descriptions)
    assert described("A scenario file's own words.") == "A scenario file's own words."


def test_every_shipped_scenario_has_a_title_said_in_german_beside_its_name() -> None:
    assert set(SHIPPED_TITLES) == set(shipped_scenarios())
    assert titled("happy-path") == "Everything works (happy-path)"
    set_language("de")
    try:
        german = {titled(name) for name in SHIPPED_TITLES}
    finally:
        set_language("en")
    assert "Alles gelingt (happy-path)" in german and len(german) == len(SHIPPED_TITLES)
    assert german.isdisjoint({titled(name) for name in SHIPPED_TITLES})
    assert titled("my-own") == "my-own"  # not ours: its name alone


BAD_FILES = [
    ('{"scenario": 2, "rounds": []}', "expected the format version 1",
     "ist bei scenario ungültig: erwartet wird die Formatversion 1."),
    ('{"scenario": 1, "rounds": [{"calls": [{"tool": "echo", "arguments": 3}]}]}', "expected an object",
     "ist bei rounds[0].calls[0].arguments ungültig: erwartet wird ein Objekt."),
    ('{"scenario": 1, "rounds": [{"on_failure": "panic"}]}', "expected one of continue, retry, stop",
     "erwartet wird eines von continue, retry, stop."),
    ('{"scenario": 1, "rounds": [{}], "colour": "red"}', "this key is not part of the format",
     "dieser Schlüssel gehört nicht zum Format (bekannt: "),
    ('{"scenario": 1, "name": "n", "description": "d", "prompt": "p", "rounds": [{}], "max_rounds": 0}',
     "expected a whole number of at least 1",
     "erwartet wird eine ganze Zahl von mindestens 1."),
    ('{"scenario": 1,', "is not valid JSON at line 1, column 16", "ist in Zeile 1, Spalte 16 kein gültiges JSON"),
    ('{"scenario": 1, "name": "n", "description": "d", "prompt": "p", "rounds": [{}], "budget_s": 604801}',
     "at budget_s: expected at most 604,800 seconds (a week).",
     "ist bei budget_s ungültig: erwartet werden höchstens 604.800 Sekunden (eine Woche)."),
    ('[{"scenario": 1}]', "is not valid: expected an object.", "ist ungültig: erwartet wird ein Objekt."),
    ('{"scenario": 1, "rounds": [' + "[" * 100_000 + "]" * 100_000 + "]}",
     "is not valid: nested deeper than 100 levels.", "ist ungültig: tiefer als 100 Ebenen verschachtelt."),
    ('{"scenario": 1, "prompt": "\\udc00", "rounds": [{}]}', "at prompt: holds something that is not text",
     "ist bei prompt ungültig: enthält etwas, das kein Text ist (ein maskiertes einzelnes Surrogat wie \\ud800)."),
    # Python's json says why in English only ("Expecting ',' delimiter"): said in words of ours.
    ('{"scenario": 1 "rounds": []}', "a comma expected here between two values (a comma missing?).",
     "kein gültiges JSON: hier fehlt ein Komma zwischen zwei Werten (vergessen?)."),
    (b'{"scenario": 1,\n  "name": "Gr\xfc\xdfe"}', "is not UTF-8 text at line 2, column 14: save it as UTF-8.",
     "ist in Zeile 2, Spalte 14 kein UTF-8-Text: Speichern Sie sie als UTF-8."),
    ('', "at line 1, column 1: a JSON value expected here (nothing is there, or something that is not JSON).",
     "kein gültiges JSON: hier wird ein JSON-Wert erwartet (da steht nichts oder etwas, das kein JSON ist)."),
]


def test_what_is_wrong_with_a_scenario_file_is_one_sentence_in_english_and_in_german(tmp_path) -> None:
    from inspector.agent import ScenarioError
    from inspector.i18n.messages import translate

    for index, (text, english, german) in enumerate(BAD_FILES):
        path = tmp_path / f"bad{index}.json"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        try:
            load_scenario(str(path))
        except ScenarioError as exc:
            caught = exc
        else:
            raise AssertionError(f"{text} was taken")
        assert str(caught).startswith(f"The scenario file {path} ") and english in str(caught)
        set_language("de")
        try:
            said = translate(caught)
        finally:
            set_language("en")
        assert said.startswith(f"Die Szenariodatei {path} ") and german in said, said
    set_language("de")
    try:
        try:
            load_scenario("no-such-scenario")
        except ScenarioError as exc:
            assert translate(exc).startswith("Es gibt kein mitgeliefertes Szenario namens 'no-such-scenario'")
    finally:
        set_language("en")


def test_a_folder_or_a_pipe_named_as_a_scenario_is_said_so_in_english_and_german(tmp_path) -> None:
    import os

    from inspector.agent import ScenarioError
    from inspector.i18n.messages import translate

    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    for path, english, german in ((tmp_path, "is a folder, not a scenario file", "ist ein Ordner, keine Szenariodatei"),
                                  (pipe, "is not a regular file", "ist keine gewöhnliche Datei")):
        with pytest.raises(ScenarioError) as refused:
            load_scenario(str(path))
        assert str(refused.value).startswith(f"{path} {english}")
        set_language("de")
        try:
            assert translate(refused.value).startswith(f"{path} {german}")
        finally:
            set_language("en")



def _texts(scenario) -> set[str]:
    """Every text a scenario plays: prompt, answers, what each round says, arguments that are text."""
    found = {scenario.prompt, scenario.final, scenario.give_up}
    for scripted in scenario.rounds:
        found.add(scripted.say)
        found.update(value for call in scripted.calls for value in call.arguments.values()
                     if isinstance(value, str))
    return found - {""}


# Arguments that are values, not prose: the same in every language.
NOT_PROSE = {"high", "7", "2 + 40 = 42"}


def test_every_word_a_shipped_scenario_plays_is_in_the_catalogue_and_played_in_german() -> None:
    from inspector.i18n import _
    from inspector.i18n.scenarios import SHIPPED_WORDS

    shipped = shipped_scenarios()
    english = set().union(*(_texts(scenario) for scenario in shipped.values()))
    assert english - NOT_PROSE == set(SHIPPED_WORDS)
    set_language("de")
    try:
        played = {name: scenario.played(_) for name, scenario in shipped.items()}
    finally:
        set_language("en")
    german = set().union(*(_texts(scenario) for scenario in played.values()))
    assert german & english == NOT_PROSE  # everything else is said in German
    happy = played["happy-path"]
    assert happy.prompt == "Sag Hallo, addiere 2 und 40, behalte die Summe als Notiz und zeig mir die Notizen."
    assert happy.rounds[0].calls[0].arguments == {"text": "Hallo aus der Demo!"}
    assert happy.rounds[1].calls[1].arguments == {"text": "2 + 40 = 42", "tags": ["maths"], "priority": "high"}
    # Played in English, a shipped scenario is its file word for word.
    assert {name: scenario.played(_) for name, scenario in shipped.items()} == shipped


def test_a_scenario_file_is_played_in_its_author_s_words() -> None:
    from inspector.agent import parse_scenario
    from inspector.i18n import _

    own = parse_scenario('{"scenario": 1, "name": "mine", "description": "d", "prompt": "Echoing.", '
                         '"rounds": [{"say": "Echoing.", "calls": [{"tool": "echo", "arguments": '
                         '{"text": "Hello from the demo!"}}]}]}', "mine.json")
    set_language("de")
    try:
        assert own.played(_) == own  # the same words as a shipped one, but the author's
    finally:
        set_language("en")
