"""Servers listed in other clients' configuration files: Claude Desktop, Cursor, VS Code, the MCP Inspector.

Claude Desktop, Cursor and the official Inspector list servers under ``mcpServers``; VS Code under
``servers`` (with ``type`` required and ``${input:…}`` placeholders for values it asks for); ``servers --json``
as a list under ``servers`` (:mod:`.listed_servers`). An
entry is a command (``command``, ``args``, ``env``, ``cwd``) or an address (``url``, ``headers``); its
``secret`` may name the variables or headers whose values are secrets, and ``budget_s``, ``era`` and ``roots``
its settings (``servers --json`` lists them so).
Reading never starts anything: it gives what would be added, and for each entry that cannot be
added, why. The file may come from anyone: it is read bounded (size, nesting, counts), and a value
that is not what the format says is named, not guessed.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .command_line import leaves_out_credentials
from .eras import ERAS
from .json_words import decoder_reason
from .listed_servers import LISTED_FORMAT, listed_entries
from .listed_signin import ListedSignIn, listed_signin
from .messages import N_, Message, Number, system_reason
from .server import InvalidServerError, ServerEndpoint, public_url
from .server_command import InvalidCommandError, ServerCommand

#: Largest configuration file read (real ones are a few kilobytes).
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Most servers taken from one file.
MAX_SERVERS = 500
#: A value VS Code asks the user for when the server starts (``${input:api-key}``).
_PLACEHOLDER = re.compile(r"\$\{(input|env|workspaceFolder|userHome)[^}]*\}")


class ServerConfigError(ValueError):
    """The file cannot be read as a server configuration; ``sentence`` says why (translatable)."""

    def __init__(self, sentence: Message) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


@dataclass(frozen=True)
class ConfiguredServer:
    """One entry that can be added: a command or an address, under the name the file gives it."""

    name: str
    command: ServerCommand | None = None
    url: str | None = None
    #: Extra HTTP headers (values may be credentials).
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    #: "stdio", "http" (Streamable HTTP) or "sse" (the older HTTP+SSE transport).
    transport: str = "stdio"
    #: Names of the environment variables and headers whose value the other client asks for
    #: when it starts the server (``${input:…}``): the user fills them in here.
    asks_for: tuple[str, ...] = ()
    #: Names of the headers whose values are secrets though not named like one (``servers --json`` lists them
    #: so): kept in the keyring as a secret header is. A command's are its ``secret_env``.
    secret_headers: tuple[str, ...] = ()
    #: Its operation budget (seconds), era of MCP (one of :data:`.eras.ERAS`) and roots (``file://`` URIs), where
    #: the file gives them (``servers --json`` does); ``None`` and ``()``: the defaults.
    budget_s: float | None = None
    era: str | None = None
    roots: tuple[str, ...] = ()
    #: An address's sign-in settings, where the file gives them (``servers --json`` lists them as ``signin``).
    signin: ListedSignIn | None = field(default=None, repr=False)

    def name_kept(self, key: str) -> str | None:
        """The name to configure it under, kept as the server ``key``: none when it is named by that key (an unnamed
        server, as ``servers --json`` lists it, stays unnamed)."""
        return None if self.name == key else self.name


@dataclass(frozen=True)
class SkippedServer:
    """An entry that cannot be added, and why."""

    name: str
    reason: Message


@dataclass(frozen=True)
class ServerConfig:
    """What a configuration file lists: its format's name, the entries to add, the ones skipped."""

    format: str
    servers: tuple[ConfiguredServer, ...]
    skipped: tuple[SkippedServer, ...]


def read_server_config(path: Path) -> ServerConfig:
    """The servers listed in the configuration file at ``path``."""
    try:
        info = os.stat(path)
    except OSError as error:
        raise _unreadable(path, error) from None
    if not stat.S_ISREG(info.st_mode):  # a FIFO or a device would block or never end
        raise ServerConfigError(Message(N_("{file} is not a regular file"), {"file": path.name}))
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise _unreadable(path, error) from None
    if len(data) > MAX_FILE_BYTES:
        most = MAX_FILE_BYTES // (1024 * 1024)
        raise ServerConfigError(Message(N_("{file} is larger than {most} MB; a server configuration is a few "
                                           "kilobytes"), {"file": path.name, "most": Number(most, str(most))}))
    return parse_server_config(data, path.name)


def _unreadable(path: Path, error: OSError) -> ServerConfigError:
    return ServerConfigError(Message(N_("cannot read {file}: {reason}"),
                                     {"file": path.name, "reason": system_reason(error)}))


def parse_server_config(data: bytes, name: str = "the file") -> ServerConfig:
    """The servers listed in a configuration document (JSON, UTF-8)."""
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ServerConfigError(Message(N_("{file} is not UTF-8 text"), {"file": name})) from None
    except RecursionError:
        raise ServerConfigError(Message(N_("{file} is nested too deeply to be a server configuration"),
                                        {"file": name})) from None
    except json.JSONDecodeError as error:  # said in words of ours, where it is (Python's are English)
        raise ServerConfigError(Message(N_("{file} is not valid JSON at line {line}, column {column}: {reason}"),
                                        {"file": name, "line": error.lineno, "column": error.colno,
                                         "reason": decoder_reason(error.msg)})) from None
    except ValueError as error:
        raise ServerConfigError(Message(N_("{file} is not valid JSON: {reason}"),
                                        {"file": name, "reason": str(error)[:200]})) from None
    if not isinstance(document, dict):
        raise ServerConfigError(Message(N_("{file} holds no server list: expected a JSON object with "
                                           "'mcpServers' or 'servers'"), {"file": name}))
    left_out: dict[str, Message] = {}
    if isinstance(document.get("mcpServers"), dict):
        entries, file_format = document["mcpServers"], "mcpServers"
    elif isinstance(document.get("servers"), dict):
        entries, file_format = document["servers"], "vscode"
    elif isinstance(document.get("servers"), list):  # what `servers --json` lists
        (entries, left_out), file_format = listed_entries(document["servers"]), LISTED_FORMAT
    else:
        raise ServerConfigError(Message(N_("{file} holds no server list: expected a JSON object with "
                                           "'mcpServers' or 'servers'"), {"file": name}))
    if len(entries) + len(left_out) > MAX_SERVERS:
        raise ServerConfigError(Message(N_("{file} lists {count} servers, more than the {most} read from one file"), {
            "file": name, "count": Number(len(entries) + len(left_out), f"{len(entries) + len(left_out):,}"),
            "most": Number(MAX_SERVERS, f"{MAX_SERVERS:,}")}))
    servers: list[ConfiguredServer] = []
    skipped = [SkippedServer(server_name, reason) for server_name, reason in left_out.items()]
    for server_name, entry in entries.items():
        try:
            servers.append(_entry(str(server_name), entry, vscode=file_format == "vscode"))
        except (_EntryError, InvalidCommandError, InvalidServerError) as error:
            skipped.append(SkippedServer(str(server_name), error.sentence))
    return ServerConfig(file_format, *_each_once(servers, skipped))


def _each_once(servers: list[ConfiguredServer],
               skipped: list[SkippedServer]) -> tuple[tuple[ConfiguredServer, ...], tuple[SkippedServer, ...]]:
    """A server listed again (its address or command under another name) is skipped, the first kept: a server is
    configured once, so the later one replaced it (its secrets dropped) while the import said it added both."""
    first: dict[str, str] = {}
    kept: list[ConfiguredServer] = []
    for server in servers:
        key = (ServerEndpoint.for_command(server.command).key if server.command is not None
               else public_url(server.url or ""))
        if key in first:
            skipped.append(SkippedServer(server.name, Message(
                N_("the same server as {name}, listed before it (a server is configured once)"),
                {"name": first[key]})))
        else:
            first[key] = server.name
            kept.append(server)
    return tuple(kept), tuple(skipped)


class _EntryError(ValueError):
    def __init__(self, sentence: Message) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


def _entry(name: str, entry: Any, *, vscode: bool) -> ConfiguredServer:
    if not name.strip():
        raise _EntryError(Message(N_("the entry has no name")))
    if not isinstance(entry, dict):
        raise _EntryError(Message(N_("the entry is not a JSON object")))
    kind = entry.get("type")
    if kind is not None and kind not in ("stdio", "http", "sse", "streamable-http", "streamableHttp"):
        raise _EntryError(Message(N_("the transport '{kind}' is not one Run Inspector speaks (stdio, http, sse)"),
                                  {"kind": str(kind)[:40]}))
    if "url" in entry or kind in ("http", "sse", "streamable-http", "streamableHttp"):
        return _address(name, entry, "sse" if kind == "sse" else "http")
    if vscode and kind is None:
        raise _EntryError(Message(N_("the entry has no 'type' (VS Code requires one)")))
    if "command" not in entry:
        raise _EntryError(Message(N_("the entry has neither a 'command' nor a 'url'")))
    program = _text(entry["command"], "command")
    args = entry.get("args", [])
    if not isinstance(args, list) or not all(isinstance(arg, str) for arg in args):
        raise _EntryError(Message(N_("'args' must be a list of texts")))
    if leaves_out_credentials([program, *args]):  # it would start with "…" as its token
        raise _EntryError(Message(N_("its command line holds '…' where a credential was left out (as `servers --json` "
                                     "lists it), and would start with '…'; a server configured so keeps its own "
                                     "(`servers --json --with-secrets` lists the configuration whole)")))
    env = _text_map(entry.get("env", {}), "env")
    cwd = entry.get("cwd")
    if cwd is not None:
        cwd = _text(cwd, "cwd")
    asks = tuple(sorted(key for key, value in env.items() if _PLACEHOLDER.search(value)))
    command = ServerCommand(program, tuple(args), {key: value for key, value in env.items() if key not in asks}, cwd,
                            secret_env=frozenset(_marked_secret(entry, env)))
    return ConfiguredServer(name, command=command, transport="stdio", asks_for=asks, **_settings(entry))


def _address(name: str, entry: dict[str, Any], transport: str) -> ConfiguredServer:
    url = _text(entry.get("url"), "url")
    headers = _text_map(entry.get("headers", {}), "headers")
    asks = tuple(sorted(key for key, value in headers.items() if _PLACEHOLDER.search(value)))
    kept = {key: value for key, value in headers.items() if key not in asks}
    ServerEndpoint(url, headers=kept)  # raises the sentence for a bad address or header
    return ConfiguredServer(name, url=url, headers=kept, transport=transport, asks_for=asks,
                            secret_headers=tuple(_marked_secret(entry, kept)),
                            signin=listed_signin(entry.get("signin")), **_settings(entry))


def _settings(entry: dict[str, Any]) -> dict[str, Any]:
    """The budget, era and roots an entry gives (``servers --json`` lists them), each left out unless well formed."""
    budget, era, roots = entry.get("budget_s"), entry.get("era"), entry.get("roots")
    given: dict[str, Any] = {}
    if type(budget) in (int, float) and 0 < budget < float("inf"):
        given["budget_s"] = float(budget)
    if era in ERAS:
        given["era"] = era
    if isinstance(roots, list) and roots and all(isinstance(root, str) and root.startswith("file://")
                                                 for root in roots):
        given["roots"] = tuple(roots)
    return given


def _marked_secret(entry: dict[str, Any], values: dict[str, str]) -> list[str]:
    """The names of ``values`` the entry's ``secret`` list marks secret (``servers --json`` marks them so)."""
    marked = entry.get("secret")
    return [name for name in values if name in marked] if isinstance(marked, list) else []


def _text(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _EntryError(Message(N_("'{key}' must be a non-empty text"), {"key": key}))
    return value


def _text_map(value: Any, key: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(item, str) for item in value.values()):
        raise _EntryError(Message(N_("'{key}' must map names to texts"), {"key": key}))
    return {str(name): item for name, item in value.items()}


__all__ = ["ConfiguredServer", "ServerConfig", "ServerConfigError", "SkippedServer", "parse_server_config",
           "read_server_config"]
