"""The Help menu: About (dialogs/about_dialog.py), Keyboard shortcuts, Documentation.

:func:`install_help_menu` adds it to a window. The shortcut list is read from the window's menus,
actions and named shortcuts when it opens, so it cannot go stale; every text is plain text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QKeyCombination, QObject, QSize, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import N_, _, pgettext
from inspector.store.paths import APP_NAME
from inspector.version import app_homepage

from .dialogs.about_dialog import AboutDialog, plain_label
from .language import on_language_changed, translated
from .widgets.tab_stops import one_tab_stop


def documentation_paths() -> list[Path]:
    """The README and the docs folder of the source tree this package runs from, where they exist."""
    root = Path(__file__).resolve().parents[2]  # inspector/gui/help_menu.py → the source tree
    return [path for path in (root / "README.md", root / "docs") if path.exists()]


def plain_action_text(text: str) -> str:
    """A menu text as read aloud: without its mnemonic marks ("&Run" → "Run", "&&" → "&") and without
    the keys a menu shows after a tab (:func:`with_keys`)."""
    return text.split("\t", 1)[0].replace("&&", "\0").replace("&", "").replace("\0", "&")


def key_text(sequence: QKeySequence) -> str:
    """``sequence`` as the platform writes it, but Return and the keypad's Enter both named as our own
    texts name them ("Run  (Ctrl+Enter)", "Strg+Eingabe"): Qt says "Return" and "Enter", in German too."""
    native = QKeySequence.SequenceFormat.NativeText
    parts = []
    for index in range(sequence.count()):
        combination = sequence[index]
        if combination.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            # The modifiers as the platform writes them ("Strg+Umschalt+", "⌘"): before a letter, cut off.
            modifiers = QKeySequence(QKeyCombination(combination.keyboardModifiers(), Qt.Key.Key_A)).toString(native)
            parts.append(modifiers[:-1] + pgettext("the key on the keyboard", "Enter"))
        else:
            parts.append(QKeySequence(combination).toString(native))
    return ", ".join(parts)


def with_keys(text: Callable[[], str], shortcuts: list[QKeySequence]) -> Callable[[], str]:
    """An action's text with its first shortcut written by :func:`key_text` after a tab, which a menu
    shows as the keys ("&Run the tool\tCtrl+Enter"), for a shortcut with Return or Enter: the menu
    itself writes "Ctrl+Return", in German "Strg+Return", beside a button that says "Strg+Eingabe"."""
    def make() -> str:
        first = shortcuts[0] if shortcuts else QKeySequence()
        if any(first[index].key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) for index in range(first.count())):
            return f"{text()}\t{key_text(first)}"
        return text()
    return make


def _keys(sequences: Iterable[QKeySequence]) -> str:
    texts: list[str] = []
    for sequence in sequences:
        text = key_text(sequence) if not sequence.isEmpty() else ""
        if text and text not in texts:  # Ctrl+Return and the keypad's Ctrl+Enter: one "Ctrl+Enter"
            texts.append(text)
    return ", ".join(texts)


def window_shortcuts(window: QMainWindow) -> list[tuple[str, str]]:
    """(what, keys) for every shortcut of ``window``: its menus' actions (as "Menu › Action"), its own
    actions, and the shortcuts a panel names with ``setWhatsThis``; in menu order."""
    rows: list[tuple[str, str]] = []
    seen: set[int] = set()

    def walk(menu: QMenu, trail: str) -> None:
        for action in menu.actions():
            if action.menu() is not None:
                walk(action.menu(), _("{menu} › {item}").format(menu=trail, item=plain_action_text(action.text())))
                continue
            seen.add(id(action))
            keys = _keys(action.shortcuts())
            if keys:
                rows.append((_("{menu} › {item}").format(menu=trail, item=plain_action_text(action.text())), keys))

    for top in window.menuBar().actions():
        if top.menu() is not None:
            walk(top.menu(), plain_action_text(top.text()))
    for action in window.actions():
        keys = _keys(action.shortcuts())
        if id(action) not in seen and keys:
            rows.append((plain_action_text(action.text()), keys))
    for shortcut in window.findChildren(QShortcut):
        keys = _keys(shortcut.keys())
        if shortcut.whatsThis() and keys:
            rows.append((shortcut.whatsThis(), keys))
    return rows


def _close_buttons(dialog: QDialog) -> QDialogButtonBox:
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    return buttons


class ShortcutsDialog(QDialog):
    """The window's keyboard shortcuts, read from its actions when the dialog opens."""

    def __init__(self, window: QMainWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self._window = window
        self.table = one_tab_stop(QTableWidget(0, 2))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        # One line a row, as high as its text: the list is a card to read at a glance, not to scroll.
        self.table.setWordWrap(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.note = plain_label()
        self.buttons = _close_buttons(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.retranslate()
        on_language_changed(self, self.retranslate)

    def rows(self) -> list[tuple[str, str]]:
        """What the table shows: (what, keys)."""
        return [(self.table.item(row, 0).text(), self.table.item(row, 1).text())
                for row in range(self.table.rowCount())]

    def retranslate(self) -> None:
        self.setWindowTitle(_("Keyboard shortcuts"))
        self.table.setAccessibleName(_("Keyboard shortcuts"))
        self.table.setHorizontalHeaderLabels([_("Action"), _("Keys")])
        shortcuts = window_shortcuts(self._window)
        self.table.setRowCount(len(shortcuts))
        for row, (what, keys) in enumerate(shortcuts):
            self.table.setItem(row, 0, QTableWidgetItem(what))
            self.table.setItem(row, 1, QTableWidgetItem(keys))
        self.note.setText(_("Alt with the underlined letter opens a menu or a tab; Tab and Shift+Tab move "
                            "between the controls."))
        self._fit()

    def _fit(self) -> None:
        """As big as the rows (every one in view, none cut), at most the screen's room."""
        self.ensurePolished()  # the style's fonts and margins: the rows' heights
        table, layout = self.table, self.layout()
        margins = layout.contentsMargins()
        frame = 2 * table.frameWidth()
        width = (table.sizeHintForColumn(0) + table.sizeHintForColumn(1) + frame
                 + table.verticalScrollBar().sizeHint().width() + margins.left() + margins.right())
        width = max(width, 560)
        inner = width - margins.left() - margins.right()
        least = table.verticalHeader().minimumSectionSize()  # a row is never lower than that
        rows = sum(max(table.sizeHintForRow(row), least) for row in range(table.rowCount()))
        height = (table.horizontalHeader().sizeHint().height() + rows + frame + self.note.heightForWidth(inner)
                  + self.buttons.sizeHint().height() + 2 * layout.spacing() + margins.top() + margins.bottom())
        screen = self.screen() or QGuiApplication.primaryScreen()
        room = screen.availableGeometry().size() - QSize(40, 60) if screen is not None else QSize(width, height)
        self.resize(min(width, room.width()), min(height, room.height()))


class DocumentationDialog(QDialog):
    """Where the documentation is: the README and the docs folder (opened in the system's viewer)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.paths = documentation_paths()
        self.text = plain_label()
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        self.open_buttons: list[QPushButton] = []
        for path in self.paths:
            button = QPushButton()
            button.clicked.connect(lambda _checked=False, path=path: self._open(path))
            layout.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
            self.open_buttons.append(button)
        #: What an Open button did: opened the file, or no program could (said again after a switch).
        self.status = plain_label()
        self._said: tuple[str, Path] | None = None
        layout.addWidget(self.status)
        layout.addWidget(_close_buttons(self))
        self.retranslate()
        on_language_changed(self, self.retranslate)
        self.resize(520, self.sizeHint().height())

    def retranslate(self) -> None:
        self.setWindowTitle(_("Documentation"))
        if self.paths:
            lines = [_("The documentation is in these files (plain text, Markdown):"), ""]
            lines += [str(path) for path in self.paths]
        elif app_homepage():  # installed: the README and docs/ are not in the wheel
            lines = [_("The documentation (README.md and the docs folder) comes with the source code of "
                       "Run Inspector, at {address}; `{command} --help` describes the command line.").format(
                           address=app_homepage(), command=APP_NAME)]
        else:
            lines = [_("The documentation (README.md and the docs folder) comes with the source code of "
                       "Run Inspector ({name}); `{command} --help` describes the command line.").format(
                           name=APP_NAME, command=APP_NAME)]
        self.text.setText("\n".join(lines))
        for button, path in zip(self.open_buttons, self.paths, strict=True):
            button.setText(_("Open {name}").format(name=path.name))
            button.setAccessibleName(_("Open {path}").format(path=path))
        if self._said is not None:
            message, path = self._said
            self.status.setText(_(message).format(path=path))

    def _open(self, path: Path) -> None:
        opened = self.open(path)
        self._said = (N_("Opened {path}") if opened else
                      N_("No program opened {path}; the files are plain text, for any text editor."), path)
        self.retranslate()

    @staticmethod
    def open(path: Path) -> bool:
        """Open ``path`` in the system's viewer (a local file, never an address from elsewhere)."""
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


class HelpMenu(QObject):
    """The Help menu of one window and its three actions."""

    def __init__(self, window: QMainWindow, db_path: Path, settings_file: str = "") -> None:
        super().__init__(window)
        self.window = window
        self.db_path = db_path
        self.settings_file = settings_file
        #: Called before the shortcuts are listed: a window that builds a part after its first paint
        #: builds it now, so that part's shortcuts are listed too.
        self.before_listing: Callable[[], object] | None = None
        self.menu = translated(window.menuBar().addMenu(""), "setTitle", lambda: _("&Help"))
        self.shortcuts_action = translated(QAction(window), "setText", lambda: _("&Keyboard shortcuts…"))
        self.shortcuts_action.setShortcut(QKeySequence.StandardKey.HelpContents)
        self.shortcuts_action.triggered.connect(lambda: self.show_shortcuts().exec())
        self.documentation_action = translated(QAction(window), "setText", lambda: _("&Documentation…"))
        self.documentation_action.triggered.connect(lambda: DocumentationDialog(window).exec())
        self.about_action = translated(QAction(window), "setText", lambda: _("&About Run Inspector…"))
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.about_action.triggered.connect(lambda: self.show_about().exec())
        for action in (self.shortcuts_action, self.documentation_action):
            self.menu.addAction(action)
        self.menu.addSeparator()
        self.menu.addAction(self.about_action)

    def show_about(self) -> AboutDialog:
        return AboutDialog(self.db_path, self.settings_file, self.window)

    def show_shortcuts(self) -> ShortcutsDialog:
        if self.before_listing is not None:
            self.before_listing()
        return ShortcutsDialog(self.window)


def install_help_menu(window: QMainWindow, db_path: Path, settings_file: str = "") -> HelpMenu:
    """Add the Help menu (last in the menu bar) to ``window``."""
    return HelpMenu(window, db_path, settings_file)


__all__ = ["AboutDialog", "DocumentationDialog", "HelpMenu", "ShortcutsDialog", "install_help_menu", "key_text",
           "window_shortcuts"]
