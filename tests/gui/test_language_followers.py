"""What follows the language (a model, a widget, a tab's title, a combo box's item) is held weakly by its
link to the language signal: it goes with its last reference, and a language switch while the cycle
collector frees it never calls it half emptied.

Once the link held its receiver (a lambda in a QObject child of the receiver): every model without a Qt
parent was in a reference cycle that only the cycle collector ended, and that collector empties the
objects of a cycle one by one. A switch meanwhile called a model with no attributes left: a batch of
tests/gui once failed with "'CompareModel' object has no attribute 'comparison'". The witness here is
Python that runs while the collector deletes Qt objects (a ``destroyed`` handler) and switches then."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
import shiboken6
from PySide6.QtCore import SIGNAL, QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QComboBox, QLabel, QTabWidget, QWidget

from inspector import i18n
from inspector.gui.language import (
    language_signals,
    on_language_changed,
    switch_language,
    translated,
    translated_item,
    translated_tab,
)
from inspector.gui.runs.compare_model import CompareModel
from tests.gui.test_compare_replay_block_lines import _many_blocks_runs
from tests.gui.test_runs_compare import open_compare


def connections() -> int:
    """How many links the language signal has."""
    return language_signals().receivers(SIGNAL("changed(QString)"))


def settled_connections() -> int:
    """:func:`connections` once what earlier tests left to the cycle collector is gone (else the
    collection a test makes frees their links too, and the count falls below where it began)."""
    gc.collect()
    return connections()


def links_of(made: list[QObject]) -> list[weakref.ref]:
    """The links to the language signal that ``made`` keep (their relays, Qt children of theirs)."""
    return [weakref.ref(child) for follower in made for child in follower.findChildren(QObject)
            if type(child).__name__ == "_Relay"]


def gone(links: list[weakref.ref]) -> bool:
    return all(link() is None or not shiboken6.isValid(link()) for link in links)


@pytest.fixture
def english() -> Iterator[None]:
    switch_language("en")
    yield
    switch_language("en")


class Panel(QWidget):
    """A widget that says its words again in a method of its own, from its attributes."""

    def __init__(self, calls: list[str]) -> None:
        super().__init__()
        on_language_changed(self, self.retranslate)
        self.calls = calls
        self.words = "Run"

    def retranslate(self) -> None:
        self.calls.append(self.words)  # an AttributeError here, once emptied


class Holder:
    """Keeps the followers and the witness in one reference cycle."""


def in_a_cycle(made: list[QObject]) -> Holder:
    """``made`` and a holder that each of them holds: only the cycle collector frees them."""
    holder = Holder()
    holder.followers = made
    for follower in made:
        follower.holder = holder
    return holder


def followers(calls: list[str]) -> list[QObject]:
    model = CompareModel()
    label = translated(QLabel(), "setText", lambda: i18n._("Close"))
    combo = QComboBox()
    translated_item(combo, lambda: i18n._("Close"), "close")
    tabs = QTabWidget()
    translated_tab(tabs, QWidget(), lambda: i18n._("Close"))
    return [model, label, combo, tabs, Panel(calls)]


@pytest.mark.parametrize("witness_of", [None, 0, 1, 2, 3, 4])
def test_a_switch_while_the_collector_frees_followers_calls_none_of_them(qtbot, english, witness_of) -> None:
    calls: list[str] = []
    before = settled_connections()
    holder = in_a_cycle(followers(calls))
    links = links_of(holder.followers)
    assert len(links) >= len(holder.followers)
    # In the cycle too, or a Qt child of one of them: deleted part-way through the collection, it
    # switches then.
    witness = QObject(None if witness_of is None else holder.followers[witness_of])
    if witness_of is None:
        holder.witness = witness
    switched: list[str] = []
    witness.destroyed.connect(lambda *_args: switched.append(switch_language("de")))
    assert connections() > before
    del holder, witness
    gc.collect()  # an exception in a follower's slot fails the test (pytest-qt)
    assert switched == ["de"] and i18n.current_language() == "de"  # the switch came mid-collection
    assert calls == []  # none of the followers was called on its way out
    # Their own links went with them. (Not the signal's count: a switch also reaches what earlier tests
    # left alive, which may link anew, so the count is the whole process's, not these followers'.)
    assert gone(links)
    switch_language("en")
    assert calls == []


def test_a_switch_while_the_collector_frees_a_compare_model_leaves_it_alone(qtbot, english) -> None:
    """The failure once seen: the Compare view's model called with its attributes emptied."""
    holder = in_a_cycle([CompareModel()])
    holder.witness = QObject()
    holder.witness.destroyed.connect(lambda *_args: switch_language("de"))
    del holder
    gc.collect()  # "'CompareModel' object has no attribute 'comparison'", raised in its slot, failed it
    assert i18n.current_language() == "de"


def test_a_follower_goes_with_its_last_reference_and_its_link_with_it(qtbot, english) -> None:
    calls: list[str] = []
    before = settled_connections()
    made = followers(calls)
    gone = [weakref.ref(follower) for follower in made]
    gc.disable()  # no collector: references alone
    try:
        del made
        assert [follower() for follower in gone] == [None] * len(gone)
    finally:
        gc.enable()
    assert connections() == before
    switch_language("de")
    assert calls == []


def test_a_living_follower_follows_the_language(qtbot, english) -> None:
    calls: list[str] = []
    model, label, combo, tabs, panel = followers(calls)
    switch_language("de")
    assert label.text() == combo.itemText(0) == tabs.tabText(0) == "Schließen"
    assert calls == ["Run"]
    assert model.headerData(1, Qt.Orientation.Horizontal) == "Runde"
    switch_language("en")
    assert label.text() == combo.itemText(0) == tabs.tabText(0) == "Close"
    assert calls == ["Run", "Run"]


def test_a_function_that_holds_its_receiver_is_refused(qtbot) -> None:
    label = QLabel()
    with pytest.raises(TypeError, match="pass a method"):
        on_language_changed(label, lambda: label.setText(i18n._("Close")))


def test_a_closed_compare_dialog_takes_its_model_and_links_with_it(qtbot, make_window, tmp_path) -> None:
    first, second = _many_blocks_runs(tmp_path)
    window = make_window(wait_tools=False)
    dialog = open_compare(qtbot, window.runs_tab, [first, second])
    dialog.view.selectRow(0)
    model = weakref.ref(dialog.model)
    with_dialog = connections()
    dialog.close()  # deleted on close: the window's collector is paced, and frozen objects wait
    del dialog
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert model() is None
    assert connections() < with_dialog
    switch_language("de")
    switch_language("en")


def test_one_of_qts_own_methods_of_the_receiver_is_held_by_name(qtbot, english) -> None:
    label = QLabel()
    label.setText("stays")
    on_language_changed(label, label.clear)  # a built-in method: no WeakMethod for it
    gone = weakref.ref(label)
    switch_language("de")
    assert label.text() == ""
    gc.disable()
    try:
        del label
        assert gone() is None
    finally:
        gc.enable()
