"""Credentials typed on the command line, kept out of what a command says about it.

A sentence about a word the command could not use repeats that word (``--budget`` "got '…'", argparse's
"invalid choice: '…'", ``--lang``'s "There is no language '…'"); a word may carry a credential: an address with
a password before its host, a query or a fragment (``http://bob:pw@host/mcp``, ``host/mcp?api_key=K``,
``…#access_token=T``), a header's value (``--header "Authorization: Bearer T"``) or an environment variable's
(``--env TOKEN=T``), also after the option cased otherwise (``--HEADER``), or a header whose name says its value
is a credential wherever it was typed (curl's ``-H "Authorization: Bearer T"``, a misspelt ``--headers``, none, or
glued to its option: ``--header:Authorization: Bearer T``). Also a word percent-encoded (``http%3A%2F%2Fbob%3Apw%40h``,
encoded twice too), an address whose scheme lost a ``/`` or its ``:`` (``http:/bob:pw@h``, ``http//…``, ``//…``), and
what :func:`.redact_text` finds in a command line (``--stdio "cmd --token T"``: an option named like a credential,
``--api-key=K``, ``TOKEN=T``, a bearer token, a key of a known shape such as ``sk-…``); a short option keeps its value
(``-p 8080`` is a port as often as ``-p PASSWORD`` a password). A variable before a command's program
(``FOO=bar cmd``) loses its value whatever its name, as ``--env``'s does.
:func:`masked` gives a sentence with each such word as :func:`.typed_to_quote` quotes it, and a header's or a
variable's value as ``…``, whichever path made the sentence.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from urllib.parse import unquote

from inspector.mcp.address_query import typed_to_quote
from inspector.mcp.secrets import is_secret_header

#: Options whose value is ``Name: value`` or ``NAME=VALUE``, the value perhaps a credential.
_VALUE_OPTIONS = {"--header": ":", "--secret-header": ":", "--env": "=", "--secret-env": "="}
_WORDS = re.compile(r"(\s+)")
#: A header as typed, ``Name: value``: a name of HTTP's token characters, ``:``, something besides spaces; each
#: such name of a word is tried (``--header:Authorization: Bearer T``: ``--header``, then ``Authorization``). A name
#: is read from its first character only, and whole (linear: each position of 100,000 letters was tried as a start).
_HEADER = re.compile(r"(?<![!#$%&'*+.^_`|~0-9A-Za-z-])([!#$%&'*+.^_`|~0-9A-Za-z-]++)\s*:(?=\s*\S)")
#: An address's scheme typed with a slip (``http:/``, ``http//``, ``//``): what follows is read as an address typed
#: without its scheme.
_SCHEME_SLIP = re.compile(r"(?i)^(?:https?:?/+|//)(?=[^/])")
#: Variables set before a command's program (``TOKEN=T FOO=bar cmd``), each name and its ``=``.
_LEADING_VARIABLE = re.compile(r"(\s*[A-Za-z_][A-Za-z0-9_]*=)(?:'[^']*'|\"[^\"]*\"|[^\s'\"])*(?=\s+\S)")
#: How many times a word is percent-decoded at most, looking for a credential (``%253A``: encoded twice).
_DECODINGS = 3


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
    Bearer T``, ``X-Api-Key: K``) as ``Authorization: …`` whatever option it followed, a command line's credentials
    as ``…``, an address without its credentials (:func:`.typed_to_quote`); a word that holds one only once
    percent-decoded (``bob%3Apw%40h``) decoded, without it."""
    shown = _shown(word)
    decoded = shown
    for _ in range(_DECODINGS):
        if (again := unquote(decoded)) == decoded:
            break
        decoded = again
    hidden = _shown(decoded)
    return hidden if hidden != decoded else shown


def _variables_hidden(text: str) -> str:
    """``text`` (a command line) with the values of the variables set before its program as ``…``."""
    parts, position = [], 0
    while (variable := _LEADING_VARIABLE.match(text, position)) is not None:
        parts.append(f"{variable.group(1)}…")
        position = variable.end()
    return "".join(parts) + text[position:]


def _shown(text: str) -> str:
    """``text`` as typed without the credentials it spells out (:func:`typed_shown`), not decoded."""
    space = _WORDS.search(text, len(text) - len(text.lstrip()))
    for header in _HEADER.finditer(text):
        if space and header.start(1) > space.start():
            break  # a header in a command line's later word: redact_text hides its value, keeping what follows it
        if is_secret_header(header.group(1)):
            return f"{text[:header.end()]} …"
    words = _WORDS.split(_variables_hidden(text))
    several = len([word for word in words if word.strip()]) > 1  # a command line: its addresses as its name has them
    quoted = "".join(f"{slip.group(0)}{typed_to_quote(word[slip.end():], command_line=several)}"
                     if (slip := _SCHEME_SLIP.match(word)) and "://" not in word
                     else typed_to_quote(word, command_line=several) for word in words)
    from inspector.traces.redact import REDACTED, redact_text  # on a refusal's path only: a command need not load it

    return redact_text(quoted).replace(REDACTED, "…")


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
            yield word, f"{option}={_with_value_hidden(value, given)}"
            yield value, _with_value_hidden(value, given)
            yield from _unseparated(option, "=", value, given)
        separator = _value_separator(word) if separator is None else None
        if previous.startswith("-"):  # another program's option and its value (--api-key K, unrecognized)
            yield f"{previous} {word}", typed_shown(f"{previous} {word}")
        previous = word
        for part in {word, value, *word.split(), *_as_joined(word)}:
            yield part, typed_shown(part)


def _as_joined(word: str) -> list[str]:
    """A command line (``--stdio 'cmd --password "a b"'``) as a sentence quotes it once split into its words and
    joined again (``cmd --password 'a b'``); nothing for one word or one a shell cannot split."""
    try:
        return [shlex.join(shlex.split(word))] if _WORDS.search(word.strip()) else []
    except ValueError:  # a quote left open
        return []


def typed_start(word: str, most: int) -> str:
    """At most ``most`` characters of ``word`` (typed where something else belongs) as a refusal quotes it, an
    address without its credentials, a credential header without its value: cut short first, the word could no
    longer be found whole to hide them."""
    return typed_shown(word)[:most]


def masked(text: str, argv: list[str]) -> str:
    """``text`` (a sentence about the command line ``argv``) with each word of ``argv`` that carries a credential
    as it may be quoted (without the credential), also where the sentence quotes it as Python does (``'…'``)."""
    pairs: dict[str, str] = {}
    for typed, shown in _typed_words(argv):  # the first way a word is hidden, its option's, wins
        if typed and typed != shown:
            pairs.setdefault(typed, shown)
    for typed in sorted(pairs, key=len, reverse=True):  # a whole word before a part of it
        text = text.replace(repr(typed), repr(pairs[typed])).replace(typed, pairs[typed])
    return text


__all__ = ["masked", "typed_shown", "typed_start"]
