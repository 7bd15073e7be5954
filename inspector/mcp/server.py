"""The address of an MCP server as the user configured it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .address_credentials import basic_authorization
from .address_query import address_query, address_to_quote, query_secrets
from .command_line import shown_command_line
from .eras import ERAS
from .messages import N_, Message, Number
from .secrets import Secrets, header_secrets, url_secrets
from .server_command import ServerCommand
from .signin.model import SignInSettings
from .url_parts import readable_parts
from .user_info import read_address, second_server

#: How a server is reached: Streamable HTTP, the older HTTP+SSE transport, or a command's stdin/stdout.
TRANSPORTS = ("http", "sse", "stdio")
#: The prefix of a command server's key (its identity in the store, where an address has its URL).
STDIO_KEY_PREFIX = "stdio:"

_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_HEADER_VALUE = re.compile(r"^[\t\x20-\x7e]*$")
#: A host name's characters: letters (any script: the HTTP library checks international names),
#: digits, ``.``, ``-``, ``_`` and ``~``. Not a space, ``%`` or other punctuation, which the HTTP
#: library would otherwise send on percent-encoded, to fail only when the name is looked up.
_HOST_NAME = re.compile(r"^[\w.~-]+$")
#: A value that looks like an address without its scheme: ``localhost:8000/mcp``, ``example.com/mcp``.
_HOST_LIKE = re.compile(r"^(localhost|\d{1,3}(\.\d{1,3}){3}|[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})"
                        r"(:\d{1,5})?(/\S*)?$")
#: The zone of a bracketed IPv6 address written as RFC 6874 has it (``[fe80::1%25eth0]``).
_ENCODED_ZONE = re.compile(r"%25([^\]]+)\]")
MAX_URL_CHARS = 8000
"""Longest server address accepted (what common servers and proxies accept in a request line)."""


class InvalidServerError(ValueError):
    """The server address cannot be used (not an absolute http(s) URL). ``str()`` is the English
    sentence; ``sentence`` the same, translatable where it is shown."""

    def __init__(self, sentence: Message) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


@dataclass(frozen=True)
class ServerEndpoint:
    """A server: an address (a URL, spoken to over Streamable HTTP or the older HTTP+SSE
    transport) or a command (a program started and spoken to over stdin/stdout); optional extra
    headers (e.g. ``Authorization``) for an address, and a display name.

    ``transport`` is the tag. A command server's ``url`` is its key (``stdio:`` and the command
    line without its environment, see :func:`command_key`): what the store and the health name it
    by. Header and environment values may be credentials: they are sent, never shown. ``label``
    is what every message names the server by.
    """

    url: str
    headers: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    name: str | None = None
    #: Headers the user marked secret; headers named like credentials (Authorization, ...) are secret anyway.
    secret_headers: frozenset[str] = field(default_factory=frozenset, compare=False, repr=False)
    transport: str = "http"
    #: The program to start, for the ``stdio`` transport.
    command: ServerCommand | None = field(default=None, compare=False, repr=False)
    #: Which era of MCP to speak (:data:`.eras.ERAS`): ``auto`` probes, the others pin one.
    era: str = field(default="auto", compare=False)
    #: How to sign in to it (OAuth), when it asks: the user's client id and such; ``None``: discover all.
    signin: SignInSettings | None = field(default=None, compare=False, repr=False)
    #: True when ``Authorization`` carries a sign-in's token (not a header the user configured).
    signed_in: bool = field(default=False, compare=False, repr=False)
    #: The key a DPoP-bound sign-in's requests are proved with (``signin.proofs.DpopKey``), if any.
    dpop: Any = field(default=None, compare=False, repr=False)
    #: True when the query of ``url`` is a secret kept for the configured server (its key, say). Any
    #: query is sent, scrubbed from what comes back, and never shown (``key`` and ``label`` leave it out).
    secret_query: bool = field(default=False, compare=False, repr=False)
    #: Secret headers of the configured server that are not sent: no keyring kept their values (the
    #: window after a restart without one). A 401 without an OAuth challenge is then said to want them.
    unkept_headers: frozenset[str] = field(default_factory=frozenset, compare=False, repr=False)

    @classmethod
    def for_command(cls, command: ServerCommand, name: str | None = None, era: str = "auto",
                    key: str | None = None) -> ServerEndpoint:
        """A server started as ``command`` and spoken to over its stdin and stdout; ``key``: the one it is
        configured under, when not :func:`command_key`'s (configured before a credential among its words was
        left out of it: its runs and health stay one server's until it is saved again)."""
        return cls(key or command_key(command), name=name, transport="stdio", command=command, era=era)

    def __post_init__(self) -> None:
        if self.transport not in TRANSPORTS:
            raise ValueError(f"transport must be one of {TRANSPORTS}")
        if self.era not in ERAS:
            raise ValueError(f"era must be one of {ERAS}")
        if self.transport == "stdio":
            if self.command is None or not self.url.startswith(STDIO_KEY_PREFIX):
                raise ValueError("a stdio server is made with ServerEndpoint.for_command")
            return
        # Messages quote the address without its user info and its query: "user:password@" is a credential, and a
        # query often holds the key ("?api_key=…").
        shown = _clip(address_to_quote(self.url))
        if len(self.url) > MAX_URL_CHARS:
            length, most = len(self.url), MAX_URL_CHARS
            raise InvalidServerError(Message(N_("the server address is {length} characters long, longer than the "
                                                "{most} accepted: check what was pasted"), {
                "length": Number(length, f"{length:,}"), "most": Number(most, f"{most:,}")}))
        parts = readable_parts(self.url)  # an unclosed "[" of an IPv6 host, a port out of range: no parts
        if (parts.scheme not in ("http", "https") or not parts.hostname or not _host_accepted(parts.netloc)
                or not _http_accepts(self.url)):
            if (cut := password_cut(self.url)) is not None:  # "bob:a/b@host": no port "a" at a host "bob"
                raise InvalidServerError(cut)
            if (meant := scheme_missing(shown)) is not None:
                raise InvalidServerError(Message(N_("'{address}' is not a server address: it needs http:// or "
                                                    "https:// before it, e.g. {meant}"),
                                                 {"address": shown, "meant": meant}))
            raise InvalidServerError(Message(N_("'{address}' is not a server address: use an absolute http:// or "
                                                "https:// URL"), {"address": shown}))
        if (two := two_servers(self.url)) is not None:  # its password may hold "@" and "/" as typed
            raise InvalidServerError(two)
        zone = _ENCODED_ZONE.search(parts.netloc.rpartition("@")[2])
        if zone:  # RFC 6874's "%25eth0": the HTTP library hands it to the resolver as it is, which never finds it
            raise InvalidServerError(Message(N_("'{address}' writes the zone of its IPv6 address as {written}, which "
                                                "cannot be connected to: write it as {zone}"), {
                "address": shown, "written": _clip("%25" + zone.group(1), 20), "zone": _clip("%" + zone.group(1), 20)}))
        for name, value in self.headers.items():
            # Never quoted: a malformed name is often a value typed in its place ("Bearer abc"),
            # and a value may be a credential.
            if not _HEADER_NAME.match(name):
                raise InvalidServerError(Message(N_("a header name holds characters HTTP does not allow in names "
                                                    "(write headers as 'Name: value')")))
            if not _HEADER_VALUE.match(value):
                raise InvalidServerError(Message(N_("the value of the header {name} must be printable ASCII on one "
                                                    "line"), {"name": name}))

    def secrets(self) -> Secrets:
        """The credentials this server is sent (secret header values, a password or a query in the
        URL, a command's secret environment values), to be scrubbed from whatever it says back."""
        if self.command is not None:
            return Secrets(self.command.secret_values())
        # Also a query given with the address on the command line, not kept for a configured server
        # (``call "https://host/mcp?api_key=…"``): it is never shown either, and a server may say it back.
        query = query_secrets(address_query(self.url) or "")
        return Secrets([*header_secrets(self.headers, self.secret_headers), *url_secrets(self.url), *query])

    @property
    def credentials_in_address(self) -> bool:
        """True when the address carries a user name or password (sent as HTTP Basic)."""
        return self.command is None and basic_authorization(self.url) is not None

    @property
    def sends_credentials(self) -> bool:
        """The requests carry something a server could refuse: headers configured for it, a sign-in,
        the user name and password of the address, or its secret query."""
        return bool(self.headers) or self.signed_in or self.credentials_in_address or self.secret_query

    @property
    def key(self) -> str:
        """What the store and the health name this server by: the URL without credentials, or
        the command's key."""
        return public_url(self.url)

    @property
    def is_command(self) -> bool:
        return self.transport == "stdio"

    @property
    def label(self) -> str:
        """The name to show: the display name, else the URL without user info or query, else
        the command line (environment variables by name only)."""
        if self.name:
            return self.name
        if self.command is not None:
            return _clip(self.command.shown(), 200)
        return public_url(self.url)


def command_key(command: ServerCommand) -> str:
    """A command server's identity: ``stdio:`` and its program and arguments, quoted as a shell
    would need them, the credentials among them as ``…`` (:mod:`.command_line`: ``--token …``; the
    command runs with them, no run or health names it by them), never the environment, whose values
    may be credentials."""
    return STDIO_KEY_PREFIX + shown_command_line(command.argv)


def scheme_missing(value: str) -> str | None:
    """``http://VALUE`` when ``value`` looks like an address typed without its scheme
    (``localhost:8000/mcp``, ``example.com/mcp``), else ``None``."""
    if "://" in value or not _HOST_LIKE.match(value):
        return None
    return f"http://{value}"


def public_url(url: str) -> str:
    """The URL with user info, query and fragment removed: safe to show and to store. A command
    server's key is returned as it is."""
    if url.startswith(STDIO_KEY_PREFIX):
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def two_servers(url: str) -> Message | None:
    """What to say of ``url`` when it names two servers (:func:`.user_info.second_server`): its password, if it
    holds ``@`` and then ``/`` as typed, would be sent in part to the host RFC 3986 reads; ``None`` otherwise."""
    if (hosts := second_server(url)) is None:
        return None
    return Message(N_("'{address}' names two servers: {host}, or {other} if its password holds '@' and then '/', "
                      "'?' or '#' as typed. Write those in the password as %40, %2F, %3F and %23, or an '@' in the "
                      "path as %40"), {"address": _clip(address_to_quote(url)), "host": _clip(hosts[0]),
                                       "other": _clip(hosts[1])})


def password_cut(url: str) -> Message | None:
    """What to say of ``url`` when its password holds ``/``, ``?`` or ``#`` as typed and no ``@`` before them
    (:func:`.user_info.read_address`'s ``typed``: ``http://bob:a/b@host/mcp``, whose host RFC 3986 reads up to the
    ``/``); ``None`` otherwise. Like :func:`two_servers`, it names the address without its password: no piece of
    it, neither what ends before that ``/`` as the host and port read."""
    address = read_address(url)
    if not address.head or not address.typed:
        return None
    return Message(N_("'{address}', with the user name and password it was typed with, reads as another address: "
                      "its password holds '/', '?' or '#' as typed, where an address's host ends. Write those in the "
                      "password as %2F, %3F and %23"), {"address": _clip(address_to_quote(url))})


def _host_accepted(netloc: str) -> bool:
    """True when the host of ``netloc`` (its user info and port aside) is a bracketed IP address
    (checked by ``urlsplit``) or a name of the characters of :data:`_HOST_NAME` with no empty label."""
    host = netloc.rpartition("@")[2]
    if host.startswith("["):
        return True
    name = host.rpartition(":")[0] if ":" in host else host
    # Every label holds something ("...", ".", "a..b" name no host; "example.org." is one, fully qualified).
    return bool(_HOST_NAME.match(name)) and all(name.removesuffix(".").split("."))


def _http_accepts(url: str) -> bool:
    """True when the HTTP library can build a request to ``url`` (it refuses e.g. bad hosts)."""
    import httpx  # here: the rest of this module is plain text handling

    try:
        httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError):
        return False
    return True


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
