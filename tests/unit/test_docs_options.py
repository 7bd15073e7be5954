"""The documents and the command line name the same options: every option a command's --help lists is in
README.md or docs/ (export's `--output`, the sign-in options `--auth-method` and `--scope`, `agent --live`
were in --help alone), and every option the README's command synopsis gives a command is one that command
takes (`serve-demo` refuses the `--db` the README once said every command takes)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

from inspector.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = README + "".join(path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md")))
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*(?![\w-])")
#: Taken anywhere on the line by every command (cli/language.py takes it out before parsing).
EVERYWHERE = {"--lang"}


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


def _every_command(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[
        tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for name, sub in _subcommands(parser).items():
        yield from _every_command(sub, (*path, name))


def _synopsis() -> list[str]:
    """The README's command synopsis, one entry per `run-inspector …` it shows (continuation lines joined)."""
    section = README[README.index("## Command line"):]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    entries: list[str] = []
    for line in block.splitlines():
        if line.startswith(" ") and entries:
            entries[-1] += " " + line.strip()
        else:
            entries += ["run-inspector " + part.strip() for part in line.split("run-inspector ") if part.strip()]
    return entries


def _commands_of(entry: str, top: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parsers an entry's words name: `resources list|templates` names two, `servers [--json] set` one."""
    parsers = [top]
    for word in entry.split()[1:]:
        if word.startswith(("[", "-")):
            continue
        names = word.split("|")
        subs = [_subcommands(parser) for parser in parsers]
        if not all(name in sub for name in names for sub in subs):
            break
        parsers = [sub[name] for sub in subs for name in names]
    return parsers


def test_every_option_of_every_command_is_documented() -> None:
    missing = sorted({f"{' '.join(path) or 'run-inspector'} {option}"
                      for path, parser in _every_command(build_parser()) for option in _options(parser)
                      if option.startswith("--") and option != "--help"
                      and not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", DOCS)})
    assert missing == [], f"options --help lists that neither README.md nor docs/ names: {missing}"


def test_the_readme_synopsis_gives_each_command_only_options_it_takes() -> None:
    top = build_parser()
    entries = _synopsis()
    assert len(entries) > 30, entries  # the block was found and read
    named = set()
    wrong = []
    for entry in entries:
        parsers = _commands_of(entry, top)
        assert parsers != [top], entry  # every entry names a command
        for parser in parsers:
            named.add(parser.prog)
            wrong += [f"{parser.prog}: {option}" for option in OPTION.findall(entry)
                      if option not in _options(parser) | EVERYWHERE]
    assert wrong == []
    every = {parser.prog for path, parser in _every_command(top) if path and not _subcommands(parser)}
    assert sorted(every - named) == [], "commands the synopsis does not show"
