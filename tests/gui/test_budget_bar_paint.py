"""The budget bar keeps what its frames share (fonts, metrics, rectangles, the legs that have ended):
what it keeps must never show a stale picture, and a frame must not make more the longer the history."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtGui import QColor, QFont, QImage, QPalette

from inspector.gui.language import switch_language
from inspector.gui.widgets import budget_bar_paint
from inspector.gui.widgets.budget_bar import BudgetBar
from inspector.gui.widgets.budget_state import BarState, ProgressMark


@pytest.fixture
def back_to_english() -> Iterator[None]:
    yield
    switch_language("en")


def _state(finished_legs: int = 2, marks: int = 0, budget: float = 20) -> BarState:
    state = BarState(budget)
    at = 0.0
    for number in range(finished_legs):
        state.leg_started(f"step {number}", int(budget), at)
        state.leg_finished(f"step {number}", int(budget), 0.05, "ok", 200)
        at += 0.05
    state.leg_started("tools/call", int(budget - at), at)  # what is left of the budget, as a client grants
    for number in range(marks):
        state.add_mark(ProgressMark(at + 0.1 * (number + 1), number + 1, marks, None))
    return state


def _fresh(qtbot, state: BarState, clock: Callable[[], float], size: tuple[int, int], font: QFont | None = None,
           palette: QPalette | None = None) -> QImage:
    """How a bar made just now paints that state: nothing kept from earlier frames."""
    bar = BudgetBar(clock=clock)
    qtbot.addWidget(bar)
    if font is not None:
        bar.setFont(font)
    if palette is not None:
        bar.setPalette(palette)
    bar.resize(*size)
    bar.show_live(state, 100.0)
    return bar.grab().toImage()


def test_a_bar_painted_frame_after_frame_shows_what_a_new_bar_shows(qtbot, back_to_english) -> None:
    now = [101.0]
    clock = lambda: now[0]  # noqa: E731
    bar = BudgetBar(clock=clock)
    qtbot.addWidget(bar)
    bar.resize(700, 44)
    bar.show()
    qtbot.waitExposed(bar)
    state = _state()
    bar.show_live(state, 100.0)
    bar.grab()

    def same(step: str, font: QFont | None = None, palette: QPalette | None = None) -> None:
        kept = bar.grab().toImage()
        assert kept == _fresh(qtbot, state, clock, (bar.width(), bar.height()), font, palette), step

    now[0] = 103.5  # the running leg grew
    same("the clock moved")
    state.leg_finished("tools/call", 19, 3.4, "ok", 200)
    state.leg_started("tools/call (round 2)", 16, 3.5)
    bar.refresh()
    same("a leg ended and another began")
    for number in range(5):
        state.add_mark(ProgressMark(3.6 + number * 0.1, number + 1, 5, None))
    same("progress marks came")
    bar.resize(420, 44)
    same("the bar was narrowed")
    bar.resize(420, 70)
    same("the bar grew taller")  # the legs' places along the track are the same; their rectangles not
    switch_language("de")
    same("the language changed")
    bigger = QFont(bar.font())
    bigger.setPointSizeF(bigger.pointSizeF() * 1.4)
    bar.setFont(bigger)
    bar.resize(420, 80)
    same("the font grew", font=bigger)
    dark = QPalette(bar.palette())
    dark.setColor(QPalette.ColorRole.Window, QColor("#202020"))
    bar.setPalette(dark)
    same("the palette changed", font=bigger, palette=dark)
    state.leg_finished("tools/call (round 2)", 16, 0.4, "cancelled")
    state.finish(3.9, "cancelled")
    bar.refresh()
    same("it was cancelled", font=bigger, palette=dark)


class _Counting:
    """Stands in for a Qt class in the painter's module and counts what is made through it."""

    def __init__(self, cls: type, made: list[str]) -> None:
        self._cls, self._made = cls, made

    def __call__(self, *args: object) -> object:
        self._made.append(self._cls.__name__)
        return self._cls(*args)


def _made_by_one_frame(qtbot, monkeypatch, finished_legs: int) -> list[str]:
    bar = BudgetBar(clock=lambda: 140.0)  # 40 s into 60: the running leg's label fits on it
    qtbot.addWidget(bar)
    bar.resize(900, 44)
    bar.show()
    qtbot.waitExposed(bar)
    bar.show_live(_state(finished_legs, marks=15, budget=60), 100.0)
    bar.grab()
    bar.grab()  # what frames share is made by now
    made: list[str] = []
    with monkeypatch.context() as patch:
        for name in ("QRectF", "QLineF", "QPointF", "QRect", "QFont", "QFontMetricsF", "QPen", "QColor",
                     "QPainterPath"):
            patch.setattr(budget_bar_paint, name, _Counting(getattr(budget_bar_paint, name), made))
        bar.grab()
    return made


def test_a_frame_makes_objects_for_the_running_leg_alone_however_long_the_history(qtbot, monkeypatch) -> None:
    short, long = _made_by_one_frame(qtbot, monkeypatch, 2), _made_by_one_frame(qtbot, monkeypatch, 30)
    assert short == long  # nothing in proportion to the legs that have ended
    # The running leg's rectangle, its grant band, its label's room and the part of the label over
    # the band: nothing else.
    assert short == ["QRectF"] * 4, short
