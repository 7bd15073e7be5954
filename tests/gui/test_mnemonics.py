"""Alt+letter reaches one thing: no two &-accelerators share a letter in a menu, in the menu bar with
what the shown tab offers (labels, buttons, tabs), or in a dialog; in English and in German."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QMenu, QTabWidget, QWidget

from inspector.gui.language import switch_language

MNEMONIC = re.compile(r"&([^&\s])")


def letter(text: str) -> str | None:
    found = MNEMONIC.search(text.replace("&&", ""))
    return found.group(1).lower() if found else None


def _clashes(named: list[tuple[str, str]]) -> list[str]:
    by_letter: dict[str, list[str]] = {}
    for where, text in named:
        key = letter(text)
        if key is not None:
            by_letter.setdefault(key, []).append(f"{where} {text!r}")
    return [f"{key}: {', '.join(texts)}" for key, texts in sorted(by_letter.items()) if len(texts) > 1]


def menu_clashes(menu: QMenu, path: str) -> list[str]:
    shown = [action for action in menu.actions() if action.isVisible() and not action.isSeparator()]
    clashes = [f"{path}: {clash}" for clash in _clashes([("item", action.text()) for action in shown])]
    for action in shown:
        if action.menu() is not None:
            clashes += menu_clashes(action.menu(), f"{path} › {action.text()}")
    return clashes


def shown_mnemonics(root: QWidget) -> list[tuple[str, str]]:
    """The window-wide Alt+letter keys of what ``root`` shows: labels, buttons and tab titles."""
    named = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisibleTo(root):
            continue
        if isinstance(widget, QAbstractButton | QLabel):
            named.append((type(widget).__name__, widget.text()))
        if isinstance(widget, QTabWidget):
            named += [("tab", widget.tabText(i)) for i in range(widget.count())]
    return named


@pytest.fixture
def both_languages() -> Iterator[tuple[str, ...]]:
    yield ("en", "de")
    switch_language("en")


def test_no_two_mnemonics_share_a_letter_in_a_menu_or_a_tab(qtbot, make_window, demo_server,
                                                             both_languages) -> None:
    window = make_window((demo_server.url, "Demo server"))
    play = window.play.room  # built now: its choices are part of the check
    clashes = []
    for language in both_languages:
        switch_language(language)
        QApplication.processEvents()
        bar = [("menu", action.text()) for action in window.menuBar().actions()]
        clashes += [f"{language} menu bar: {clash}" for clash in _clashes(bar)]
        for action in window.menuBar().actions():
            clashes += [f"{language} {clash}" for clash in menu_clashes(action.menu(), action.text())]
        for index in range(window.tabs.count()):
            window.tabs.setCurrentIndex(index)
            for choice in ("file", "model") if window.tabs.currentWidget() is play else ("",):
                if choice:
                    assert play.choices.choose(choice)
                QApplication.processEvents()
                where = f"{language} tab {window.tabs.tabText(index)!r} {choice}".strip()
                clashes += [f"{where}: {clash}" for clash in _clashes(bar + shown_mnemonics(window))]
    assert clashes == [], "\n".join(clashes)


def test_the_check_sees_a_clash() -> None:
    assert _clashes([("menu", "&Help"), ("QPushButton", "C&hoose a file…"), ("menu", "&File")]) == [
        "h: menu '&Help', QPushButton 'C&hoose a file…'"]
    assert letter("Save && &quit") == "q" and letter("Tom && Jerry") is None
