"""The outcome vocabulary reads and stays apart: words at 4.5:1 or more on what they are drawn on
(light and dark palettes), and ok / failed / timed out / tool error / cancelled bars told apart in
greyscale by lightness or pattern. The colours are sampled from what the real widgets paint
offscreen, converted to greyscale as Qt converts a screenshot (Format_Grayscale8)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QTableView

from inspector.gui.runs.runs_model import RunListModel
from inspector.gui.runs.timeline_model import OUTCOME_COLUMN, TimelineModel, WaterfallRole
from inspector.gui.runs.waterfall import WaterfallDelegate, bar_extent
from inspector.gui.widgets import budget_bar_paint
from inspector.gui.widgets.budget_bar import BudgetBar
from inspector.gui.widgets.hints import contrast_ratio
from inspector.gui.widgets.mini_bar import Span, paint_spans
from inspector.gui.widgets.outcome_colours import label_colour, text_colour
from inspector.gui.widgets.outcomes import outcome_icon
from inspector.gui.workbench.operation_delegate import SELECTED, selected_tint
from inspector.gui.workbench.operation_task import OperationOutcome, OperationTask
from inspector.gui.workbench.operations_list import OperationsList
from inspector.mcp import ServerEndpoint
from inspector.store import RunStore
from tests.support.sample_runs import mixed_run

#: Two fills told apart by lightness alone differ by at least this many of Grayscale8's 256 levels.
LIGHTNESS_APART = 40
#: A hatched bar's stripes and ground differ by at least this many levels.
PATTERN_APART = 60
WORD_CONTRAST = 4.5

LIGHT = {"base": QColor("#FFFFFF"), "window": QColor("#EFEFEF"), "selected row": SELECTED}
DARK = {"dark base": QColor("#2A2A2A"), "dark window": QColor("#353535"), "black": QColor("#000000")}
WORDS = ("ok", "failed", "timed_out", "refused", "tool_error", "cancelled", "running", "interrupted")


def grey(image: QImage) -> QImage:
    return image.convertToFormat(QImage.Format.Format_Grayscale8)


def levels(image: QImage, rect: QRect) -> set[int]:
    """The grey levels inside ``rect`` of a greyscale image."""
    return {image.pixelColor(x, y).red() for x in range(rect.left(), rect.right() + 1)
            for y in range(rect.top(), rect.bottom() + 1)}


def level(image: QImage, rect: QRect) -> int:
    """The one grey level of a solid area (fails when it is not solid)."""
    found = levels(image, rect)
    assert len(found) == 1, f"not one solid grey in {rect}: {sorted(found)}"
    return found.pop()


def strongest(image: QImage, rect: QRect, background: QColor) -> tuple[float, QColor]:
    """The pixel of ``rect`` that stands out most from ``background`` (a glyph's core), and its contrast."""
    best = (1.0, background)
    for x in range(rect.left(), rect.right() + 1):
        for y in range(rect.top(), rect.bottom() + 1):
            colour = image.pixelColor(x, y)
            ratio = contrast_ratio(colour, background)
            if ratio > best[0]:
                best = (ratio, colour)
    return best


def hue_family(colour: QColor, outcome: str) -> bool:
    """The word is drawn in its outcome's hue (green, orange, blue), not in a plain grey."""
    hue = colour.hsvHue()
    return {"ok": 140 <= hue <= 175, "failed": 15 <= hue <= 35, "cancelled": 190 <= hue <= 215}[outcome]


# -- words ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("background", [*LIGHT, *DARK])
def test_every_outcome_word_reaches_4_5_to_1_on_light_and_dark_backgrounds(qapp, background) -> None:
    colour = {**LIGHT, **DARK}[background]
    for outcome in WORDS:
        word = text_colour(outcome, colour)
        assert contrast_ratio(word, colour) >= WORD_CONTRAST, (outcome, word.name(), background)
    # Still the vocabulary's hues, only darker or lighter.
    for outcome in ("ok", "failed", "cancelled"):
        assert hue_family(text_colour(outcome, colour), outcome), (outcome, background)


def test_a_label_on_a_bar_reaches_4_5_to_1_on_its_fill() -> None:
    for kind, fills in budget_bar_paint._FILLS.items():
        for fill, label in zip(fills, budget_bar_paint._LABELS[kind], strict=True):
            assert contrast_ratio(label, fill) >= WORD_CONTRAST, (kind, fill.name(), label.name())
    assert label_colour(QColor("#009E73")) != QColor("white")  # white on Okabe-Ito green is 3.4:1


@pytest.fixture
def store(tmp_path: Path, qapp) -> Iterator[RunStore]:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def test_the_runs_tabs_outcome_words_reach_4_5_to_1(qtbot, store: RunStore) -> None:
    """The timeline and the run list as the Runs tab shows them (the real models in table views)."""
    run_id = mixed_run(store)
    timeline = TimelineModel(store)
    timeline.set_run(store.get_run(run_id))
    runs = RunListModel(store)
    runs.refresh()
    for model, column, rows in ((timeline, OUTCOME_COLUMN, {1: "ok", 2: "failed", 4: "cancelled"}),
                                (runs, 3, {0: "cancelled"})):
        view = QTableView()
        qtbot.addWidget(view)
        view.setModel(model)
        view.resize(1200, 300)
        view.setColumnWidth(column, 160)
        view.show()
        qtbot.waitExposed(view)
        image = view.viewport().grab().toImage()
        base = view.palette().color(QPalette.ColorRole.Base)
        for row, outcome in rows.items():
            cell = view.visualRect(model.index(row, column)).adjusted(24, 2, -2, -2)  # the word, past the icon
            ratio, colour = strongest(image, cell, base)
            assert ratio >= WORD_CONTRAST, (type(model).__name__, outcome, colour.name(), round(ratio, 2))
            assert hue_family(colour, outcome), (outcome, colour.name())
        # A selected row's icon (the mark beside the word) stands out from the selection too.
        highlight = view.palette().color(QPalette.ColorRole.Highlight)
        for row, outcome in rows.items():
            view.selectRow(row)
            QApplication.processEvents()
            image = view.viewport().grab().toImage()
            icon = view.visualRect(model.index(row, column)).adjusted(2, 2, 0, -2)
            icon.setWidth(20)
            ratio, colour = strongest(image, icon, highlight)
            assert ratio >= 3.0, (type(model).__name__, outcome, colour.name(), round(ratio, 2))


def finished_task(number: int, ending: str, spent: float = 0.4) -> OperationTask:
    """An operation of one tools/call leg that ended ``ending`` after ``spent`` seconds (a time-out at its grant)."""
    task = OperationTask(number, "call", f"tools/call t{number}", ServerEndpoint("http://127.0.0.1:9/mcp"), 20.0)
    outcome = {"timed_out": "failed"}.get(ending, ending)
    spent = 20.0 if ending == "timed_out" else spent
    task.state.leg_started("tools/call", 20, 0.0)
    task.state.leg_finished("tools/call", 20, spent, outcome, 200,
                            error_kind="timed_out" if ending == "timed_out" else None)
    task.state.finish(spent, ending)
    task.outcome = OperationOutcome(None, None)
    return task


@pytest.mark.parametrize("palette", ["light", "dark"])
def test_the_operations_list_says_each_ending_at_4_5_to_1_selected_or_not(qtbot, palette) -> None:
    operations = OperationsList()
    qtbot.addWidget(operations)
    if palette == "dark":
        dark = QPalette(operations.palette())
        for role, colour in ((QPalette.ColorRole.Base, "#2A2A2A"), (QPalette.ColorRole.Text, "#F0F0F0"),
                             (QPalette.ColorRole.Window, "#353535"), (QPalette.ColorRole.WindowText, "#F0F0F0")):
            dark.setColor(role, QColor(colour))
        operations.setPalette(dark)
    operations.resize(900, 300)
    endings = ("ok", "failed", "timed_out", "cancelled")
    tasks = {ending: finished_task(number, ending) for number, ending in enumerate(endings)}
    for task in tasks.values():
        operations.add(task)
    operations.show()
    qtbot.waitExposed(operations)
    base = operations.view.palette().color(QPalette.ColorRole.Base)
    highlight = operations.view.palette().color(QPalette.ColorRole.Highlight)
    for selected in (False, True):
        for ending, task in tasks.items():
            row = operations.row_for(task)
            if selected:
                operations.select(task)
            QApplication.processEvents()
            image = operations.view.viewport().grab().toImage()
            rect = operations.view.visualRect(row.index)
            parts = operations.delegate.parts(rect, operations.view.fontMetrics())
            state = parts.state.united(parts.cancel)
            background = selected_tint(base, highlight) if selected else base
            ratio, colour = strongest(image, state.adjusted(0, 2, 0, -2), background)
            assert ratio >= WORD_CONTRAST, (ending, selected, colour.name(), round(ratio, 2))
            assert hue_family(colour, "failed" if ending == "timed_out" else ending), (ending, colour.name())
            # The title beside it reads on the selection too (a light tint hid a dark palette's light text).
            ratio, colour = strongest(image, parts.title.adjusted(0, 2, 0, -2), background)
            assert ratio >= WORD_CONTRAST, ("title", ending, selected, colour.name(), round(ratio, 2))
    # The selected operation's full bar: its numbers, deadline and ending read on the window.
    detail = operations.detail
    qtbot.waitUntil(detail.isVisible)
    image = detail.grab().toImage()
    window = detail.palette().color(QPalette.ColorRole.Window)
    header = bar_header_px(detail)
    for part in (QRect(0, 0, detail.width() // 2, header), QRect(detail.width() // 2, 0, detail.width() // 2, header)):
        ratio, colour = strongest(image, part, window)
        assert ratio >= WORD_CONTRAST, (palette, part, colour.name(), round(ratio, 2))


def bar_header_px(bar: BudgetBar) -> int:
    """The height of a budget bar's header line (the numbers at the left, the ending at the right)."""
    return bar.fontMetrics().height()


def test_the_budget_bars_ending_reaches_4_5_to_1_on_the_window(qtbot) -> None:
    for ending in ("ok", "failed", "timed_out", "cancelled"):
        bar = BudgetBar()
        qtbot.addWidget(bar)
        bar.resize(600, 60)
        bar.show_live(finished_task(0, ending).state, 100.0)
        image = bar.grab().toImage()
        window = bar.palette().color(QPalette.ColorRole.Window)
        header = QRect(bar.width() // 2, 0, bar.width() // 2, bar_header_px(bar))
        ratio, colour = strongest(image, header, window)
        assert ratio >= WORD_CONTRAST, (ending, colour.name(), round(ratio, 2))


def test_the_outcome_icons_stand_out_from_the_list_they_are_in(qapp) -> None:
    base = QApplication.palette().color(QPalette.ColorRole.Base)
    for outcome in ("ok", "failed", "cancelled"):
        image = outcome_icon(outcome).pixmap(16, 16).toImage()
        flat = QImage(image.size(), QImage.Format.Format_RGB32)
        flat.fill(base)
        painter = QPainter(flat)
        painter.drawImage(0, 0, image)
        painter.end()
        ratio, _colour = strongest(flat, flat.rect(), base)
        assert ratio >= 3.0, outcome  # WCAG's 3:1 for a graphic that carries meaning


# -- bars in greyscale ------------------------------------------------------------------------------


def assert_apart(found: dict[str, int | str]) -> None:
    """ok, failed and timed out apart by lightness; cancelled by its pattern."""
    assert found["cancelled"] == "hatched", found
    for one, other in (("ok", "failed"), ("ok", "timed_out")):
        assert abs(found[one] - found[other]) >= LIGHTNESS_APART, found


def test_waterfall_bars_are_told_apart_in_greyscale(qtbot) -> None:
    outcomes = ("ok", "failed", "cancelled", "ok", "failed")
    model = QStandardItemModel(len(outcomes), 1)
    for row, outcome in enumerate(outcomes):
        item = QStandardItem()
        item.setData((row * 1.0, 4.0, outcome, 10.0), WaterfallRole)
        model.setItem(row, 0, item)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.setItemDelegate(WaterfallDelegate(view))
    view.setColumnWidth(0, 300)
    view.verticalHeader().setDefaultSectionSize(20)
    view.resize(360, 200)
    view.show()
    qtbot.waitExposed(view)
    image = grey(view.viewport().grab().toImage())
    found: dict[str, int | str] = {}
    for row, outcome in enumerate(outcomes[:3]):
        cell = QRectF(view.visualRect(model.index(row, 0))).adjusted(4, 4, -4, -4)
        x, width = bar_extent(row * 1.0, 4.0, 10.0, cell.width())
        inner = QRect(int(cell.left() + x) + 2, int(cell.top()) + 2, int(width) - 4, int(cell.height()) - 4)
        if outcome == "cancelled":
            shades = levels(image, inner)
            assert max(shades) - min(shades) >= PATTERN_APART, sorted(shades)
            found[outcome] = "hatched"
        else:
            found[outcome] = level(image, inner)
    found["timed_out"] = found["failed"]  # a step's bar knows failed; the time-out is in its words
    assert_apart(found)


def test_mini_bars_are_told_apart_in_greyscale(qapp) -> None:
    kinds = ("ok", "failed", "timed_out", "cancelled")
    image = QImage(420, 14, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    legs = [Span(kind, 2 + number * 100, 90) for number, kind in enumerate(kinds)]
    paint_spans(painter, QRectF(0, 0, 420, 14), 400, legs)
    painter.end()
    image = grey(image)
    found: dict[str, int | str] = {}
    for number, kind in enumerate(kinds):
        inner = QRect(2 + number * 100 + 4, 3, 70, 8)
        if kind == "cancelled":
            shades = levels(image, inner)
            assert max(shades) - min(shades) >= PATTERN_APART, sorted(shades)
            found[kind] = "hatched"
        else:
            found[kind] = level(image, inner)
    assert_apart(found)
    # A time-out ends at a dark wall (its grant); a failed leg does not.
    wall = QRect(1 + 2 + 200 + 90 - 2, 3, 2, 8)  # the track starts 1 px in
    assert max(levels(image, wall)) < 40


def test_the_budget_bars_legs_are_told_apart_in_greyscale(qtbot) -> None:
    found: dict[str, int | str] = {}
    for ending in ("ok", "failed", "timed_out", "cancelled"):
        bar = BudgetBar()
        qtbot.addWidget(bar)
        bar.resize(600, 60)
        bar.show_live(finished_task(0, ending, spent=8.0).state, 100.0)
        image = grey(bar.grab().toImage())
        track = bar._track_rect()
        if ending == "cancelled":
            # Its right part, short of the end mark: the stripes (the label sits on solid colour at its left).
            leg_right = track.left() + bar.current_geometry().segments[0].x + bar.current_geometry().segments[0].width
            shades = levels(image, QRect(int(leg_right) - 60, int(track.top()) + 2, 30, int(track.height()) - 4))
            assert max(shades) - min(shades) >= PATTERN_APART, sorted(shades)
            found[ending] = "hatched"
        else:
            # The leg's first pixels, above its label: its fill.
            found[ending] = level(image, QRect(int(track.left()) + 3, int(track.top()) + 2, 30, 2))
    assert_apart(found)


def test_a_tool_error_is_drawn_as_failed(qapp) -> None:
    # A tool error is a failed operation (the server answered); its words say which failure.
    assert text_colour("tool_error", QColor("white")) == text_colour("failed", QColor("white"))
