"""The demo server's own texts in the one language it was started in.

Its texts (descriptions, prompts, resources, log lines, results) are ours, so the project's
catalogue carries them; the demo server speaks one language for all its clients, chosen when it
starts (``DemoOptions.language``), independent of the language of whatever process hosts it. Names
that are protocol identifiers (tools, arguments, prompts, resources' URIs, enum values) stay as they are.
Call sites bind a :class:`DemoWords` to ``_`` (``_ = state.words``), so the extraction finds their texts.
"""

from __future__ import annotations

import gettext

from inspector.i18n import DOMAIN
from inspector.i18n.languages import DEFAULT_LANGUAGE, load_translations, normalize_language


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``message`` for the catalogue; a :class:`DemoWords` says it where it is used."""
    return message


class DemoWords:
    """Translates the demo server's texts into ``language`` (English when the catalogue has none)."""

    def __init__(self, language: str | None = None) -> None:
        wanted = normalize_language(language) or DEFAULT_LANGUAGE
        found = load_translations(DOMAIN, wanted) if wanted != DEFAULT_LANGUAGE else None
        self.language = wanted if found is not None else DEFAULT_LANGUAGE
        self._catalogue: gettext.NullTranslations = found or gettext.NullTranslations()

    def __call__(self, message: str) -> str:
        return self._catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of a message that depends on ``count``."""
        return self._catalogue.ngettext(singular, plural, count)

    def decimal(self, value: float) -> str:
        """``value`` with one decimal, as the language writes it ("2.5" / "2,5")."""
        from babel.numbers import format_decimal  # here: only a tool that says a decimal loads it

        return format_decimal(value, format="0.0", locale=self.language)


ENGLISH = DemoWords()

__all__ = ["ENGLISH", "N_", "DemoWords"]
