"""`--help` wraps its sentences at spaces only: an option named in a sentence stays whole on its line, as
it is typed (argparse's own wrapping split `--sampling-model-url` into `--sampling-` and `model-url`)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from inspector.cli.parser import build_parser
from inspector.i18n import set_language

#: A word cut at a hyphen at a line's end: `--assertion-`, `jwt-`, `Sampling-`.
CUT = re.compile(r"\w-$")


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases name the same parser
                yield from _parsers(sub)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("columns", ["60", "80", "100"])
def test_no_help_line_ends_in_a_word_cut_at_a_hyphen(monkeypatch: pytest.MonkeyPatch, language: str,
                                                      columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    set_language(language)
    try:
        cut = [(parser.prog, line) for parser in _parsers(build_parser())
               for line in parser.format_help().splitlines() if CUT.search(line.rstrip())]
    finally:
        set_language("en")
    assert cut == []


def test_the_options_a_sentence_names_are_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    set_language("en")
    parser = build_parser()
    call = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction)).choices["call"]
    text = call.format_help()
    for option in ("--sampling-model-url", "--assertion-file", "--id-token-file", "--idp-token-endpoint"):
        assert re.search(rf"(^|\s|\(){re.escape(option)}\b", text), option


@pytest.mark.parametrize("columns", ["60", "70", "80", "90", "100"])
def test_no_abbreviation_is_cut_at_a_lines_end(monkeypatch: pytest.MonkeyPatch, columns: str) -> None:
    """German help said "öffnen (z." at one line's end and "B. http://127.0.0.1:3200)" at the next's start
    (`import --help`, 80 columns): the space of "z. B." is no place to break."""
    monkeypatch.setenv("COLUMNS", columns)
    set_language("de")
    try:
        lines = [line for parser in _parsers(build_parser()) for line in parser.format_help().splitlines()]
    finally:
        set_language("en")
    cut = [(line, after) for line, after in zip(lines, lines[1:], strict=False)
           if re.search(r"(^|[\s(])\w\.$", line) and re.match(r"\s*\w\.", after)]
    assert cut == []
    assert sum("z.\u00a0B." in line for line in lines) > 10  # the help says it often: the check had something to see
