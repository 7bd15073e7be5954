"""Sentences kept in English for machines and translated where a person reads them.

Layers whose sentences also reach ``--json``, the database or export files (the MCP client, the
trace importer, the store, the command line's errors) keep a :class:`Message`: a template marked
with ``N_`` and the values for its named placeholders. ``str(message)`` is the English sentence,
byte for byte what machine-readable output carries; :func:`translate` is the sentence in the
current language, for a terminal or a window. The MCP client has its own ``Message`` of the same
shape (``inspector.mcp.messages``) because it may not import anything of ours; :func:`translate`
reads either.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.operation_names import OPERATION_SAID, own_operation


@dataclass(frozen=True)
class Message:
    """One whole sentence: a ``template`` with ``{named}`` placeholders and the values that fill
    them; with ``plural``, the form depends on the whole number named by ``count``."""

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


def NP_(singular: str, plural: str, params: Mapping[str, Any], count: str) -> Message:  # noqa: N802 - Babel's keyword
    """A sentence whose form depends on the number ``params[count]`` (extracted as one plural message)."""
    return Message(singular, params, plural=plural, count=count)


def translate(message: Any) -> str:
    """``message`` in the current language: a :class:`Message` (ours or the MCP client's) is
    translated and filled, its numbers formatted for the locale; an error that carries
    ``sentences`` gives them all, translated; anything else (a stored sentence, server text) is
    shown as it is."""
    sentences = getattr(message, "sentences", None)
    if sentences is not None:
        return " ".join(translate(sentence) for sentence in sentences)
    sentence = getattr(message, "sentence", None)
    if sentence is not None and not isinstance(message, str):
        return translate(sentence)
    template = getattr(message, "template", None)
    params = getattr(message, "params", None)
    if not isinstance(template, str) or not isinstance(params, Mapping):
        return str(message)
    plural, count = getattr(message, "plural", None), getattr(message, "count", None)
    if plural is not None and count is not None:
        value = params[count]
        text = ngettext(template, plural, int(getattr(value, "value", value)))
    else:
        text = _(template)
    return text.format(**{name: _shown(value) for name, value in params.items()})


def shown_reason(value: Any) -> str:
    """An error (or any value) as it fills a ``{reason}`` in the current language: a sentence it carries
    translated, SQLite's and the system's common reasons in our words, anything else as it is."""
    return str(_shown(value))


def kept_sentence(sentence: Any, english: str) -> Message | str:
    """A sentence another layer kept as data (the run model's ``inspector.runs.sentences.Sentence``:
    any value with ``template`` and ``params``) as a :class:`Message`, so it is said in the current
    language; ``english`` when it is not one, or when its English is not ``english`` byte for byte
    (the English a caller shows or stores must never change)."""
    template, params = getattr(sentence, "template", None), getattr(sentence, "params", None)
    if not isinstance(template, str) or not isinstance(params, Mapping) or str(sentence) != english:
        return english
    return Message(template, dict(params))


def translate_all(messages: Iterable[Any]) -> list[str]:
    """Each of ``messages`` in the current language."""
    return [translate(message) for message in messages]


def _shown(value: Any) -> Any:
    """A value as it fills a placeholder: numbers marked by the client in the locale's way, the system's
    and SQLite's common reasons in our words."""
    if hasattr(value, "english") and hasattr(value, "value"):
        from inspector.i18n.formatting import format_number

        return format_number(value.value)
    if isinstance(value, float):
        from inspector.i18n.formatting import format_number

        return format_number(value)
    if hasattr(value, "template") and hasattr(value, "params"):
        return translate(value)
    if isinstance(value, Exception) and getattr(value, "sentence", None) is not None:  # e.g. a StoreError
        return translate(value)
    if hasattr(value, "sqlite_errorcode"):  # SQLite's reason (a sqlite3.Error): its common ones in our words
        from inspector.i18n.sqlite_reasons import sqlite_reason

        return _shown(sqlite_reason(value))
    if hasattr(value, "errno") and hasattr(value, "strerror"):  # the operating system's reason (mcp's SystemReason)
        from inspector.i18n.os_reasons import os_reason

        return _shown(os_reason(value))
    return value



#: A placeholder a stored note may use: a plain name (no attribute, index, conversion or format spec).
_FIELD = re.compile(r"\{([a-z_]{1,40})\}")
#: How deep notes may nest in each other's values (ours nest one level).
_NOTE_DEPTH = 4


@dataclass(frozen=True)
class Count:
    """A whole number inside a sentence (a count of things, a line or a byte in a file): the English
    sentence writes its digits (``--json``, stored text), a reader's language its way ("20.000");
    it also chooses the plural form."""

    value: int

    @property
    def english(self) -> str:
        return str(self.value)

    def __str__(self) -> str:
        return self.english

    def __format__(self, spec: str) -> str:
        return format(self.english, spec)


def message_from_note(note: Any, depth: int = 0) -> Message | str:
    """A sentence kept as data — ``{"template", "params", "text"}``, as a trace importer keeps its
    notes — as the :class:`Message` it was (translate it with :func:`translate`); a note of another
    shape gives its text.

    A note comes from a file, and a file may come from a stranger: its template is used only when
    every placeholder is a plain ``{name}`` with a value (a string, a number or a note), so that
    formatting it can neither reach into objects (``{x.__class__}``) nor pad a value to gigabytes;
    anything else gives the stored English text."""
    if not isinstance(note, Mapping):
        return str(note)
    text = str(note.get("text", ""))
    template, params = note.get("template"), note.get("params")
    if not isinstance(template, str) or not isinstance(params, Mapping) or depth > _NOTE_DEPTH:
        return text
    plural, count = note.get("plural"), note.get("count")
    if (plural is None) != (count is None) or (plural is not None and not (
            isinstance(plural, str) and isinstance(count, str) and _FIELD.fullmatch("{%s}" % count))):
        return text
    forms = (template,) if plural is None else (template, plural)
    if any(_FIELD.sub("", form).count("{") or _FIELD.sub("", form).count("}") for form in forms):
        return text  # a brace that is not a plain placeholder
    values: dict[str, Any] = {}
    for name in {name for form in forms for name in _FIELD.findall(form)} | ({count} if count else set()):
        value = params.get(name)
        if isinstance(value, Mapping):
            values[name] = message_from_note(value, depth + 1)
        elif isinstance(value, (str, int)) and not isinstance(value, bool) or (
                isinstance(value, float) and math.isfinite(value)):
            values[name] = value
        else:
            return text
    if count is not None and not (isinstance(values[count], int) and -(2**53) <= values[count] <= 2**53):
        return text  # the plural form is chosen by a whole number
    if count is not None:  # a count of things: written as the reader's locale writes numbers
        values[count] = Count(values[count])
    if template == OPERATION_SAID and (own := own_operation(values.get("operation"))):
        values["operation"] = Message(own)  # "sign-in: …" said "Anmeldung: …"
    return Message(template, values, plural=plural, count=count)


def said_again(text: str, note: Any) -> str:
    """``text`` with the sentence of ours it begins with said in the current language: ``note`` is
    that sentence as data (:func:`inspector.mcp.messages.note_of`, stored beside the English). Text
    cut short inside the sentence (a first line, a row's clip) gives the sentence's first line; text
    that does not begin with the note's English (redacted, or a note that is not ours) is shown as
    it is."""
    english = note.get("text") if isinstance(note, Mapping) else None
    if not isinstance(text, str) or not isinstance(english, str) or not english or not text:
        return text
    whole = text.startswith(english)
    # A first line, or a text cut short for a row, may end inside the sentence: its start is said.
    if not (whole or english.startswith(text)):
        return text
    message = message_from_note(note)
    if isinstance(message, str):
        return text
    try:
        said = translate(message)
    except (KeyError, IndexError, ValueError):  # a translation that names another placeholder
        return text
    return said + text[len(english):] if whole else said.split("\n", 1)[0]


__all__ = ["Count", "Message", "kept_sentence", "message_from_note", "said_again", "translate", "translate_all"]
