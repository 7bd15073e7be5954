"""Sentences the client says, kept translatable: a template with named placeholders, and its values.

The MCP client depends on nothing of ours, so it cannot translate. It marks each template with
:func:`N_` (:func:`NP_` for one with plural forms) so that Babel's extraction finds it, and hands
display layers a :class:`Message`: ``str()`` is the English sentence (for ``--json``, the database
and exports, which never change with the language); ``inspector.i18n.messages.translate`` gives
the sentence in the current language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(text: str) -> str:  # noqa: N802 - the name Babel's extraction looks for
    """Mark ``text`` for translation without translating it (that happens where it is shown)."""
    return text


@dataclass(frozen=True)
class Number:
    """A number inside a sentence: ``english`` is how the English sentence writes it, ``value``
    what a display layer formats for the current locale (``unit`` ``"s"``: seconds)."""

    value: float
    english: str
    unit: str = ""

    def __str__(self) -> str:
        return self.english

    def __format__(self, spec: str) -> str:
        return format(self.english, spec)


def whole(value: int) -> Number:
    """A whole number inside a sentence (a count of bytes, of seconds granted)."""
    return Number(value, str(value))


@dataclass(frozen=True)
class Message:
    """One whole sentence (never a fragment): ``template`` with ``{named}`` placeholders and the
    values that fill them; with ``plural``, the form depends on the number named by ``count``."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: str | None = None

    def english_template(self) -> str:
        if self.plural is None or self.count is None:
            return self.template
        value = self.params[self.count]
        return self.template if getattr(value, "value", value) == 1 else self.plural

    def __str__(self) -> str:
        return self.english_template().format(**self.params)


@dataclass(frozen=True)
class SystemReason:
    """Why the operating system refused something, inside a sentence: ``str()`` is its own English
    (``strerror``), as ``--json`` and stored text carry it; a display layer says the common reasons
    (by ``errno``) in the reader's language (``inspector.i18n.os_reasons``)."""

    errno: int | None
    strerror: str

    def __str__(self) -> str:
        return self.strerror

    def __format__(self, spec: str) -> str:
        return format(self.strerror, spec)


def system_reason(error: OSError) -> SystemReason:
    """``error``'s reason, to fill a sentence's placeholder (its type's name when the system gave no text)."""
    return SystemReason(error.errno, error.strerror or type(error).__name__)


class SaidName(str):
    """A name of ours that fills sentences (the fresh demo server's, as a server's name): ``str()``
    is its English, as ``--json`` and stored text carry it; a display layer says it in the reader's
    language, and :func:`note_of` keeps it as a note of its own, so a stored sentence naming it is
    said again in German too. Mark it with :func:`N_` where it is made."""

    __slots__ = ()

    @property
    def template(self) -> str:
        return str.__str__(self)

    @property
    def params(self) -> Mapping[str, Any]:
        return {}


def NP_(singular: str, plural: str, params: Mapping[str, Any], count: str) -> Message:  # noqa: N802 - Babel's keyword
    """A sentence whose form depends on the number ``params[count]``; Babel extracts the two forms as one
    plural message (keyword ``NP_:1,2``), so a language gets its own plural rules."""
    return Message(singular, params, plural=plural, count=count)


def note_of(message: Any) -> dict[str, Any]:
    """A sentence as data, to be stored beside its English text and said again in a reader's
    language: ``{"template", "params", "text"}`` (with ``"plural"`` and ``"count"`` for a sentence
    with plural forms). A value that is a sentence becomes a note of its own; a :class:`Number`
    its value, which the reader formats for its locale. ``inspector.i18n.messages.message_from_note``
    reads it back (and checks a stranger's)."""
    params: dict[str, Any] = {}
    for name, value in message.params.items():
        if hasattr(value, "template") and hasattr(value, "params"):
            params[name] = note_of(value)
        elif isinstance(value, Number):
            params[name] = value.value
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            params[name] = value
        else:
            params[name] = str(value)
    note: dict[str, Any] = {"template": message.template, "params": params, "text": str(message)}
    plural, count = getattr(message, "plural", None), getattr(message, "count", None)
    if plural is not None and count is not None:
        note["plural"], note["count"] = plural, count
    return note


def one_sentence(sentences: tuple[Message, ...] | list[Message]) -> Message:
    """Several whole sentences said one after the other, as one :class:`Message` (each translated
    on its own); one sentence is itself."""
    return sentences[0] if len(sentences) == 1 else said_together(sentences, " ")


def said_together(parts: tuple[Message, ...] | list[Message], separator: str) -> Message:
    """``parts`` one after the other with ``separator`` between them, as one :class:`Message` whose
    placeholders are plain names (``{part_a}``, ``{part_b}``, … ``{part_ba}``), each part translated on its own."""
    names = [f"part_{_letters(index)}" for index in range(len(parts))]
    return Message(separator.join("{%s}" % name for name in names), dict(zip(names, parts, strict=True)))


def _letters(index: int) -> str:
    """0 → "a", 25 → "z", 26 → "ba": a name of letters only, as a stored note's placeholder must be."""
    letters = ""
    while True:
        index, digit = divmod(index, 26)
        letters = chr(ord("a") + digit) + letters
        if not index:
            return letters


__all__ = ["Message", "NP_", "N_", "Number", "SaidName", "SystemReason", "note_of", "one_sentence", "said_together",
           "system_reason"]
