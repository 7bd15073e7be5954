"""A wrapping row lays its controls out as a QHBoxLayout where it has the room (a stretch added takes
the spare room), and where it wraps, a line's spare room goes to its stretching controls only: a check
box wrapped under two buttons leaves them their widths (they were stretched over the whole line)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QCheckBox, QHBoxLayout, QPushButton, QWidget

from inspector.gui.widgets.wrapping_row import WrappingRow


def _row(qtbot, layout_type) -> tuple[QWidget, list[QWidget]]:
    top = QWidget()
    qtbot.addWidget(top)
    layout = layout_type(top)
    layout.setContentsMargins(0, 0, 0, 0)
    controls = [QPushButton("Subscribe"), QPushButton("Read again"), QCheckBox("Re-read on update")]
    layout.addWidget(controls[0])
    layout.addWidget(controls[1])
    layout.addStretch(1)
    layout.addWidget(controls[2])
    top.show()
    qtbot.waitExposed(top)
    return top, controls


def _geometries(top: QWidget, controls: list[QWidget], width: int) -> list[tuple[int, int, int]]:
    top.resize(width, top.heightForWidth(width) if top.layout().hasHeightForWidth() else top.height())
    QApplication.processEvents()
    return [(control.x(), control.y(), control.width()) for control in controls]


def test_with_room_a_stretch_keeps_the_controls_where_a_box_puts_them(qtbot) -> None:
    wrapping, controls = _row(qtbot, WrappingRow)
    box, boxed = _row(qtbot, QHBoxLayout)
    assert _geometries(wrapping, controls, 600) == _geometries(box, boxed, 600)
    assert controls[0].width() == controls[0].sizeHint().width()  # not stretched
    assert controls[2].geometry().right() == 599  # the check box at the right end


def test_wrapped_the_buttons_keep_their_widths(qtbot) -> None:
    top, controls = _row(qtbot, WrappingRow)
    width = controls[0].sizeHint().width() + controls[1].sizeHint().width() + 40
    geometries = _geometries(top, controls, width)
    assert geometries[2][1] > geometries[0][1] == geometries[1][1] == 0  # the check box under the buttons
    assert [control.width() for control in controls[:2]] == [control.sizeHint().width() for control in controls[:2]]
    # Narrower still: each button alone on its line, as wide as its words, not the line.
    _geometries(top, controls, controls[1].sizeHint().width() + 10)
    assert controls[1].y() > controls[0].y()
    assert [control.width() for control in controls[:2]] == [control.sizeHint().width() for control in controls[:2]]
