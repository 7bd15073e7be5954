"""A server the client starts itself: a program, its arguments, its environment, its folder.

The MCP stdio transport leaves the shape of a command to clients; every client uses "command, args,
env (and a working directory)". Environment values are often credentials (API keys): a
:class:`ServerCommand` never shows them (``repr`` and :meth:`ServerCommand.shown` name the
variables only). A command line typed by a user is split as a POSIX shell splits words, but no
shell is run: quotes group words, nothing is expanded.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field

from .command_line import shown_command_line
from .long_command import LONGEST
from .messages import N_, Message, Number
from .secrets import is_secret_header

#: Longest command line accepted (what a pasted configuration reasonably holds): one named by its words, never by a
#: hash (:mod:`.long_command`).
MAX_COMMAND_CHARS = LONGEST
#: Most arguments, and most environment variables, accepted for one command.
MAX_ARGUMENTS = 1_000
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class InvalidCommandError(ValueError):
    """The command cannot be started as given; ``sentence`` says why (translatable)."""

    def __init__(self, sentence: Message) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


@dataclass(frozen=True)
class ServerCommand:
    """A server run as a child process and spoken to over its stdin and stdout."""

    program: str
    args: tuple[str, ...] = ()
    #: Variables set for the process on top of the base environment; values may be secrets.
    env: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    cwd: str | None = None
    #: Variables the user marked secret; variables named like credentials (API_KEY, ...) are secret anyway.
    secret_env: frozenset[str] = field(default_factory=frozenset, compare=False, repr=False)

    def secret_values(self) -> list[str]:
        """The values of the secret variables: scrubbed from whatever the server says."""
        marked = {name.lower() for name in self.secret_env}
        return [value for name, value in self.env.items() if is_secret_header(name) or name.lower() in marked]

    def __post_init__(self) -> None:
        if not self.program.strip():
            raise InvalidCommandError(Message(N_("the command is empty: give the program to start, e.g. "
                                                 "'npx -y @modelcontextprotocol/server-everything stdio'")))
        if len(self.args) > MAX_ARGUMENTS or len(self.env) > MAX_ARGUMENTS:
            raise InvalidCommandError(Message(N_("the command has more than {most} arguments or environment "
                                                 "variables: check what was pasted"),
                                              {"most": Number(MAX_ARGUMENTS, f"{MAX_ARGUMENTS:,}")}))
        for part in (self.program, *self.args, *(self.cwd or "",)):
            if "\0" in part:
                raise InvalidCommandError(Message(N_("the command holds a NUL character, which no program can "
                                                     "receive: check what was pasted")))
        for name, value in self.env.items():
            _check_env_name(name)
            if "\0" in value:
                raise InvalidCommandError(Message(N_("the value of the environment variable {name} holds a NUL "
                                                     "character"), {"name": name}))

    @property
    def argv(self) -> list[str]:
        """What is started: the program, then its arguments."""
        return [self.program, *self.args]

    def shown(self) -> str:
        """The command line to show and store: words quoted as a shell would need them, the
        credentials among them as ``…`` (``--token …``, :mod:`.command_line`), the environment by
        its names only (``API_KEY=…``)."""
        words = [f"{name}=…" for name in sorted(self.env)]
        return " ".join([*words, shown_command_line(self.argv)])


def parse_command_line(text: str, env: Mapping[str, str] | None = None, cwd: str | None = None) -> ServerCommand:
    """The command a user typed ("npx -y pkg /tmp"), split into words as a POSIX shell would."""
    if len(text) > MAX_COMMAND_CHARS:
        raise InvalidCommandError(Message(N_("the command line is {length} characters long, longer than the {most} "
                                             "accepted: check what was pasted"), {
            "length": Number(len(text), f"{len(text):,}"),
            "most": Number(MAX_COMMAND_CHARS, f"{MAX_COMMAND_CHARS:,}")}))
    try:
        words = shlex.split(text, comments=False, posix=True)
    except ValueError:
        raise InvalidCommandError(Message(N_("the command line has a quote that is not closed"))) from None
    if not words:
        return ServerCommand("", env=dict(env or {}), cwd=cwd)  # raises the sentence for an empty command
    return ServerCommand(words[0], tuple(words[1:]), dict(env or {}), cwd)


def _check_env_name(name: str) -> None:
    if not _ENV_NAME.match(name):
        # The name is quoted, never the value: a value may be a credential.
        raise InvalidCommandError(Message(N_("'{name}' is not an environment variable name: use letters, "
                                             "digits and '_', not starting with a digit"), {"name": name[:80]}))


def parse_env_assignment(text: str) -> tuple[str, str]:
    """``NAME=value`` (as given to ``--env``) as its name and value; a name no variable can have is refused."""
    name, found, value = text.partition("=")
    if not found:
        raise InvalidCommandError(Message(N_("'{given}' is not an environment assignment: write NAME=value"),
                                          {"given": name[:80]}))
    _check_env_name(name)
    return name, value


__all__ = ["InvalidCommandError", "ServerCommand", "parse_command_line", "parse_env_assignment"]
