"""What a detail view says of a text, a list or an object it cut: how long the whole was, in the
locale's numbers ("1.234.567 Zeichen", not "1,234,567" in German; "19,500 more keys", not "19500")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from inspector import i18n
from inspector.gui.widgets.plain_text import MAX_ITEMS, MAX_TEXT_CHARS, bounded, clip_text


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


@pytest.mark.parametrize(("language", "characters", "items", "keys"), [
    ("en", "… (cut: the text has 1,234,567 characters)", "… 19,500 more items", "19,500 more keys"),
    ("de", "… (gekürzt: der Text hat 1.234.567 Zeichen)", "… 19.500 weitere Einträge", "19.500 weitere Schlüssel"),
], indirect=["language"])
def test_what_was_cut_is_counted_in_the_locales_numbers(language, characters, items, keys) -> None:
    many = 19_500 + MAX_ITEMS
    assert clip_text("x" * 1_234_567).endswith("\n" + characters)
    assert len(clip_text("x" * 1_234_567)) < MAX_TEXT_CHARS + 100
    assert bounded(list(range(many)))[-1] == items
    assert bounded({f"k{n}": n for n in range(many)})["…"] == keys
