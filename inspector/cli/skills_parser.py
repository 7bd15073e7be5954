"""The grammar of ``skills list|get|load`` (SEP-2640's skills; what each does: cli/skills.py). Light
on purpose, as parser.py: parsing imports no network code."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from inspector.i18n import _

from .common import Parser

#: The operation of each (command, action): listing, one entry, loading (Run Inspector's name for
#: reading a skill's files and verifying them against its entry; not an MCP method).
SKILL_COMMANDS = {("skills", "list"): "skills/list", ("skills", "get"): "skills/get",
                  ("skills", "load"): "skills/load"}
#: The actions that take the skill's URI (its SKILL.md's) besides the server.
SKILL_TARGETS = {("skills", "get"), ("skills", "load")}


def add_skills_command(commands: argparse._SubParsersAction,
                       server_options: Callable[[argparse.ArgumentParser], None],
                       group_options: Callable[[argparse.ArgumentParser], None]) -> None:
    """``skills list SERVER``, ``skills get SERVER URI``, ``skills load SERVER URI``; ``group_options``: what
    ``skills`` itself takes before its action (as every group does: cli/parser.py)."""
    usage = _('%(prog)s [options] SERVER{extra}\n       %(prog)s [options] --stdio "COMMAND LINE"{extra}')
    command = commands.add_parser("skills", help=_("list the skills a server offers (the skills extension), show "
                                                   "one's entry, or load one: its files read and verified"))
    group_options(command)
    actions = command.add_subparsers(dest="offering", parser_class=Parser, metavar="{list,get,load}")
    # No action: missing_words says which there are.
    for action, help_text in (
            ("list", _("list the skills (skills/list; no file is read)")),
            ("get", _("show a skill's entry: its frontmatter and files with their digests (skills/get)")),
            ("load", _("load a skill: read each of its files (resources/read), check its size and SHA-256 digest "
                       "against the listing and SKILL.md's frontmatter against the entry's; the first mismatch "
                       "fails and nothing more is read"))):
        sub = actions.add_parser(action, help=help_text, usage=usage.format(extra=" URI" if action != "list" else ""))
        sub.intermixed = True
        server_options(sub)
        if action != "list":
            sub.add_argument("tool", nargs="?", metavar="URI", help=_("the skill's URI: its SKILL.md's, e.g. "
                                                                      "skill://demo-tour/SKILL.md"))


__all__ = ["SKILL_COMMANDS", "SKILL_TARGETS", "add_skills_command"]
