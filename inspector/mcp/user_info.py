"""Where the user name and password of an address end: one reading for sending, quoting, exporting and keeping.

RFC 3986, as the HTTP library reads an address: its authority runs from ``//`` to the first ``/``, ``?`` or ``#``,
its user info up to the last ``@`` within that, and requests go to the host after it
(``http://bob:pw@127.0.0.1:9/users/me@example.org/mcp`` to 127.0.0.1:9, path ``/users/me@example.org/mcp``).

A password typed with ``@`` and then ``/``, ``?`` or ``#`` as they are (``http://bob:se@c/ret@host/mcp``, meaning
``se@c/ret``) is cut by that reading: ``se`` would go to the host ``c``. So, beside it:

* its *tail*: what such a password may take after the host, from the ``/``, ``?`` or ``#`` up to the last ``@``
  before any ``=`` (a query's value may hold one: ``?mail=a@b``) that begins no path segment (``host/@user``). What
  shows an address hides the tail too (``http://c/…@host/mcp``), the host named as it is; what exports or keeps one
  (an export, a command line's word in a command server's name or a sentence) hides that host too
  (``http://host/mcp``): it may be a piece of the password. What hides one also takes an ``@`` that begins a path
  segment as a tail's (``http://bob:x@PWb/@host/mcp`` exported ``http://host/mcp``: the password may be ``x@PWb/``),
  where an address with a password and such a segment (``https://bob:pw@h/@scope/mcp``) loses its host ``h`` too;
  it is still sent as RFC 3986 reads it, credentials and all.
* :func:`second_server`: an address with a password and a tail names two servers, and is not sent credentials,
  whichever segment after the host holds that ``@``: ``c/ret@host`` and ``c/r/et@host`` alike (how many ``/`` a
  password holds decides which). An address without a password has one reading (``http://h/users/me@example.org``
  is sent as it is), and one with a password sends its ``@`` in the path as ``%40``.
* a password typed with ``/``, ``?`` or ``#`` and no ``@`` before them (``http://bob:a/b@host``: its authority
  ``bob:a`` holds no host, the port ``a`` is none): its user info runs to its first ``@``, and a tail after that.
"""

from __future__ import annotations

import re
from typing import NamedTuple


def _typed(stop: str) -> str:
    """A password typed as it is, holding ``/``, ``?`` or ``#`` (``bob:p/w@host``): a name, ``:`` and something
    other than a port (``host:8080/a@b``, ``C:/x@y`` hold none) up to the first ``@``. Its authority would end at
    the ``/``."""
    return rf"[^@\[:/?#{stop}]*:(?!\d*(?:[/?#{stop}]|$))[^@{stop}]*@"


def _user_info(stop: str, tails: bool = True, hiding: bool = False) -> str:
    """The pattern of the user info at the start of an address (after its ``scheme://``), none of its parts
    running over a character of ``stop``. Each part is matched one way only (a user name holds no ``:``, the
    first one ends it): linear in the text (each ``:`` of ``a:a:a:…`` was tried as the one that ends it). Without
    ``tails`` its tails are never read (``None``), for a reader that finds them itself. ``hiding``: what hides an
    address (an export, a kept name) takes a tail's "@" after a "/" too (``bob:x@PWb/@host``: the password may be
    ``x@PWb/``)."""
    end = rf"/?#{stop}"
    # A tail's "@" follows no "/" (host/@user begins a path segment), but may follow the "?" or "#" it begins with.
    tail = (rf"[^={stop}]*@" if hiding else rf"(?:[^={stop}]*[^/={stop}]|(?<=[?#]))@") if tails else "(?!)"
    return (rf"(?:(?P<password>[^{end}:]*:[^{end}]*@)(?P<host>[^{end}]*)(?P<tail>[/?#]{tail})?"
            rf"|(?P<name>[^{end}]+@)"
            rf"|(?P<typed>{_typed(stop)})(?P<typed_tail>{tail})?)")


#: The user info at the start of an address's text after ``scheme://`` (or of one typed without it).
_AT_START = re.compile(_user_info(r"\s"))
#: The same as what hides a password reads it: a tail's "@" may follow a "/" (``host_in_tail``).
_AT_START_HIDING = re.compile(_user_info(r"\s", hiding=True))
#: An address's user info wherever a text spells it (``scheme://`` and a user name, password, host and tail), its
#: parts ending at a quote or an angle bracket too (``"http://bob:pw@host"`` in JSON, ``<http://…>``). Its match
#: begins where the scheme's word does (``lead``: ``x-`` of ``x-http://``, kept as it is), the scheme after the
#: word's first boundary: every start in one word reads the same rest, so a word is read once (from each start,
#: ``a.b.a.b…`` of a megabyte took minutes).
_SCHEME_IN_TEXT = r"(?i)(?<![a-z0-9+.-])(?P<lead>(?>[a-z0-9+.-]*?\b(?=[a-z])))(?P<head>[a-z][a-z0-9+.-]*+://)"
USER_INFO_IN_TEXT = re.compile(_SCHEME_IN_TEXT + _user_info(r"\s\"'<>"))
#: The same without its tails (a tail, each read to the next "=" or space, is for the caller to find: read again
#: from each of many addresses in one word, "x://a:b/@/" repeated, it took minutes for a megabyte).
USER_INFO_BEFORE_TAIL = re.compile(_SCHEME_IN_TEXT + _user_info(r"\s\"'<>", tails=False))
#: A password typed with ``/``, ``?`` or ``#`` at the start of a word (:func:`_typed`).
USER_INFO_WITH_DELIMITER = re.compile("^" + _typed(r"\s"))
#: A name, ``:`` and a password up to its ``@`` at the start of a word (``bob:pw@host/mcp``).
TYPED_USER_INFO = re.compile(r"^[^\s/?#@:]*:[^\s/?#]*@")

#: An address that begins a word quoted whole or a whole string (also as an option's value: ``--url=http://…``), up to
#: its password's first character: a user name, ``:`` and no port (``http://host:8080 …`` holds none).
_SPACED_START = re.compile(r"(?i)(?:-{0,2}[a-z][a-z0-9_.-]{0,63}=)?[a-z][a-z0-9+.-]*+://[^\s/?#@:\"']{0,256}+:"
                           r"(?!\d*(?:[/?#\s]|$))")
_SPACE_OR_QUOTE = re.compile(r"""[\s"']""")
_HOST_AND_PATH = re.compile(r"[^\s/?#@]{1,256}/")


def spaced_user_info(word: str) -> tuple[int, int] | None:
    """Where the user info of the address ``word`` begins with starts (after ``://``) and ends (its ``@``), when its
    password holds a space or a quote (``http://bob:a b@host/mcp``, a stdio server's argument: a word of text ends
    there, and the readings above find no user info); ``None`` for any other ``word``. The password runs to the first
    ``@`` after that space or quote, on the same line, within 256 characters; an ``@`` before it ends the user info as
    the readings above have it."""
    start = _SPACED_START.match(word)
    if start is None:
        return None
    space = _SPACE_OR_QUOTE.search(word, start.end())
    if space is None or "@" in word[start.end():space.start()]:
        return None
    at = word.find("@", space.end(), start.end() + 256)  # a password of 256 characters at most
    if at < 0 or "\n" in word[space.start():at]:
        return None
    # A "/" before the space may say the ":" began a port and a path (http://localhost:PORT/mcp and mail
    # help@acme.io): such a password is one when a host and a path follow its "@" (se/c ret@host/mcp).
    if "/" in word[start.end():space.start()] and _HOST_AND_PATH.match(word, at + 1) is None:
        return None
    return word.index("://") + 3, at


class Address(NamedTuple):
    """An address's text in its parts: ``head + user_info + host + tail + rest`` is the text."""

    head: str  #: ``scheme://``; empty for an address typed without it
    user_info: str  #: with its ``@``; empty when it has none
    host: str  #: the host and port (RFC 3986); empty for a password typed with ``/`` (it ran past the authority)
    tail: str  #: what a password holding ``@`` and ``/`` as typed may take after the host, with that ``@``
    rest: str
    typed: bool  #: True for a password typed with ``/``, ``?`` or ``#`` and no ``@`` before them


def read_address(text: str) -> Address:
    """``text`` (an address, perhaps typed without its scheme or not valid) in its parts."""
    scheme, found, rest = text.partition("://")
    head, rest = (f"{scheme}://", rest) if found else ("", text)
    read = _AT_START.match(rest)
    if read is None or read["name"] is not None:
        user_info = read["name"] if read is not None else ""
        after = rest[len(user_info):]
        end = authority_end(after)
        return Address(head, user_info, after[:end], "", after[end:], False)
    if read["password"] is not None:
        return Address(head, read["password"], read["host"], read["tail"] or "", rest[read.end():], False)
    return Address(head, read["typed"], "", read["typed_tail"] or "", rest[read.end():], True)


def authority_end(text: str) -> int:
    """Where the authority at the start of ``text`` ends: its first ``/``, ``?`` or ``#``, else its end."""
    return min((index for index in (text.find(c) for c in "/?#") if index >= 0), default=len(text))


def without_user_info(url: str) -> str:
    """``url`` without its user info as RFC 3986 reads it: the address requests go to (``http://host/a@b`` of
    ``http://bob:pw@host/a@b``); ``url`` itself when it has none (a password typed with ``/`` names no host)."""
    address = read_address(url)
    if not address.user_info or address.typed:
        return url
    return address.head + address.host + address.tail + address.rest


def hide_user_info(match: re.Match[str], head: str, mark: str, tail_mark: str, *, host_in_tail: bool = False) -> str:
    """What of an address's ``head`` and user info (``match`` of :data:`USER_INFO_IN_TEXT` or of the start of an
    address) may be shown: its user info as ``mark``, a tail's stretch before its ``@`` as ``tail_mark``. A password
    typed with ``/`` takes its tail with it: that address has no host before it. With ``host_in_tail`` a tail (the
    address names two servers, :func:`second_server`) ends the user info, all of it ``mark``: the "host" before
    that ``@`` may be a piece of the password (``se@c/ret``: ``c``), which an export or a kept address must not
    hold."""
    if match["password"] is None:
        return head + mark
    tail = match["tail"]
    if tail and host_in_tail:
        return head + mark
    return head + mark + match["host"] + (f"{tail[0]}{tail_mark}@" if tail else "")


def address_shown(text: str, mark: str = "", tail_mark: str = "…", *, host_in_tail: bool = False) -> str:
    """``text`` (an address as typed, perhaps not valid) as it may be shown, exported or kept: its user info
    as ``mark`` (nothing: ``http://host/mcp``) and what a password holding ``@`` and ``/`` as typed may take after
    its host as ``tail_mark`` (``http://c/…@host/mcp``; with ``host_in_tail``, where the address names two servers,
    all of it up to the tail's ``@`` as ``mark``: ``http://host/mcp``, :func:`hide_user_info`)."""
    scheme, found, rest = text.partition("://")
    head, rest = (f"{scheme}://", rest) if found else ("", text)
    read = (_AT_START_HIDING if host_in_tail else _AT_START).match(rest)
    if read is None:
        return text
    return hide_user_info(read, head, mark, tail_mark, host_in_tail=host_in_tail) + rest[read.end():]


def second_server(url: str) -> tuple[str, str] | None:
    """The two hosts ``url`` names, when its password may hold ``@`` and then ``/``, ``?`` or ``#`` as typed: it
    has a tail, in whichever segment after the host (``http://bob:se@c/ret@host/mcp``, ``…@c/r/et@host/mcp``: ``c``
    as RFC 3986 reads it, ``host`` with the password ``se@c/ret`` or ``se@c/r/et``); ``None`` for any other
    address."""
    address = read_address(url)
    if not address.head or address.typed or not address.tail:
        return None
    other = address.rest[:authority_end(address.rest)]
    return (address.host, other) if other else None


__all__ = ["USER_INFO_BEFORE_TAIL", "USER_INFO_IN_TEXT", "USER_INFO_WITH_DELIMITER",
           "TYPED_USER_INFO", "Address", "address_shown", "authority_end", "hide_user_info", "read_address",
           "second_server", "spaced_user_info", "without_user_info"]
