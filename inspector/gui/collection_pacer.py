"""When the window's process collects its long-lived garbage: while nothing moves on screen.

A full (oldest-generation) collection walks every object the process holds: after start-up a
quarter of a million (Qt's wrappers, the modules), more with every run. Measured with
``benchmarks/gui_window.py`` (issue 27): one such pass held the interpreter lock 50 to 90 ms, on
whichever thread happened to allocate, and the GUI thread waited: the longest stall of the live
budget bars was that pass. So, from the window's first paint until it closes:

* what lives then is set aside (``gc.freeze``) without a pass over it: later passes never walk it
  again; so is what lives after a module was imported later (see :meth:`CollectionPacer.collect_young`).
  A full pass at the first paint itself held the GUI thread 50-90 ms just as the tools load and the
  Runs tab is built (and 0.13 s for every window a test opened, in a process of twice the
  objects); the little garbage start-up leaves is set aside with the rest and freed at the next thaw;
* automatic full passes are off (the oldest generation's threshold set out of reach); the young
  generations are collected as always (a few milliseconds at most: they are small);
* every :data:`IDLE_CHECK_MS`, when no operation runs and no run plays, one full pass collects
  what has become garbage since, and what survived is set aside in its turn;
* every :data:`THAW_EVERY` idle passes everything set aside is walked once more (garbage that
  became so only after it was set aside is freed then), still only while idle;
* the window's closing gives collection back as it was (tests make many windows in one process).

And every collection runs on the GUI thread. Python collects on whichever thread allocates; a pass
on a worker thread that frees a cycle holding a Qt object deletes that object off its thread, which
can crash the process (it did: a worker of the test suite died with a segmentation fault,
"Garbage-collecting" on the operations' worker while a window closed). So while the pacer holds
collection, automatic collection is off and the young generations are collected by a timer on the
GUI thread (every :data:`YOUNG_CHECK_MS`, as Python's own thresholds would).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget

from .first_paint import AfterFirstPaint

#: How often the pacer looks for an idle moment.
IDLE_CHECK_MS = 5_000
#: The oldest generation's threshold while the pacer holds it: never reached in practice.
OUT_OF_REACH = 1 << 30
#: Every this many idle passes, what was set aside is walked again (about every 10 minutes idle).
THAW_EVERY = 120
#: How often the GUI thread collects the young generations when Python's thresholds say so.
YOUNG_CHECK_MS = 50


class CollectionPacer(QObject):
    """Full collections only while ``busy()`` is false, from ``window``'s first paint (or
    :meth:`start`) to :meth:`stop`; see the module's text."""

    def __init__(self, window: QWidget, busy: Callable[[], bool]) -> None:
        super().__init__(window)
        self._busy = busy
        self._thresholds: tuple[int, int, int] | None = None
        self._stopped = False
        self._passes = 0
        self._modules = 0
        self._timer = QTimer(self)
        self._timer.setInterval(IDLE_CHECK_MS)
        self._timer.timeout.connect(self.collect_if_idle)
        self._young = QTimer(self)
        self._young.setInterval(YOUNG_CHECK_MS)
        self._young.timeout.connect(self.collect_young)
        # As the window found it (an import on a worker turns collection off while it runs: whether
        # it is on when the first paint comes is not what the window found).
        self._was_enabled = gc.isenabled()
        self._after_paint = AfterFirstPaint(window, self.start)

    @property
    def active(self) -> bool:
        return self._thresholds is not None

    def start(self) -> None:
        """Set aside what lives now, without walking it, and take the oldest generation's passes over
        (idempotent; nothing once stopped: a window closed before its first paint leaves collection as
        it was)."""
        if self._thresholds is not None or self._stopped:
            return
        self._thresholds = gc.get_threshold()
        young, middle, _oldest = self._thresholds
        gc.freeze()  # no pass first: see the module's text
        self._modules = len(sys.modules)
        gc.set_threshold(young, middle, OUT_OF_REACH)
        gc.disable()  # no thread collects by itself: collect_young does, on this one
        self._timer.start()
        self._young.start()

    def collect_young(self) -> int | None:
        """The young generations' pass Python would have made by now (on the GUI thread); the
        generation collected, or None.

        A module imported since the last look (the first tool list, the first tool's form) brings
        objects that live as long as the process: its functions, classes and their dictionaries.
        Left in the young generations they made the middle generation's next pass one of 19-25 ms
        (35,000 objects, ``benchmarks/gui_window.py``), in the middle of the first operations'
        frames. So after an import the young pass sets aside what lives, as the first paint did.
        (Waiting with that pass while operations ran was tried: a longer run that allocates a lot,
        a played scenario, then met one far larger pass instead of many small ones.)"""
        if self._thresholds is None:
            return None
        if gc.isenabled():  # turned on again by someone (an import ending): off again
            gc.disable()
        young, middle, _oldest = self._thresholds
        counts = gc.get_count()
        if counts[0] < young:
            return None
        if len(sys.modules) != self._modules:
            self._modules = len(sys.modules)
            gc.collect(0)
            gc.freeze()
            return 0
        generation = 1 if counts[1] >= middle else 0
        gc.collect(generation)
        return generation

    def collect_if_idle(self) -> bool:
        """One full pass, if nothing runs; True when it ran."""
        if self._thresholds is None or self._busy():
            return False
        self._passes += 1
        if self._passes % THAW_EVERY == 0:
            gc.unfreeze()
        gc.collect()
        gc.freeze()
        return True

    def stop(self) -> None:
        """Collection as it was before :meth:`start`; what was set aside is collectable again."""
        self._stopped = True
        if self._thresholds is None:
            return
        self._timer.stop()
        self._young.stop()
        gc.unfreeze()
        gc.set_threshold(*self._thresholds)
        if self._was_enabled:
            gc.enable()
        self._thresholds = None
