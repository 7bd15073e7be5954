"""Credentials typed on the command line, kept out of what a command says about it.

A sentence about a word the command could not use repeats that word (``--budget`` "got '…'", argparse's
"invalid choice: '…'", ``--lang``'s "There is no language '…'"); a word may carry a credential: an address with
a password before its host, a query or a fragment (``http://bob:pw@host/mcp``, ``host/mcp?api_key=K``,
``…#access_token=T``), a header's value (``--header "Authorization: Bearer T"``) or an environment variable's
(``--env TOKEN=T``). :func:`masked` gives a sentence with each such word as :func:`.typed_to_quote` quotes it,
and a header's or a variable's value as ``…``, whichever path made the sentence.
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.mcp.address_query import typed_to_quote

#: Options whose value is ``Name: value`` or ``NAME=VALUE``, the value perhaps a credential.
_VALUE_OPTIONS = {"--header": ":", "--secret-header": ":", "--env": "=", "--secret-env": "="}


def _with_value_hidden(word: str, separator: str) -> str:
    name, found, value = word.partition(separator)
    return f"{name}{separator} …" if separator == ":" and found and value.strip() else \
        f"{name}{separator}…" if found and value else word


def _typed_words(argv: list[str]) -> Iterator[tuple[str, str]]:
    """(as typed, as a sentence may repeat it) for each word of ``argv``, an option's value after ``=`` and
    a command line's words."""
    separator: str | None = None
    for word in argv:
        option, equals, value = word.partition("=")
        if separator is not None:  # the value of --header, --env …
            yield word, _with_value_hidden(word, separator)
        elif word.startswith("--") and equals and option in _VALUE_OPTIONS:
            yield value, _with_value_hidden(value, _VALUE_OPTIONS[option])
        separator = _VALUE_OPTIONS.get(word)
        for part in {word, value, *word.split()}:
            yield part, typed_to_quote(part)


def typed_start(word: str, most: int) -> str:
    """At most ``most`` characters of ``word`` (typed where something else belongs) as a refusal quotes it, an
    address without its credentials: cut short first, the word could no longer be found whole to hide them."""
    return typed_to_quote(word)[:most]


def masked(text: str, argv: list[str]) -> str:
    """``text`` (a sentence about the command line ``argv``) with each word of ``argv`` that carries a credential
    as it may be quoted (without the credential), also where the sentence quotes it as Python does (``'…'``)."""
    pairs = {typed: shown for typed, shown in _typed_words(argv) if typed and typed != shown}
    for typed in sorted(pairs, key=len, reverse=True):  # a whole word before a part of it
        text = text.replace(repr(typed), repr(pairs[typed])).replace(typed, pairs[typed])
    return text


__all__ = ["masked", "typed_start"]
