"""The run model's sentences kept translatable: a template with named placeholders, and its values.

The run model depends on nothing of ours, so it cannot translate. It marks each template with
:func:`N_` so that Babel's extraction finds it, and its errors keep the :class:`Sentence` they
say: ``str()`` of the error is the English sentence (for ``--json``, logs and the tests, which
never change with the language); ``inspector.i18n.messages.translate`` says it in the current
language (it reads any value with ``template`` and ``params``, as it reads the MCP client's).

Values that are data (a key, a repr of what was found, a list of allowed values) are filled in
as they are, in every language; a value that is a :class:`Sentence` is said in the language too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(text: str) -> str:  # noqa: N802 - the name Babel's extraction looks for
    """Mark ``text`` for translation without translating it (that happens where it is shown)."""
    return text


@dataclass(frozen=True)
class Sentence:
    """A sentence (or a phrase filled into one): ``template`` with ``{named}`` placeholders and the
    values that fill them. ``str()`` is the English text."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.template.format(**self.params)


def said(template: str, **params: Any) -> Sentence:
    """A :class:`Sentence`: ``template`` (marked with ``N_`` by the caller) and its values."""
    return Sentence(template, params)


def at(place: str, problem: Sentence | str) -> Sentence:
    """``problem`` found at ``place`` (``"legs[1]"``, a key of the run model's stored form):
    ``"legs[1]: outcome must be …"``. The place is a name in the file, never translated; the
    problem is said in the language. (No words of its own, so nothing to translate.)"""
    return Sentence("{place}: {problem}", {"place": place, "problem": problem})


def describe(value: Any) -> Sentence:
    """A JSON value as a refusal names what it found ("null", "the number -5", "a list"): its type in
    JSON's words, and a scalar's value, never Python's (``None``, ``int``). A phrase of its own, filled
    into the problem's sentence; a value held frozen (a tuple, a read-only mapping) is the list or
    object it was read from."""
    if value is None:
        return said(N_("null"))
    if isinstance(value, bool):
        return said(N_("the boolean true")) if value else said(N_("the boolean false"))
    if isinstance(value, (int, float)):
        return said(N_("the number {number}"), number=f"{value!r:.40}")
    if isinstance(value, str):
        if len(value) > 60:
            return said(N_("a string ({count} characters)"), count=len(value))
        return said(N_("the string {text}"), text=repr(value))
    if isinstance(value, Mapping):
        return said(N_("an object"))
    if isinstance(value, (list, tuple)):
        return said(N_("a list"))
    return said("{name}", name=type(value).__name__)


class SaidError(ValueError):
    """An error of the run model that keeps its sentence: ``sentence`` is a :class:`Sentence` (or
    plain English text, from a caller that gave one), ``str()`` the English sentence."""

    def __init__(self, sentence: Sentence | str) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence

    @property
    def template(self) -> str:
        """The sentence's template (plain text given: the text itself, its braces escaped)."""
        if isinstance(self.sentence, Sentence):
            return self.sentence.template
        return str(self.sentence).replace("{", "{{").replace("}", "}}")

    @property
    def params(self) -> Mapping[str, Any]:
        """The values that fill :attr:`template`."""
        return self.sentence.params if isinstance(self.sentence, Sentence) else {}


__all__ = ["N_", "SaidError", "Sentence", "at", "describe", "said"]
