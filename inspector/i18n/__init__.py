"""The gettext front of Run Inspector: every user-facing string goes through ``_`` or ``ngettext``.

Call sites use named ``str.format`` placeholders *after* translation, so a translator may move
them: ``_("{count} runs stored").format(count=n)`` — never concatenated fragments. Until the
catalogues exist (a later issue) the translations are :class:`gettext.NullTranslations`, which
returns the source text unchanged.
"""

from __future__ import annotations

import gettext as _gettext

DOMAIN = "run-inspector"

_translations: _gettext.NullTranslations = _gettext.NullTranslations()


def install(translations: _gettext.NullTranslations | None) -> None:
    """Use ``translations`` from now on (``None``: back to the source language)."""
    global _translations
    _translations = translations if translations is not None else _gettext.NullTranslations()


def _(message: str) -> str:
    """The translation of ``message`` in the current language."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The translation of a message whose form depends on ``count`` (the language's plural rules)."""
    return _translations.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """The translation of ``message`` in a context, for short words with several meanings."""
    return _translations.pgettext(context, message)


__all__ = ["DOMAIN", "_", "install", "ngettext", "pgettext"]
