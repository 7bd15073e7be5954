"""Values in the settings file that cannot be used (a budget of "abc" or of more than a week, a language
there is no catalogue for): each is named at start-up, with its default applying instead. The file keeps
them until a setting is saved from the window; nothing is written here."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSettings

from inspector.i18n import _
from inspector.i18n.languages import normalize_language
from inspector.mcp import LOG_LEVELS

from .settings import read_default_budget, read_port, read_switch

#: The most characters of a value the sentence quotes.
VALUE_CHARS = 40


def _whole_number(text: str) -> bool:
    """Whether ``text`` is a whole number (one out of range is brought into it, as the dialog's field does)."""
    try:
        int(text)
    except ValueError:
        return False
    return True


#: The settings whose value falls back to its default when it cannot be used, and how to tell.
CHECKS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("operations/default_budget_s", lambda text: read_default_budget(text) is not None),
    ("window/language", lambda text: normalize_language(text) is not None),
    ("receiver/port", lambda text: read_port(text) is not None),
    ("logging/server_level", lambda text: text in LOG_LEVELS),
    ("demo/autostart", lambda text: read_switch(text) is not None),
    ("sampling/allow", lambda text: read_switch(text) is not None),
    ("receiver/autostart", lambda text: read_switch(text) is not None),
    ("sampling/max_tokens", _whole_number),
)


def unusable_values(qsettings: QSettings) -> list[str]:
    """``key = "value"`` for each value that cannot be used (an empty or missing one is the default)."""
    found = []
    for key, usable in CHECKS:
        value = qsettings.value(key)
        text = "" if value is None else str(value)
        if text.strip() and not usable(text):
            shown = text if len(text) <= VALUE_CHARS else text[:VALUE_CHARS] + "…"
            found.append(f'{key} = "{shown}"')
    return found


def unusable_values_note(qsettings: QSettings, values: list[str]) -> str:
    """What the window says of :func:`unusable_values`."""
    return _("The settings file {path} has values that cannot be used, so their defaults apply: {values}. "
             "File › Settings… lets you choose them again.").format(
        path=qsettings.fileName(), values="; ".join(values))
