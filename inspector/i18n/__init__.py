"""The gettext front of Run Inspector: every user-facing string goes through ``_``, ``ngettext`` or ``pgettext``.

Call sites use named ``str.format`` placeholders *after* translation, so a translator may move
them: ``_("{count} runs stored").format(count=n)`` — never concatenated fragments. Strings that
are defined once and translated where they are shown are marked with ``N_`` so extraction finds
them.

The language is chosen once (:func:`choose_language`: the setting, else the system locale, else
English) and set with :func:`set_language`, which loads the compiled catalogue shipped inside the
package (``inspector/locale/<lang>/LC_MESSAGES/run-inspector.mo``). Formatting of numbers,
durations and dates for the current language is in :mod:`inspector.i18n.formatting`.
"""

from __future__ import annotations

import gettext as _gettext
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from inspector.i18n.languages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    choose_language,
    load_translations,
    normalize_language,
)

if TYPE_CHECKING:
    from babel import Locale

DOMAIN = "run-inspector"

_translations: _gettext.NullTranslations = _gettext.NullTranslations()
_language: str = DEFAULT_LANGUAGE
_locale: Locale | None = None
#: The threads saying something in English now (:func:`in_english`), and how many times over: the others,
#: and the process's language, are left as they are. Empty nearly always: ``_`` asks no more then.
_in_english: dict[int, int] = {}
_ENGLISH = _gettext.NullTranslations()


def _english_here() -> bool:
    return bool(_in_english) and threading.get_ident() in _in_english


def _saying() -> _gettext.NullTranslations:
    return _ENGLISH if _in_english and threading.get_ident() in _in_english else _translations


def install(translations: _gettext.NullTranslations | None) -> None:
    """Use ``translations`` from now on (``None``: back to the source language)."""
    global _translations
    _translations = translations if translations is not None else _gettext.NullTranslations()


def set_language(code: str | None) -> str:
    """Load the catalogue of language ``code`` ("de", "de_DE.UTF-8", ...) and return the language used.

    An unknown language, or one whose compiled catalogue is missing, falls back to English.
    """
    global _language, _locale
    language = normalize_language(code) or DEFAULT_LANGUAGE
    translations = load_translations(DOMAIN, language)
    if translations is None and language != DEFAULT_LANGUAGE:
        language = DEFAULT_LANGUAGE
        translations = load_translations(DOMAIN, language)
    install(translations)
    _language, _locale = language, None
    return language


def current_language() -> str:
    """The language code in use ("en" or "de")."""
    return DEFAULT_LANGUAGE if _english_here() else _language


def current_locale() -> Locale:
    """The Babel locale of the language in use, for formatting numbers and dates."""
    global _locale
    language = current_language()
    if language != _language:  # this thread says something in English (in_english)
        from babel import Locale

        return Locale.parse(language)
    if _locale is None or str(_locale) != _language:  # tests may set the language behind our back
        from babel import Locale  # here: a command that says no date nor odd number never loads Babel

        _locale = Locale.parse(_language)
    return _locale


def _(message: str) -> str:
    """The translation of ``message`` in the current language."""
    if _in_english and threading.get_ident() in _in_english:  # (inline: said at every paint)
        return message
    return _translations.gettext(message)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``message`` for extraction without translating it (translate it with ``_`` where shown)."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The translation of a message whose form depends on ``count`` (the language's plural rules)."""
    return _saying().ngettext(singular, plural, count)


def translated_texts() -> tuple[str, ...]:
    """Every translation in the current language's catalogue that differs from its English (each plural
    form apart); none in English."""
    catalogue = getattr(_saying(), "_catalog", None)
    if current_language() == DEFAULT_LANGUAGE or not isinstance(catalogue, dict):
        return ()
    return tuple(text for key, text in catalogue.items()
                 if key and isinstance(text, str) and text and text != (key[0] if isinstance(key, tuple) else key))


@contextmanager
def in_english() -> Iterator[None]:
    """Say what this thread says inside in English whatever the language (the words of the command line
    and of ``--json``; the English words Find also finds, said on a reader thread): the other threads say
    theirs in the language in use, and a language chosen meanwhile stays chosen."""
    thread = threading.get_ident()
    _in_english[thread] = _in_english.get(thread, 0) + 1  # this thread's key alone: no other thread writes it
    try:
        yield
    finally:
        if _in_english[thread] == 1:
            del _in_english[thread]
        else:
            _in_english[thread] -= 1


def pgettext(context: str, message: str) -> str:
    """The translation of ``message`` in a context, for short words with several meanings."""
    return _saying().pgettext(context, message)


__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "N_",
    "_",
    "choose_language",
    "current_language",
    "current_locale",
    "in_english",
    "install",
    "normalize_language",
    "ngettext",
    "pgettext",
    "set_language",
    "translated_texts",
]
