"""Passwords in the addresses a text spells (``https://bob:pw@host/…``), hidden in time in proportion to the text.

inspector.mcp.user_info says where an address's user info and tail end; this reads a text for them once: only
words holding an "@", each from where its scheme's word begins, and a tail's end found once for every address up
to the next "=".
"""

from __future__ import annotations

import re

from inspector.mcp.user_info import (
    TYPED_USER_INFO,
    USER_INFO_BEFORE_TAIL,
    USER_INFO_WITH_DELIMITER,
    address_shown,
    spaced_user_info,
)

from .command_line_secrets import QUOTED_REST

# A word (up to a space, quote or angle bracket, which no address spells) holding an "@", read from its start
# only (each place in a long word without one would read to its end again).
_WORD_WITH_AT = re.compile(r"""(?<![^\s"'<>])[^\s"'<>@]*+@[^\s"'<>]*+""")


def hide_user_infos(text: str, mark: str) -> str:
    """``text`` with the user info of each address it spells as ``mark`` (and a tail's stretch before its "@").

    An address holds an "@" and no space or quote (USER_INFO_IN_TEXT): only a word holding an "@" is read, and
    only up to its last "@", where an address's user info or tail ends (a host read to that "@" only is kept as
    it is all the same). Read from every "://" to a space, "x://a:b" repeated took minutes for a megabyte."""
    parts: list[str] = []
    done = 0
    for word in _WORD_WITH_AT.finditer(text):
        if "://" not in word.group():
            continue
        start, last_at = word.start(), text.rfind("@", word.start(), word.end())
        parts += (text[done:start], _hide_in_word(text[start:last_at + 1], mark))
        done = last_at + 1
    return "".join((*parts, text[done:])) if parts else text


def hide_typed_user_info(address: str, mark: str) -> str:
    """``address`` (a value named as one: ``server.address``), typed without its scheme, with a user name and password
    before its host, their ``@`` with them, as ``mark`` (``u:pw@h``, ``u:pw@h:8080/mcp``: ``[REDACTED]@h``…; the host
    a password holding ``@`` and ``/`` as typed may take with it too, as an address with ``://`` loses it). Anything
    else as it is: an address with ``://`` (a text's addresses are hidden wherever it spells them), ``user@host`` (an
    e-mail address: no password), ``host:port``, ``host:8080/a@b`` (a port, then a path)."""
    if "@" not in address or "://" in address:
        return address
    if TYPED_USER_INFO.match(address) is None and USER_INFO_WITH_DELIMITER.match(address) is None:
        return address
    return address_shown(address, mark, host_in_tail=True)


# A word quoted whole that begins with an address ("http://bob:a b@host/mcp" of a stdio server's argument).
_QUOTED_ADDRESS = re.compile(r"""(['"])(?=(?:-{0,2}[A-Za-z][A-Za-z0-9_.-]{0,63}=)?[A-Za-z][A-Za-z0-9+.-]*+://)""")


def hide_spaced_user_info(word: str, mark: str) -> str | None:
    """``word`` (a whole string, or a word's text between its quotes) with the user info of the address it begins
    with as ``mark`` when its password holds a space or a quote (:func:`~inspector.mcp.user_info.spaced_user_info`);
    ``None`` for any other ``word``."""
    found = spaced_user_info(word)
    return None if found is None else f"{word[:found[0]]}{mark}{word[found[1]:]}"


def hide_quoted_addresses(text: str, mark: str) -> str:
    """``text`` with the user info of each address that begins a word quoted whole and whose password holds a space
    or a quote as ``mark`` (:func:`hide_spaced_user_info`; ``"http://bob:a b@host/mcp"``, shlex.join's
    ``'http://bob:a'"'"'b@host/mcp'``)."""
    parts: list[str] = []
    done = 0
    for found in _QUOTED_ADDRESS.finditer(text):
        if found.start() < done:
            continue
        rest = QUOTED_REST[found.group(1)].match(text, found.end())
        if rest is None:
            continue
        shown = hide_spaced_user_info(text[found.end():rest.end() - 1], mark)
        if shown is not None:
            parts += (text[done:found.end()], shown)
            done = rest.end() - 1
    return "".join((*parts, text[done:])) if parts else text


def _hide_in_word(word: str, mark: str) -> str:
    """An address's user info (up to the last "@" before its path: a password may hold "@"), and what a password
    holding "@" and "/" as typed may take after its host (its tail), with that host, hidden as
    inspector.mcp.user_info reads them (``hide_user_info`` with ``host_in_tail``); what comes
    before its scheme in the same word (``lead``) is kept. ``word`` holds no space or quote."""
    tails = _Tails(word)
    parts: list[str] = []
    done = 0
    while (found := USER_INFO_BEFORE_TAIL.search(word, done)) is not None:
        end, head = found.end(), found["head"]
        if found["password"] is not None:
            tail_end = tails.end(end + 1) if word[end:end + 1] in ("/", "?", "#") else None
            # A tail: the "host" before it may be a piece of the password (se@c/ret: c), hidden with it (the address
            # names two servers, whichever segment holds the tail's "@").
            two_servers = tail_end is not None
            shown = f"{head}{mark}@" if two_servers else f"{head}{mark}@{found['host']}" + (
                f"{word[end]}{mark}@" if tail_end else "")
        else:
            tail_end = tails.end(end) if found["typed"] is not None else None
            shown = f"{head}{mark}@"
        parts += (word[done:found.start()], found["lead"], shown)
        done = tail_end or end
    return "".join((*parts, word[done:]))


class _Tails:
    """Where a tail from a place in a word ends (after the last "@" before the next "="), or
    ``None``: one reading serves every place up to that "=" (inspector.mcp.user_info's tail, read once)."""

    def __init__(self, word: str) -> None:
        self._word = word
        self._from, self._to, self._last_at = 1, 0, -1  # nothing read yet

    def end(self, start: int) -> int | None:
        if not self._from <= start <= self._to:
            word = self._word
            stop = word.find("=", start)
            self._from, self._to = start, len(word) if stop < 0 else stop
            self._last_at = word.rfind("@", start, self._to)
        # Its "@" may follow the "/", "?" or "#" it begins with right away (a password "@PWb?" of "bob:@PWb?@host",
        # "x@PWb/" of "bob:x@PWb/@host": an "@" beginning a path segment may end a password too).
        return self._last_at + 1 if self._last_at >= start else None
