"""The window's language: one app-wide ``changed`` signal, and what a switch does.

:func:`switch_language` loads our catalogue and Qt's own (the standard buttons' "OK", "Cancel"),
then emits :attr:`LanguageSignals.changed`. Every widget and model that shows words connects its
``retranslate()`` to it with :func:`on_language_changed` and sets its texts again there, and
reformats its dates, durations and numbers; nothing needs a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import CellType, MethodType
from typing import Any
from weakref import WeakMethod, ref

from PySide6.QtCore import (
    QAbstractItemModel,
    QLibraryInfo,
    QLocale,
    QModelIndex,
    QObject,
    Qt,
    QTranslator,
    Signal,
    Slot,
)
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QComboBox, QTabWidget, QWidget
from shiboken6 import isValid

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
    """Call ``slot`` after every switch of language, while ``receiver`` lives.

    ``slot`` is a method (of ``receiver`` or of the object that made it: held weakly, never called once
    that object is gone) or a function that holds neither (a lambda that holds ``receiver`` is refused:
    it would keep the receiver alive in a cycle that only the cycle collector ends, see :class:`_Relay`).
    """
    if isinstance(slot, MethodType):
        method = WeakMethod(slot)
        call_on_language_change(receiver, lambda _receiver: _call_if_alive(method))
        return
    if getattr(slot, "__self__", None) is receiver:  # one of Qt's own methods of the receiver (update)
        name = slot.__name__
        call_on_language_change(receiver, lambda again: getattr(again, name)())
        return
    if any(_holds(cell, receiver) for cell in getattr(slot, "__closure__", None) or ()):
        raise TypeError("on_language_changed: pass a method, not a function that holds the receiver")
    call_on_language_change(receiver, lambda _receiver: slot())


def _holds(cell: CellType, receiver: QObject) -> bool:
    try:
        return cell.cell_contents is receiver
    except ValueError:  # a cell not filled yet
        return False


def _call_if_alive(method: WeakMethod) -> None:
    bound = method()
    if bound is not None and isValid(bound.__self__):
        bound()


def call_on_language_change(receiver: QObject, call: Callable[[Any], object]) -> None:
    """Call ``call(receiver)`` after every switch of language while ``receiver`` lives; ``call`` gets the
    receiver each time, so it need not (and must not) hold it."""
    _Relay(receiver, call)


class _Relay(QObject):
    """Calls ``call(receiver)`` after every switch of language; a child of the receiver, so it and its
    connection end when the receiver's Qt object is deleted.

    It holds the receiver weakly. Held strongly (the relay is the receiver's child and its slot held the
    receiver), every receiver without a Qt parent (a model) was in a reference cycle, freed only by the
    cycle collector; that collector empties each object's attributes one by one, and a switch of
    language meanwhile (Python that runs while it deletes Qt objects) called a model whose attributes
    were gone: "'CompareModel' object has no attribute 'comparison'". A weak reference is cleared before
    the collector empties anything: a receiver on its way out is never called."""

    def __init__(self, receiver: QObject, call: Callable[[Any], object]) -> None:
        super().__init__(receiver)
        self._receiver = ref(receiver)
        self._call = call
        language_signals().changed.connect(self.fire)

    @Slot(str)
    def fire(self, _code: str) -> None:
        held = getattr(self, "_receiver", None)  # None: emptied by the collector, on its way out too
        receiver = held() if held is not None else None
        if receiver is not None and isValid(receiver):
            self._call(receiver)


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
    getattr(target, setter)(message())
    call_on_language_change(target, lambda again: getattr(again, setter)(message()))
    return target


def translated_tab(tabs: QTabWidget, page: QWidget, message: Callable[[], str]) -> int:
    """Add ``page`` to ``tabs`` with a title that follows the language; return its index."""
    index = tabs.addTab(page, message())
    tab_title_follows(tabs, page, message)
    return index


def tab_title_follows(tabs: QTabWidget, page: QWidget, message: Callable[[], str]) -> None:
    """Title ``page``'s tab in ``tabs`` (added already) with ``message()`` again after every switch."""
    held = ref(tabs)

    def again(shown: QWidget) -> None:
        holder = held()
        if holder is not None and isValid(holder):
            holder.setTabText(holder.indexOf(shown), message())
    call_on_language_change(page, again)


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

    def again(box: QComboBox) -> None:
        if index < box.count() and box.itemData(index) == data:
            box.setItemText(index, message())
    call_on_language_change(combo, again)




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
    call_on_language_change(model, retranslate_model)


__all__ = ["LanguageSignals", "call_on_language_change", "follow_language", "language_signals", "on_language_changed",
           "qt_translations_dir", "retranslate_model", "switch_language", "tab_title_follows", "translated",
           "translated_item", "translated_tab"]
