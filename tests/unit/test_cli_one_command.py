"""The grammar of the one command a command line names (inspector/cli/one_command.py): the same words,
help and errors as the whole grammar's, without adding every other command's words (start-up)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from inspector.cli.common import UsageError
from inspector.cli.one_command import Unbuilt, command_word
from inspector.cli.parser import build_parser


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return dict(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...],
                                                                                           argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


WHOLE = build_parser()
NAMES = sorted(_commands(WHOLE))


@pytest.mark.parametrize("name", NAMES)
def test_a_command_built_alone_has_the_words_and_help_of_the_whole_grammar(name: str) -> None:
    alone = dict(_parsers(_commands(build_parser([name, "x"]))[name], (name,)))
    whole = dict(_parsers(_commands(WHOLE)[name], (name,)))
    assert alone.keys() == whole.keys()
    for path, parser in whole.items():
        assert alone[path].format_help() == parser.format_help(), path
        assert [a.dest for a in alone[path]._actions] == [a.dest for a in parser._actions], path


def test_the_top_level_help_and_an_unknown_commands_error_are_those_of_the_whole_grammar() -> None:
    assert build_parser([]).format_help() == WHOLE.format_help()
    said = []
    for parser in (build_parser(["rnus", "list"]), WHOLE):
        with pytest.raises(UsageError) as raised:
            parser.parse_args(["rnus", "list"])
        said.append(str(raised.value))
    assert said[0] == said[1] and "'rnus' is not a command of run-inspector: did you mean runs?" in said[0]


def test_only_the_named_command_gets_its_words() -> None:
    commands = _commands(build_parser(["--db", "runs.db", "runs", "list", "--limit", "3"]))
    assert not isinstance(commands["runs"], Unbuilt)
    others = [name for name, parser in commands.items() if name != "runs"]
    assert others
    for name in others:  # a name and a help; its sub-commands (resources list, ...) the same, and no option
        walked = list(_parsers(commands[name]))
        assert all(isinstance(parser, Unbuilt) and not any(a.option_strings for a in parser._actions)
                   for _, parser in walked), name
    parsed = build_parser(["runs", "list", "--limit", "3"]).parse_args(["runs", "list", "--limit", "3"])
    assert (parsed.command, parsed.runs_command, parsed.limit) == ("runs", "list", 3)


@pytest.mark.parametrize(("argv", "word"), [
    ([], None), (["--help"], None), (["runs", "list"], "runs"), (["--db", "call", "tools", "URL"], "tools"),
    (["--db=x.db", "--json", "export", "1"], "export"), (["trace.json"], "trace.json")])
def test_the_command_word_is_the_first_word_that_is_no_top_level_option(argv: list[str], word: str | None) -> None:
    assert command_word(argv) == word
