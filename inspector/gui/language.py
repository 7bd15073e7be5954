"""The window's language: one app-wide ``changed`` signal, and what a switch does.

:func:`switch_language` loads our catalogue and Qt's own (the standard buttons' "OK", "Cancel"),
then emits :attr:`LanguageSignals.changed`. Every widget and model that shows words connects its
``retranslate()`` to it with :func:`on_language_changed` and sets its texts again there, and
reformats its dates, durations and numbers; nothing needs a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QLibraryInfo, QLocale, QModelIndex, QObject, Qt, QTranslator, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QComboBox, QTabWidget, QWidget

import inspector.i18n as i18n


class LanguageSignals(QObject):
    """The one object that says the language changed (with the new language's code)."""

    changed = Signal(str)


_signals: LanguageSignals | None = None
_qt_translators: list[QTranslator] = []


def language_signals() -> LanguageSignals:
    global _signals
    if _signals is None:
        _signals = LanguageSignals()
    return _signals


def on_language_changed(receiver: QObject, slot: Callable[[], object]) -> None:
    """Call ``slot`` (a method of ``receiver``) after every switch of language, while ``receiver`` lives."""
    # Connected through a QObject child of the receiver: the connection ends when the receiver is deleted.
    relay = _Relay(receiver, slot)
    language_signals().changed.connect(relay.fire)


class _Relay(QObject):
    """Calls a slot without the language argument; a child of the receiver, so it dies with it."""

    def __init__(self, receiver: QObject, slot: Callable[[], object]) -> None:
        super().__init__(receiver)
        self._slot = slot

    def fire(self, _code: str) -> None:
        self._slot()


def qt_translations_dir() -> Path:
    """Where PySide6 keeps Qt's own translations (qtbase_de.qm ...)."""
    return Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))


def _install_qt_translations(language: str) -> None:
    app = QApplication.instance()
    for translator in _qt_translators:
        if app is not None:
            app.removeTranslator(translator)
    _qt_translators.clear()
    QLocale.setDefault(QLocale(language))
    if app is None or language == i18n.DEFAULT_LANGUAGE:
        return
    for name in ("qtbase",):
        translator = QTranslator(app)
        if translator.load(f"{name}_{language}", str(qt_translations_dir())):
            app.installTranslator(translator)
            _qt_translators.append(translator)


def switch_language(code: str | None) -> str:
    """Use language ``code`` (None: English) in the whole window now; return the language used."""
    language = i18n.set_language(code)
    _install_qt_translations(language)
    language_signals().changed.emit(language)
    return language




def translated(target: Any, setter: str, message: Callable[[], str]) -> Any:
    """Set ``target``'s text with ``setter`` to ``message()`` now and again after every switch; return ``target``.

    ``message`` makes the text in the current language (``lambda: _("&File")``). Used where a
    widget is built; texts that depend on state are set again by their owner's ``retranslate()``.
    """
    apply = getattr(target, setter)
    apply(message())
    on_language_changed(target, lambda: getattr(target, setter)(message()))
    return target


def translated_tab(tabs: QTabWidget, page: QWidget, message: Callable[[], str]) -> int:
    """Add ``page`` to ``tabs`` with a title that follows the language; return its index."""
    index = tabs.addTab(page, message())
    on_language_changed(page, lambda: tabs.setTabText(tabs.indexOf(page), message()))
    return index


def translated_item(combo: QComboBox, message: Callable[[], str], data: object = None,
                    icon: QIcon | None = None) -> None:
    """Add an item to ``combo`` whose text follows the language (found again by its data); the combo
    box grows with its words, so a longer language's are not cut."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    if icon is None:
        combo.addItem(message(), data)
    else:
        combo.addItem(icon, message(), data)
    index = combo.count() - 1

    def again() -> None:
        if index < combo.count() and combo.itemData(index) == data:
            combo.setItemText(index, message())
    on_language_changed(combo, again)




def retranslate_model(model: QAbstractItemModel) -> None:
    """Tell a model's views that every heading and cell has new words (models make them as they are asked)."""
    rows = model.rowCount(QModelIndex())
    try:
        columns = model.columnCount(QModelIndex())
    except TypeError:  # a list model keeps columnCount private: it has one column
        columns = 1
    if columns:
        model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, columns - 1)
    if rows and columns:
        model.dataChanged.emit(model.index(0, 0), model.index(rows - 1, columns - 1))


def follow_language(model: QAbstractItemModel) -> None:
    """Repaint ``model``'s headings and cells in the new language after every switch."""
    on_language_changed(model, lambda: retranslate_model(model))


__all__ = ["LanguageSignals", "follow_language", "language_signals", "on_language_changed", "qt_translations_dir",
           "retranslate_model", "switch_language", "translated", "translated_item", "translated_tab"]
