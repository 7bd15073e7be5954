"""Full garbage collections wait for an idle moment (issue 27): a pass over the window's objects held
the interpreter lock 50-90 ms and froze the live bars. They run when no operation runs and no run
plays, and the window's closing gives collection back as it found it."""

from __future__ import annotations

import gc
import sys
import threading
import types
import weakref

import pytest
from PySide6.QtWidgets import QWidget

from inspector.gui.collection_pacer import OUT_OF_REACH, THAW_EVERY, CollectionPacer


class _Node:
    """A garbage cycle only a full pass frees: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


def _old_garbage() -> weakref.ref:
    """A cycle that lived long enough to reach the oldest generation, then became garbage."""
    node = _Node()
    gc.collect(1)  # the survivors of the young generations move to the oldest
    return weakref.ref(node)


@pytest.fixture
def pacer(qtbot):
    window = QWidget()
    qtbot.addWidget(window)
    busy = [False]
    pacer = CollectionPacer(window, lambda: busy[0])
    pacer.busy = busy
    before = gc.get_threshold()
    pacer.start()
    yield pacer
    pacer.stop()
    assert gc.get_threshold() == before and gc.isenabled()


def test_old_garbage_waits_while_busy_and_goes_at_the_idle_pass(pacer) -> None:
    assert gc.get_threshold()[2] == OUT_OF_REACH and gc.get_freeze_count() > 0
    pacer.busy[0] = True
    gone = _old_garbage()
    churn = [[index] for index in range(200_000)]  # thousands of young passes, none of them full
    del churn
    assert gone() is not None
    assert pacer.collect_if_idle() is False and gone() is not None
    pacer.busy[0] = False
    assert pacer.collect_if_idle() is True
    assert gone() is None


def test_what_was_set_aside_and_died_later_is_freed_at_the_thaw(pacer) -> None:
    kept = [_Node()]
    gone = weakref.ref(kept[0])
    pacer._passes = THAW_EVERY - 3
    assert pacer.collect_if_idle()  # alive: set aside
    kept.clear()
    assert pacer.collect_if_idle() and gone() is not None  # set aside: no pass walks it
    assert pacer.collect_if_idle() and gone() is None  # the thaw: walked once more, and freed


def test_the_window_paces_collection_from_its_first_paint_to_its_closing(make_window, demo_server, qtbot) -> None:
    before = gc.get_threshold()
    window = make_window((demo_server.url, "Demo"))
    qtbot.waitUntil(lambda: window.pacer.active, timeout=5000)
    assert gc.get_threshold() == (before[0], before[1], OUT_OF_REACH)
    assert window.workbench.tools.select_tool("hang")
    task = window.workbench.run_current_tool()
    qtbot.waitUntil(lambda: task.started_at is not None, timeout=10000)
    assert window.pacer.collect_if_idle() is False  # an operation runs
    window.workbench.cancel_current()
    qtbot.waitUntil(lambda: not task.running, timeout=10000)
    assert task.outcome.status == "cancelled"
    assert window.pacer.collect_if_idle() is True
    window.shut_down()
    assert not window.pacer.active and gc.get_threshold() == before and gc.get_freeze_count() == 0
    assert gc.isenabled()


def test_a_pacer_stopped_before_it_started_never_starts(qtbot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    before = gc.get_threshold()
    pacer = CollectionPacer(window, lambda: False)
    pacer.stop()  # the window closed before its first paint
    pacer.start()  # the first paint's hook, late
    assert not pacer.active and gc.get_threshold() == before


def test_every_collection_runs_on_the_gui_thread_while_the_pacer_holds_it(pacer, qtbot) -> None:
    # A pass on a worker thread that frees a cycle holding a Qt object deletes the object off its
    # thread (a test worker died of it). Here a worker makes cycles enough for hundreds of young passes.
    assert not gc.isenabled()
    passes: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "start":
            passes.append(threading.get_ident())

    gc.callbacks.append(seen)
    try:
        made: list[weakref.ref] = []

        def churn() -> None:
            for _ in range(100_000):
                node = _Node()
                made.append(weakref.ref(node))

        worker = threading.Thread(target=churn)
        worker.start()
        worker.join()
        assert passes == [] and all(ref() is not None for ref in made[-10:])  # no thread collected by itself
        qtbot.waitUntil(lambda: made[-1]() is None, timeout=5000)  # the GUI thread's young pass freed them
        assert passes and set(passes) == {threading.get_ident()}
    finally:
        gc.callbacks.remove(seen)


def test_an_import_running_across_the_first_paint_does_not_leave_collection_off(qtbot) -> None:
    # An import turns automatic collection off while it runs (transfer.importing) and back on at its
    # end. One that began before the first paint must not make the pacer think the window found it off.
    window = QWidget()
    qtbot.addWidget(window)
    pacer = CollectionPacer(window, lambda: False)
    gc.disable()  # the import begins
    try:
        pacer.start()  # the first paint
        gc.enable()  # the import ends
        pacer.collect_young()
        assert not gc.isenabled()  # the pacer holds it off again
    finally:
        pacer.stop()
    assert gc.isenabled()


def test_what_a_module_imported_later_brings_is_set_aside_at_the_next_young_pass(pacer) -> None:
    # A module imported after the first paint (the first tool list, the first form) brings objects
    # that live as long as the process; left young, they made the middle generation's next pass one
    # of 19-25 ms in the middle of the first operations' frames.
    module = types.ModuleType("run_inspector_test_late_module")
    exec("\n".join(f"def f{number}(): return {number}" for number in range(3000)), module.__dict__)
    sys.modules[module.__name__] = module
    try:
        frozen = gc.get_freeze_count()
        churn = [[index] for index in range(1000)]  # the young pass is due
        assert pacer.collect_young() == 0
        assert gc.get_freeze_count() >= frozen + 3000
        assert not any(item is module.f1 for item in gc.get_objects(1))
        del churn
        # No new module: the young passes go on as Python's thresholds say, nothing more set aside.
        frozen = gc.get_freeze_count()
        churn = [[index] for index in range(1000)]
        assert pacer.collect_young() in (0, 1)
        assert gc.get_freeze_count() == frozen and len(churn) == 1000
    finally:
        del sys.modules[module.__name__]


def test_the_first_paint_sets_aside_without_a_full_pass_and_its_garbage_goes_at_the_thaw(qtbot) -> None:
    # A full pass at the first paint walked every object of the process on the GUI thread (50-90 ms in
    # the application, 0.13 s for each window a test opened) just as the tools load: what lives then
    # is set aside unwalked, and the little garbage among it is freed when it is walked again.
    window = QWidget()
    qtbot.addWidget(window)
    pacer = CollectionPacer(window, lambda: False)
    gone = _old_garbage()
    passes: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "start":
            passes.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        pacer.start()
    finally:
        gc.callbacks.remove(seen)
    try:
        assert passes == [] and gc.get_freeze_count() > 0
        assert pacer.collect_if_idle() and gone() is not None  # set aside: the idle passes do not walk it
        pacer._passes = THAW_EVERY - 1
        assert pacer.collect_if_idle() and gone() is None  # the thaw walks it once more, and frees it
    finally:
        pacer.stop()
