"""A menu named in the window's words ("File › Settings…") is named as the menus are, in either
language: with "›", as the shortcut list and the server log's hint write it (the Settings dialog said
"File → Receive OTLP traces", the server log "Server → Console" for the item "Console (stderr)")."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from inspector.gui.help_menu import plain_action_text
from inspector.gui.language import switch_language
from tools.translations import read_settings

SETTINGS = read_settings()


def window_texts(language: str) -> list[str]:
    """Every message the program can show in ``language`` (the English sources, or the German ones)."""
    with SETTINGS.catalogue("de").open("rb") as stream:
        catalogue = read_po(stream, locale="de")
    texts = []
    for message in catalogue:
        if not message.id:
            continue
        texts += list(message.id if isinstance(message.id, tuple) else (message.id,)) if language == "en" else \
            list(message.string if isinstance(message.string, tuple) else (message.string,))
    return texts


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_menu_path_in_a_sentence_names_a_menu_entry_of_the_window(qtbot, make_window, language) -> None:
    window = make_window()
    try:
        switch_language(language)
        menus = {plain_action_text(top.text()): [plain_action_text(action.text()) for action in top.menu().actions()
                                                 if not action.isSeparator() and action.text()]
                 for top in window.menuBar().actions()}
        texts = window_texts(language)
        named = 0
        for text in texts:
            for menu, items in menus.items():
                assert f"{menu} → " not in text, text
                start = text.find(f"{menu} › ")
                while start >= 0:
                    named += 1
                    rest = text[start + len(menu) + 3:]
                    assert any(rest.startswith(item) for item in items), (text, menu, items)
                    start = text.find(f"{menu} › ", start + 1)
        assert named >= 3  # the hints that name a menu were found: the test means something
    finally:
        switch_language("en")
