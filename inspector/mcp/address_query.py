"""The query an address carries (``https://host/mcp?api_key=…``): hosted servers often take their
key there. A configured server is stored under its address without it (:func:`.server.public_url`),
so the query is kept as a secret beside the server's secret headers and put back on the address
only where the request is sent (:attr:`.server.ServerEndpoint.secret_query` says so); everything
that quotes the server quotes its address without the query.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

from .secrets import MIN_SECRET_CHARS, is_secret_header
from .user_info import TYPED_USER_INFO, USER_INFO_WITH_DELIMITER, address_shown

#: A parameter value at least this long is taken for a key whatever its name (``?k=9f3a…``).
_KEY_LIKE_CHARS = 12
#: A word typed as an address may be without its scheme yet carry a key: a password before its host
#: (``bob:pw@host/mcp``, ``@`` allowed in the password; :data:`.user_info.TYPED_USER_INFO`, or typed with ``/``:
#: :data:`.user_info.USER_INFO_WITH_DELIMITER`) or a query (``host/mcp?key=K``, something after the ``?``).
#: Either a password at the start of a word, its name holding no ``:`` (a search trying every position, and every
#: ``:`` of ``a:a:a:…`` as the one that ends the name, took time growing with the square of a word's length: 10,000
#: characters, 2 to 4 s; 100,000, minutes), or a query, or a fragment holding ``=`` (``#access_token=…``, OAuth's
#: implicit flow puts a token there).
_TYPED_PASSWORD = re.compile(rf"^(?:{TYPED_USER_INFO.pattern[1:]}|{USER_INFO_WITH_DELIMITER.pattern[1:]})")
_TYPED_SECRET = re.compile(_TYPED_PASSWORD.pattern + r"|\?.|#[^\s=#]*=.")
#: What a trace file's name ends in: a word typed without ``://`` ending so is a file's name, a ``?`` or ``#`` in it
#: part of the name (``exports/run#v=2.json``), not a query or a fragment.
_FILE_ENDING = re.compile(r"(?i)\.(?:json|jsonl|ndjson|otlp|pb)$")
#: The first segment of a word that could be a host: a dot, a port, user info or brackets in it, or localhost
#: (``example.org/mcp``, ``h:8080/mcp``, ``bob@h/mcp``, ``[::1]/mcp``); ``exports/run`` begins with no host.
_HOST_FIRST = re.compile(r"(?i)[^/]*[.:@\[]|localhost(?:/|$)")
_WORDS = re.compile(r"(\s+)")
#: What follows a ``name:password@`` typed without ``http://`` when it is an address's host: a path, query or
#: fragment after it, a port, a bracketed IP address, localhost or a name with a dot (``host/mcp``, ``h:8080``,
#: ``[::1]``, ``example.org``), not a word alone (``svc:v2@prod`` is a service's name).
_HOST_AFTER_USER_INFO = re.compile(r"\[|localhost$|[^\s/?#]*(?:[/?#]|:\d+$|\.[^\s/?#.]+$)")


def address_query(url: str) -> str | None:
    """The query of ``url`` as it was written (``None``: it has none, or is no URL)."""
    try:
        query = urlsplit(url).query
    except ValueError:
        return None
    return query or None


def with_query(url: str, query: str | None) -> str:
    """``url`` carrying ``query`` (in place of any it has); ``url`` itself when ``query`` is empty."""
    if not query:
        return url
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


def without_query(text: str) -> str:
    """``text`` (an address as typed, perhaps not valid yet) without its query: from the first ``?``
    up to a ``#``."""
    before, found, after = text.partition("?")
    return before + ("#" + after.partition("#")[2] if found and "#" in after else "")


def address_to_quote(text: str, *, in_command_line: bool = False) -> str:
    """``text`` (an address as typed) as a sentence may repeat it: without a password before its host (nor what a
    password holding ``@`` and ``/`` as typed may take after it: :func:`.user_info.address_shown`) and with its
    query marked ``?…`` and its fragment ``#…`` (a key or a token in any). An address that is a word of a command line
    (``in_command_line``, or ``text`` holds a space before it: ``cmd --url http://u:p@h/x@y/mcp``) is none the program
    sends to: named as a command server's name names it, without a host that may be a piece of its password
    (``http://y/mcp``)."""
    in_command_line = in_command_line or _WORDS.search(text.partition("://")[0]) is not None
    shown, mark, fragment = address_shown(text, host_in_tail=in_command_line).partition("#")
    if mark and fragment:  # a token may be there (OAuth's implicit flow: "#access_token=…")
        fragment = "…"
    if "?" not in shown:
        return f"{shown}{mark}{fragment}"
    return f"{without_query(shown)}?…{mark}{fragment}"  # before a fragment, as the query was


def address_to_keep(text: str) -> str:
    """``text`` (a server a stranger's file names: an address, a service's name, a command's key) as a run's server
    keeps it: an address (``://``, or typed without it but carrying a password before a host) without its user info,
    query and fragment, as this program keeps the server of a run it made: the host and path its requests went to,
    as RFC 3986 and every HTTP library read them (``http://h/x@y`` of ``http://u:p@h/x@y``: kept as ``http://h/…@y``,
    it was another server than the same one called here); a password typed with ``/`` and no host before its ``@``
    without what it may take after it (:func:`.user_info.address_shown`). A command server's key with its
    credentials as ``…``, as one started here is named (``stdio:cmd --token …``, :mod:`.command_line`; an older
    export's ``[REDACTED]`` so too). Anything else as it is (a service's name ``svc:v2@prod`` names no host)."""
    if text.startswith("stdio:"):
        from .command_line import without_credentials  # it quotes addresses with this module

        return "stdio:" + without_credentials(text.removeprefix("stdio:"))
    # Not carries_typed_secret: its search takes time growing with the square of a word's length (a service name of
    # 100,000 colons, a stranger's file's to choose); a password or query typed without "http://" is rare there.
    if not ("://" in text or _typed_before_a_host(text)):
        return text
    # An address naming two servers (se@c/ret@host) keeps the host after its password's last "@" (http://host/mcp):
    # the host RFC 3986 reads (c) may be a piece of the password.
    return without_query(address_shown(text, host_in_tail=True).partition("#")[0])


def _typed_before_a_host(text: str) -> bool:
    """True when ``text`` (typed without ``http://``) begins with a password typed with ``/``, ``?`` or ``#`` and an
    ``@``, or with ``name:password@`` before a host (``host/mcp``, not ``svc:v2@prod``, a service's name)."""
    if (typed := USER_INFO_WITH_DELIMITER.match(text)) and any(mark in typed.group(0) for mark in "/?#"):
        return True
    return bool((typed := TYPED_USER_INFO.match(text)) and _HOST_AFTER_USER_INFO.match(text, typed.end()))


def typed_to_quote(text: str, *, command_line: bool = False) -> str:
    """``text`` (words as typed: an address, perhaps without its ``http://``, a name, a command line) as a
    sentence may repeat it: each word that is an address (``://``) or carries a password before a host or a query
    as :func:`address_to_quote` gives it (a word of a command line, ``text`` of several words or a word of
    ``command_line``, as a command server's name gives it), the other words as they are (``bob@example.org``,
    ``pkg@latest``)."""
    words = _WORDS.split(text)
    in_command_line = command_line or len([word for word in words if word.strip()]) > 1
    return "".join(address_to_quote(word, in_command_line=in_command_line)
                   if "://" in word or (_TYPED_SECRET.search(word) and not _file_name(word))
                   else word for word in words)


def _file_name(word: str) -> bool:
    """True when ``word`` (typed without ``://``) ends as a trace file's name and begins with no password."""
    return _FILE_ENDING.search(word) is not None and _TYPED_PASSWORD.match(word) is None


def names_a_file(word: str) -> bool:
    """True when ``word`` (one word as typed) reads as a file's path rather than an address: it ends as a trace
    file's name (``exports/run#v=2.json``), or has a ``/`` after a first segment that could be no host (no dot,
    port, ``@`` or brackets, not localhost: ``exports/run#v=2``)."""
    if "://" in word:
        return False
    return _file_name(word) or ("/" in word and not _HOST_FIRST.match(word.partition("/")[0] + "/"))


def carries_typed_secret(word: str) -> bool:
    """True when ``word`` (one word as typed) is an address written without ``http://`` that carries a password
    before its host or a query: never a command or a name."""
    return "://" not in word and not _WORDS.search(word) and _TYPED_SECRET.search(word) is not None


def query_secrets(query: str) -> list[str]:
    """What of a secret ``query`` a server may say back: the query whole, and the values of its
    parameters named like credentials (``api_key``, ``token``, ``key``, ...) or long enough to be a
    key. Short values of other parameters (``format=json``) are left: scrubbing them would garble text."""
    found = [query, unquote(query)]
    for name, value in parse_qsl(query, keep_blank_values=False):
        credential = is_secret_header(name) or name.lower().endswith("key") or len(value) >= _KEY_LIKE_CHARS
        if credential and len(value) >= MIN_SECRET_CHARS:
            found.append(value)
    return found


__all__ = ["address_query", "address_to_keep", "address_to_quote",
           "carries_typed_secret", "names_a_file", "query_secrets", "typed_to_quote", "with_query", "without_query"]
