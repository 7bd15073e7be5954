"""Credentials typed on the command line, kept out of what a command says about it.

A sentence about a word the command could not use repeats that word (``--budget`` "got '…'", argparse's
"invalid choice: '…'", ``--lang``'s "There is no language '…'"); a word may carry a credential: an address with
a password before its host, a query or a fragment (``http://bob:pw@host/mcp``, ``host/mcp?api_key=K``,
``…#access_token=T``), a header's value (``--header "Authorization: Bearer T"``) or an environment variable's
(``--env TOKEN=T``), also after the option cased otherwise (``--HEADER``), or a header whose name says its value
is a credential wherever it was typed (curl's ``-H "Authorization: Bearer T"``, a misspelt ``--headers``, none).
:func:`masked` gives a sentence with each such word as :func:`.typed_to_quote` quotes it, and a header's or a
variable's value as ``…``, whichever path made the sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from inspector.mcp.address_query import typed_to_quote
from inspector.mcp.secrets import is_secret_header

#: Options whose value is ``Name: value`` or ``NAME=VALUE``, the value perhaps a credential.
_VALUE_OPTIONS = {"--header": ":", "--secret-header": ":", "--env": "=", "--secret-env": "="}
#: A header as typed, ``Name: value``: a name of HTTP's token characters, ``:``, something besides spaces.
_HEADER = re.compile(r"\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*\S")


def _with_value_hidden(word: str, separator: str) -> str:
    """``word`` (the value of --header, --env …) without its value (``Name: …``, ``NAME=…``); ``word`` itself when
    it has no ``separator`` or no value (:func:`_unseparated` hides it)."""
    name, found, value = word.partition(separator) if separator else ("", "", word)
    if not found:
        return word
    return f"{name}{separator} …" if separator == ":" and value.strip() else f"{name}{separator}…" if value else word


def _unseparated(option: str, joint: str, word: str, separator: str) -> Iterator[tuple[str, str]]:
    """The value ``word`` of ``option`` without its ``separator`` (``--header "Bearer T"``), hidden whole where a
    sentence repeats it: after its option as typed (argparse's "unrecognized arguments: --header Bearer T") or
    quoted. Not the word alone anywhere: ``--env server`` would hide "server" from every sentence."""
    if word.strip() and _with_value_hidden(word, separator) == word:
        yield f"{option}{joint}{word}", f"{option}{joint}…"
        yield repr(word), repr("…")


def _value_separator(option: str) -> str | None:
    """The separator of the value of ``option``: one of :data:`_VALUE_OPTIONS`, or a beginning of it, which argparse
    takes for it (``--head``); ``""`` for a beginning of two of them (``--secret-``); ``None`` for any other word."""
    if len(option) < 3 or not option.startswith("--"):
        return None
    separators = {separator for name, separator in _VALUE_OPTIONS.items() if name.startswith(option.lower())}
    return None if not separators else separators.pop() if len(separators) == 1 else ""


def typed_shown(word: str) -> str:
    """``word`` as a refusal may repeat it: a header whose name says its value is a credential (``Authorization:
    Bearer T``, ``X-Api-Key: K``) as ``Authorization: …`` whatever option it followed, any other word as
    :func:`.typed_to_quote` gives it (an address without its credentials)."""
    header = _HEADER.match(word)
    return f"{header.group(1)}: …" if header and is_secret_header(header.group(1)) else typed_to_quote(word)


def _typed_words(argv: list[str]) -> Iterator[tuple[str, str]]:
    """(as typed, as a sentence may repeat it) for each word of ``argv``, an option's value after ``=`` and
    a command line's words."""
    separator: str | None = None
    previous = ""
    for word in argv:
        option, equals, value = word.partition("=")
        if separator is not None:  # the value of --header, --env …
            yield word, _with_value_hidden(word, separator)
            yield from _unseparated(previous, " ", word, separator)
        elif equals and (given := _value_separator(option)) is not None:
            yield value, _with_value_hidden(value, given)
            yield from _unseparated(option, "=", value, given)
        separator = _value_separator(word) if separator is None else None
        previous = word
        for part in {word, value, *word.split()}:
            yield part, typed_shown(part)


def typed_start(word: str, most: int) -> str:
    """At most ``most`` characters of ``word`` (typed where something else belongs) as a refusal quotes it, an
    address without its credentials, a credential header without its value: cut short first, the word could no
    longer be found whole to hide them."""
    return typed_shown(word)[:most]


def masked(text: str, argv: list[str]) -> str:
    """``text`` (a sentence about the command line ``argv``) with each word of ``argv`` that carries a credential
    as it may be quoted (without the credential), also where the sentence quotes it as Python does (``'…'``)."""
    pairs = {typed: shown for typed, shown in _typed_words(argv) if typed and typed != shown}
    for typed in sorted(pairs, key=len, reverse=True):  # a whole word before a part of it
        text = text.replace(repr(typed), repr(pairs[typed])).replace(typed, pairs[typed])
    return text


__all__ = ["masked", "typed_shown", "typed_start"]
