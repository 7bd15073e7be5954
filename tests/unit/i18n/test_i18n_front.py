"""The gettext front: source text by default, an installed catalogue wins, plurals by count."""

from __future__ import annotations

import gettext

from inspector import i18n
from inspector.i18n import _, ngettext


class _Upper(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return message.upper()

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return (singular if n == 1 else plural).upper()


def test_source_text_without_a_catalogue() -> None:
    assert _("{count} tools").format(count=3) == "3 tools"
    assert ngettext("{count} tool", "{count} tools", 1).format(count=1) == "1 tool"
    assert ngettext("{count} tool", "{count} tools", 2).format(count=2) == "2 tools"


def test_an_installed_catalogue_is_used_and_can_be_removed() -> None:
    i18n.install(_Upper())
    try:
        assert _("cancelled") == "CANCELLED"
        assert ngettext("one leg", "several legs", 5) == "SEVERAL LEGS"
    finally:
        i18n.install(None)
    assert _("cancelled") == "cancelled"
