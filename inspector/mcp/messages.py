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


def NP_(singular: str, plural: str, params: Mapping[str, Any], count: str) -> Message:  # noqa: N802 - Babel's keyword
    """A sentence whose form depends on the number ``params[count]``; Babel extracts the two forms as one
    plural message (keyword ``NP_:1,2``), so a language gets its own plural rules."""
    return Message(singular, params, plural=plural, count=count)


__all__ = ["Message", "NP_", "N_", "Number"]
