"""Build the grammar of the one command a command line names, and only the names of the others.

Adding the words of every command (about 650 options and positionals over some 60 sub-parsers) cost
7.5 ms of CPU on each command's start, 1.3 ms now (benchmarks/README.md, section 12). A command
parses with its own sub-parser alone; the others are there for their names and one-line helps
(``--help``, an unknown command's error), with none of their words added.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from .common import Parser

#: ``wanted`` of a grammar built whole (tests, the README's list of commands).
EVERY_COMMAND = object()


def command_word(argv: Sequence[str]) -> str | None:
    """The first word of ``argv`` that is no top-level option: the command (or a file, or a typo)."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word == "--db":  # the top-level option with a value (--lang is taken out before parsing)
            skip = True
        elif not word.startswith("-"):
            return word
    return None


class Unbuilt(Parser):
    """A command's sub-parser that holds its name and help only: its words are never added."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._built = True

    def add_argument(self, *args: Any, **kwargs: Any) -> Any:
        return None

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        # argparse's own set-up makes its two groups; a command's groups take no words here.
        return self if getattr(self, "_built", False) else super().add_argument_group(*args, **kwargs)

    def add_mutually_exclusive_group(self, **kwargs: Any) -> Any:
        return self

    def add_subparsers(self, **kwargs: Any) -> Any:
        kwargs["parser_class"] = Unbuilt
        kwargs.pop("action", None)
        return super().add_subparsers(**kwargs)


class SomeCommands(argparse._SubParsersAction):
    """The commands' sub-parsers: ``wanted`` gets its words, every other command its name and help."""

    wanted: object = EVERY_COMMAND

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if self.wanted is EVERY_COMMAND or name == self.wanted:
            return super().add_parser(name, **kwargs)
        built, self._parser_class = self._parser_class, Unbuilt
        try:
            return super().add_parser(name, **kwargs)
        finally:
            self._parser_class = built
