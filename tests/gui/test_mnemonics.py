"""Alt+letter reaches one thing: no two &-accelerators share a letter in a menu, in the menu bar with
what the shown tab offers (labels, buttons, tabs), or in a dialog; in English and in German. Every item
of a context menu of ours has its letter (the keyboard's user opens it with the Menu key and picks with a
letter, as in the menu bar)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
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


def context_menus(window: QWidget) -> Iterator[tuple[str, list[str]]]:
    """(whose, item texts) for each context menu of ours in ``window``: a widget's own actions, or the menu
    a widget builds when asked (each such widget must be known here: a new one fails until it is added)."""
    builders = {window.servers.view: window.servers.context_menu}
    for widget in window.findChildren(QWidget):
        policy = widget.contextMenuPolicy()
        whose = widget.accessibleName() or type(widget).__name__
        if policy == Qt.ContextMenuPolicy.ActionsContextMenu:
            yield whose, [action.text() for action in widget.actions() if not action.isSeparator()]
        elif policy == Qt.ContextMenuPolicy.CustomContextMenu:
            assert widget in builders, f"{whose}: a context menu this test does not know"
            menu = builders[widget]()
            yield whose, [action.text() for action in menu.actions() if not action.isSeparator()]
            menu.deleteLater()


def test_every_context_menu_item_has_its_own_letter(qtbot, make_window, demo_server, both_languages) -> None:
    window = make_window((demo_server.url, "Demo server"))
    window.servers.view.setCurrentIndex(window.servers.view.model().index(0, 0))
    problems, seen = [], []
    for language in both_languages:
        switch_language(language)
        QApplication.processEvents()
        for whose, texts in context_menus(window):
            seen.append(whose)
            problems += [f"{language} {whose}: {text!r} has no letter" for text in texts if letter(text) is None]
            problems += [f"{language} {whose}: {clash}" for clash in _clashes([("item", text) for text in texts])]
    # The servers list's (Edit, Remove, Test connection, Console), the operations list's, the run list's.
    assert len(seen) >= 2 * 3, seen
    assert problems == [], "\n".join(problems)


def test_settings_rows_have_their_letters_and_no_dialog_s_letters_clash(qtbot, make_window, both_languages) -> None:
    """Settings had no Alt+letter at all: its twenty controls were reached with Tab alone."""
    from PySide6.QtWidgets import QDialog, QFormLayout

    from inspector.gui.dialogs.about_dialog import AboutDialog
    from inspector.gui.dialogs.server_dialog import ServerDialog
    from inspector.gui.dialogs.settings_dialog import SettingsDialog

    window = make_window(wait_tools=False)
    problems = []
    for language in both_languages:
        switch_language(language)
        dialogs: list[QDialog] = [SettingsDialog(window.settings, str(window.db_path), window), ServerDialog(window),
                                  AboutDialog(window.db_path, "", window)]
        for dialog in dialogs:
            qtbot.addWidget(dialog)
            dialog.show()
            qtbot.waitExposed(dialog)
            problems += [f"{language} {dialog.windowTitle()}: {clash}" for clash in _clashes(shown_mnemonics(dialog))]
        settings = dialogs[0]
        (form,) = [layout for layout in settings.findChildren(QFormLayout) if layout.rowCount() > 5]
        for row in range(form.rowCount()):
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole).widget()
            if letter(label.text()) is None or label.buddy() is None:
                problems.append(f"{language} Settings: {label.text()!r} has no letter or leads nowhere")
        settings.activateWindow()
        qtbot.waitUntil(settings.isActiveWindow)
        qtbot.keyClick(settings.focusWidget(), "u" if language == "en" else "l", Qt.KeyboardModifier.AltModifier)
        assert settings.focusWidget() is settings.database, language  # Run database's field
        for dialog in dialogs:
            dialog.reject()
    assert problems == [], "\n".join(problems)
