"""The Qt binding itself: emitting a signal from Python must not drop references it does not own.

PySide6 6.12.0 released one reference to ``True`` per ``emit()``; the window emits on every
leg report and frame, so the process aborted after a few thousand ("deallocating True").
pyproject.toml excludes that release; this test fails on any release that does the same.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    text = Signal(str)
    anything = Signal(object)


def test_emit_keeps_the_reference_counts_of_true_and_none(qapp) -> None:
    emitter = _Emitter()
    emitter.text.connect(lambda value: None)
    emitter.anything.connect(lambda value: None)
    true_before, none_before = sys.getrefcount(True), sys.getrefcount(None)
    for _ in range(200):
        emitter.text.emit("x")
        emitter.anything.emit(None)
    assert sys.getrefcount(True) - true_before > -50
    assert sys.getrefcount(None) - none_before > -50
