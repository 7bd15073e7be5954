"""Which server ``call``, ``tools`` and ``ping`` speak to: an address, a configured server's name, or
a command given ad hoc with ``--stdio "COMMAND LINE"``.

The words are checked first (no store, no network): with ``--stdio`` the command line is the
server, so ``call`` takes only the tool's name. Then the server is made, lending what was
configured for it (its name, budget, roots, headers, or a command's environment).
"""

from __future__ import annotations

import argparse
import getpass
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.i18n import N_, _
from inspector.i18n.entry_names import endpoint_name, said_name
from inspector.i18n.formatting import format_seconds
from inspector.i18n.messages import Message
from inspector.mcp import ServerEndpoint, bounded_budget, public_url
from inspector.mcp.address_query import carries_typed_secret
from inspector.mcp.server import STDIO_KEY_PREFIX, InvalidServerError, scheme_missing
from inspector.mcp.server_command import InvalidCommandError, ServerCommand, parse_command_line, parse_env_assignment

from .common import BadInputError, UsageError, arguments_hint
from .safe_text import as_typed as _quoted
from .safe_text import one_line
from .typed_secrets import typed_shown

#: Longest typed value quoted back in full in a sentence (a pasted command line may be long).
_QUOTED_CHARS = 500


def check_server_words(args: argparse.Namespace) -> None:
    """The server and tool words of ``call``/``tools``/``ping`` make sense together, or a usage error
    says how to write them. With ``--stdio``, ``call``'s one word is moved to ``args.tool``."""
    words = [word for word in (args.url, getattr(args, "tool", None)) if word is not None]
    target = (args.command, getattr(args, "offering", None))
    takes_word = args.command in ("call", "task") or target in (("resources", "read"), ("prompts", "get"),
                                                                ("resources", "subscribe"), ("skills", "get"),
                                                                ("skills", "load"))
    wanted = 1 if takes_word else 0  # the words besides the server
    named = " ".join(word for word in target if word)  # as typed: `resources list`, not `resources`
    if target == ("resources", "subscribe") and (args.stdio is not None or args.sse):
        # Updates come on a listening session's stream: Streamable HTTP's (cli/subscribe.py).
        raise UsageError(Message(N_("resources subscribe needs a server at an address that speaks Streamable HTTP "
                                    "(not --stdio or --sse): resources subscribe SERVER URI")))
    if args.stdio is not None:
        if args.command == "call" and len(words) > wanted and (hint := arguments_hint(words[wanted:])) is not None:
            raise hint  # `call --stdio CMD echo text=hi`: the arguments, not a word of the command
        if len(words) > wanted:
            extra = words[:len(words) - wanted]
            raise UsageError(Message(N_("With --stdio the command line is the server, so {command} takes no server "
                                        "word ({extra} was given besides). If it belongs to the command, put the "
                                        "whole command line in quotes: --stdio {quoted}"), {
                "command": named, "extra": _quoted(" ".join(extra)),
                "quoted": _quoted(shlex.join([*shlex.split(args.stdio), *extra]) if _splits(args.stdio)
                                  else args.stdio)}))
        if takes_word:
            if not words and target[1] in ("read", "get", "load"):
                raise UsageError(_target_missing(target, stdio=True))
            if not words and args.command == "task":
                raise UsageError(Message(N_('task needs the task\'s id: task --stdio "COMMAND LINE" TASK_ID')))
            if not words:
                raise UsageError(Message(N_('call needs the tool\'s name: call --stdio "COMMAND LINE" TOOL')))
            args.url, args.tool = None, words[0]
        if args.sse:
            raise UsageError(Message(N_("--sse is for a server at an address; --stdio starts a command.")))
        if args.header:
            raise UsageError(Message(N_("--header is for a server at an address; a command's process gets --env "
                                        "NAME=VALUE.")))
        return
    if len(words) < wanted + 1:
        if target[1] in ("read", "get", "subscribe", "load"):
            raise UsageError(_target_missing(target, stdio=False))
        if args.command == "task":
            raise UsageError(Message(N_("task needs a server and the task's id: task SERVER TASK_ID")))
        if args.command == "call" and words and is_address(words[0]):
            raise UsageError(_tool_missing(words[0]))
        if args.command == "call":
            raise UsageError(Message(N_('call needs a server and the tool\'s name: call SERVER TOOL, or call '
                                        '--stdio "COMMAND LINE" TOOL')))
        raise UsageError(Message(N_('{command} needs a server: {command} SERVER (an address or a configured '
                                    'server\'s name), or {command} --stdio "COMMAND LINE"'),
                                 {"command": named}))


def _tool_missing(server: str) -> Message:
    """``call ADDRESS`` alone: the tool's name is what is missing, and ``tools`` lists the names (the
    address said as it may be shown: without its user name, password or query)."""
    try:
        shown = shlex.quote(one_line(public_url(server)))
    except ValueError:  # not an address that can be taken apart (a bad port): said as SERVER
        shown = "SERVER"
    return Message(N_("call needs the tool's name after the server: call {server} TOOL. "
                      "`run-inspector tools {server}` lists the tools it offers."), {"server": shown})


def _target_missing(target: tuple[str, str | None], *, stdio: bool) -> Message:
    if target == ("resources", "subscribe"):
        return Message(N_("resources subscribe needs a server and the resource's URI: resources subscribe SERVER URI"))
    if target[0] == "skills":
        if stdio:
            return Message(N_('skills {action} needs the skill\'s URI: skills {action} --stdio "COMMAND LINE" URI'),
                           {"action": target[1]})
        return Message(N_("skills {action} needs a server and the skill's URI (its SKILL.md): skills {action} "
                          "SERVER URI"), {"action": target[1]})
    if target == ("resources", "read"):
        if stdio:
            return Message(N_('resources read needs the resource\'s URI: resources read --stdio "COMMAND LINE" URI'))
        return Message(N_("resources read needs a server and the resource's URI: resources read SERVER URI"))
    if stdio:
        return Message(N_('prompts get needs the prompt\'s name: prompts get --stdio "COMMAND LINE" NAME'))
    return Message(N_("prompts get needs a server and the prompt's name: prompts get SERVER NAME"))


def ad_hoc_command(args: argparse.Namespace) -> ServerCommand:
    """The command of ``--stdio`` with its ``--env`` and ``--cwd``."""
    try:
        return parse_command_line(args.stdio, env_assignments(args.env), args.cwd)
    except InvalidCommandError as exc:
        raise UsageError(Message(N_("--stdio cannot be started: {reason}"), {"reason": exc.sentence})) from None


def env_assignments(given: list[str], option: str = "--env") -> dict[str, str]:
    """``NAME=VALUE`` words as a mapping (a value is never quoted back: it may be a credential)."""
    env: dict[str, str] = {}
    for item in given:
        try:
            name, value = parse_env_assignment(item)
        except InvalidCommandError as exc:
            name, found, _value = item.partition("=")
            if found and name:  # a name no variable can have: said (the name only, never the value)
                raise UsageError(Message(N_("{option} needs the form NAME=VALUE: {reason}"),
                                         {"option": option, "reason": exc.sentence})) from None
            raise UsageError(Message(N_("{option} needs the form NAME=VALUE, e.g. API_KEY=... (what was given is "
                                        "not repeated here, as it may be a credential)"), {"option": option})) from None
        env[name] = value
    return env


def not_a_server(value: str) -> Message:
    """The sentence for a word that is no address and no configured server's name, with the way to
    write what was probably meant (the words as typed)."""
    if value.startswith(STDIO_KEY_PREFIX) and value != STDIO_KEY_PREFIX:
        # A command server's key, as `servers` and `runs list` show one `call --stdio` started; its credentials
        # hidden before it is cut short (cut first, they could no longer be found whole).
        shown = _clipped(typed_shown(value))
        return Message(N_("{value} names a command server that is not configured here. To start its command "
                          "again and speak to it over stdin/stdout, write: --stdio {quoted}"),
                       {"value": _quoted(shown), "quoted": _quoted(shown.removeprefix(STDIO_KEY_PREFIX))})
    # A password or a query in it (an address typed without http://) is not repeated: a key in either.
    shown = _clipped(typed_shown(value))
    if scheme_missing(value) is not None or carries_typed_secret(value):
        return Message(N_("{value} is not a server address and no configured server has that name. An address "
                          "starts with http:// or https://: did you mean http://{address}?"),
                       {"value": _quoted(shown), "address": shown})
    return Message(N_("{value} is not a server address and no configured server has that name. To start it as a "
                      "command and speak to it over stdin/stdout, write: --stdio {quoted}"),
                   {"value": _quoted(shown), "quoted": _quoted(shown)})


def _clipped(value: str) -> str:
    return one_line(value if len(value) <= _QUOTED_CHARS else value[:_QUOTED_CHARS] + "…")


def is_address(value: str) -> bool:
    """A word that means an address (a scheme before it), not a name."""
    return "://" in value


@dataclass(frozen=True)
class Chosen:
    """The server to speak to, and what its configuration lends the operation."""

    server: ServerEndpoint
    budget_s: float | None = None
    roots: tuple[str, ...] = ()


def choose_server(registry: object | None, args: argparse.Namespace, budget_s: float | None,
                  headers: dict[str, str]) -> Chosen:
    """The server the words name. ``registry``: the configured servers (a ``ServerRegistry``), or
    ``None`` when there is no database to read. What the command line gives wins over what is stored."""
    if args.stdio is not None:
        server = ServerEndpoint.for_command(ad_hoc_command(args), era=_era(args, None))
        configured = registry.settings(server.key) if registry is not None else None  # type: ignore[attr-defined]
        if configured is None:
            return Chosen(server, budget_s)
        return Chosen(ServerEndpoint.for_command(server.command, name=configured.name,  # type: ignore[arg-type]
                                                 era=_era(args, configured)),
                      _budget(budget_s, configured), configured.roots)
    if is_address(args.url):
        _no_command_options(args)
        return _address(registry, args.url, args, budget_s, headers)
    configured = registry.find(args.url) if registry is not None else None  # type: ignore[attr-defined]
    if configured is None:  # a command's name there (`tools ping`) says the line that was probably meant
        raise UsageError(getattr(args, "server_slip", None) or not_a_server(args.url))
    if configured.command is None:
        _no_command_options(args)
        return _address(registry, configured.url, args, budget_s, headers)
    if args.sse or args.header:
        raise UsageError(Message(N_("{name} is a command server: --sse and --header are for servers at an "
                                    "address (its process gets --env NAME=VALUE)."), {"name": one_line(args.url)}))
    return Chosen(_configured_command(registry, configured, args), _budget(budget_s, configured), configured.roots)


def _budget(given: float | None, configured: Any) -> float | None:
    """``--budget``, else the server's stored budget; one that cannot be used (a database of an older version
    may keep 1e308 s, whose legs' whole seconds cannot be stored) is said, and the default applies."""
    if given is not None or configured.budget_s is None:
        return given
    seconds = bounded_budget(configured.budget_s)
    if seconds is None:
        print(_("run-inspector: the budget stored for {server}, {stored} s, cannot be used (a budget is positive "
                "and at most a week); the default applies. Set another with servers set --budget.").format(
                    server=one_line(said_name(configured.name, configured.url)),
                    stored=format_seconds(configured.budget_s)),
              file=sys.stderr)
        return None
    return configured.budget_s  # as kept: one under a second is raised by the operation, which says so


def _era(args: argparse.Namespace, configured: object | None) -> str:
    """The era to speak: ``--era``, else the configured server's, else ``auto``."""
    given = getattr(args, "era", None)
    if given is not None:
        return given
    return getattr(configured, "era", None) or "auto"


def _no_command_options(args: argparse.Namespace) -> None:
    if args.env or args.cwd is not None:
        raise UsageError(Message(N_("--env and --cwd are for a server started as a command (--stdio, or a "
                                    "configured command's name), not for an address.")))


def _address(registry: object | None, url: str, args: argparse.Namespace, budget_s: float | None,
             headers: dict[str, str]) -> Chosen:
    """A server at an address, with its configured name, budget, headers, roots and transport."""
    configured = registry.settings(_key(url)) if registry is not None else None  # type: ignore[attr-defined]
    name, roots, marked, secret_query = None, (), frozenset[str](), False
    transport = "sse" if args.sse else "http"
    if configured is not None:
        given = {header.lower() for header in headers}
        ask = ask_secret(configured.url, N_("The input ended before a value for the {header} header of {url} was "
                                            "given; nothing was sent. Type the value, or pass it with --header."))
        stored = registry.headers_for(  # type: ignore[attr-defined]
            configured.url, ask=lambda header: None if header.lower() in given else ask(header))
        headers = {**{k: v for k, v in stored.items() if k.lower() not in given}, **headers}
        marked = frozenset(header.name for header in configured.headers if header.secret)
        url, secret_query = _with_kept_query(registry, configured, url)
        _keyring_gave(registry, configured.url, said_name(configured.name, configured.url), given)
        name, roots = endpoint_name(configured.name, configured.url), configured.roots
        budget_s = _budget(budget_s, configured)
        if configured.transport == "sse":
            transport = "sse"
    try:
        server = ServerEndpoint(url, headers=headers, name=name, secret_headers=marked, transport=transport,
                                era=_era(args, configured), secret_query=secret_query)
    except InvalidServerError as exc:
        raise UsageError(exc) from None
    return Chosen(server, budget_s, roots)


def _with_kept_query(registry: object, configured: object, url: str) -> tuple[str, bool]:
    """``url`` with the query kept as a secret for the configured server (from the keyring, or asked
    for), and whether its query is that secret. A query the address given carries wins."""
    from inspector.mcp.address_query import address_query, with_query

    if not configured.secret_query:  # type: ignore[attr-defined]
        return url, False
    if address_query(url) is not None:
        return url, True
    key = configured.url  # type: ignore[attr-defined]
    ask = ask_secret(key, N_("The input ended before the query of {url} was given; nothing was sent. Type it, or "
                             "give the address with its query."))
    query = registry.query_for(key, ask=lambda _account: ask(_("query")))  # type: ignore[attr-defined]
    return with_query(url, query), query is not None


def _configured_command(registry: object, configured: object, args: argparse.Namespace) -> ServerEndpoint:
    """A configured command server, its secret variables from the keyring or asked for; ``--env`` and
    ``--cwd`` given here win."""
    from inspector.agent.server_commands import command_of

    given = env_assignments(args.env)
    key, name = configured.url, configured.name  # type: ignore[attr-defined]
    ask = ask_secret(name or key, N_("The input ended before a value for the environment variable {name} of "
                                     "{server} was given; nothing was started. Type the value, or pass it with "
                                     "--env NAME=VALUE."))
    setting = registry.command_for(key, ask=lambda variable: None if variable in given else ask(variable))  # type: ignore[attr-defined]
    _keyring_gave(registry, key, name or key, {f"env:{variable}" for variable in given})
    command = command_of(setting)
    env = {**command.env, **given}
    try:
        command = ServerCommand(command.program, command.args, env, args.cwd if args.cwd is not None else command.cwd,
                                command.secret_env)
    except InvalidCommandError as exc:
        raise UsageError(Message(N_("{server} cannot be started: {reason}"),
                                 {"server": one_line(name or key), "reason": exc.sentence})) from None
    return ServerEndpoint.for_command(command, name=name, era=_era(args, configured), key=key)


def _keyring_gave(registry: object, key: str, shown: str, given: set[str]) -> None:
    """Nothing is sent without a secret the keyring would not give (locked, refused) when no one could
    be asked for it: the command ends saying so (a secret given on the command line, ``given``
    lower-cased, is not needed from it)."""
    from .keyring_refusals import NotingKeeper, unreadable_error

    keeper = getattr(registry, "secrets", None)
    if isinstance(keeper, NotingKeeper) and not sys.stdin.isatty():
        refused = unreadable_error(keeper, key, shown, given)
        if refused is not None:
            raise refused


def ask_secret(server: str, ended: str) -> Callable[[str], str | None]:
    """Ask for a secret value (a header's, a variable's) the keyring could not give, when someone can
    answer. ``ended``: the sentence (``{name}`` or ``{header}``, ``{server}`` or ``{url}``) for input
    that ends before an answer.

    Without a terminal nothing is asked and nothing is said: the user was told once, when the
    secret was saved without a keyring, to give it on the command line.
    """

    def ask(name: str) -> str | None:
        if not sys.stdin.isatty():
            return None
        try:
            return getpass.getpass(_("{header} for {url}: ").format(header=name, url=server)) or None
        except EOFError:
            print(file=sys.stderr)  # end the prompt's line: the message gets its own
            raise BadInputError(Message(ended, {"name": name, "server": server, "header": name,
                                                "url": server})) from None

    return ask


def _key(url: str) -> str:
    """The key a server is stored under (its URL without credentials), tolerant of bad input."""
    try:
        return public_url(url)
    except ValueError:
        return url


def _splits(text: str) -> bool:
    try:
        shlex.split(text)
    except ValueError:
        return False
    return True


__all__ = ["Chosen", "ad_hoc_command", "ask_secret", "check_server_words", "choose_server", "env_assignments",
           "is_address", "not_a_server"]

