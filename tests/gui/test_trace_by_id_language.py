"""File › Open trace by id…: its German note took a line more than the English one it was sized for,
hidden behind a scroll bar when the language was switched with the dialog open; a refused trace id was
said on one line past the dialog's right edge (a sideways scroll bar), and in the language it was
refused in."""

from __future__ import annotations

from PySide6.QtWidgets import QScrollArea

from inspector.gui.dialogs.form_dialog import form_height, form_width
from inspector.gui.language import switch_language
from inspector.gui.runs.trace_by_id import TraceByIdDialog
from tests.gui.test_screenshots import save


def _fits(qtbot, dialog: TraceByIdDialog) -> None:
    qtbot.wait(50)
    scroll = dialog.findChild(QScrollArea)
    assert (dialog.width(), dialog.height()) == (form_width(dialog), form_height(dialog))
    assert scroll.horizontalScrollBar().maximum() == 0 and not scroll.verticalScrollBar().isVisible()


def test_the_dialog_fits_its_words_after_a_switch_of_language(qtbot, make_window) -> None:
    window = make_window(wait_tools=False)
    dialog = TraceByIdDialog(window.team.team, window)
    qtbot.addWidget(dialog)
    dialog.address.setText("http://127.0.0.1:16686/?token=key-5e0c")  # the row saying its query is kept
    dialog.service_query.move()
    dialog.show()
    qtbot.waitExposed(dialog)
    _fits(qtbot, dialog)
    try:
        switch_language("de")
        _fits(qtbot, dialog)
        save(dialog, "open-trace-by-id-switched-de")
    finally:
        switch_language("en")
    _fits(qtbot, dialog)


def test_a_refused_trace_id_is_said_wrapped_and_again_in_a_new_language(qtbot, make_window) -> None:
    window = make_window(wait_tools=False)
    dialog = TraceByIdDialog(window.team.team, window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.trace_id.setText("zz")
    dialog.accept()
    assert dialog.error.isVisibleTo(dialog) and dialog.error.text().startswith("'zz' is not a trace id")
    _fits(qtbot, dialog)
    save(dialog, "open-trace-by-id-refused-en")
    try:
        switch_language("de")
        assert dialog.error.text().startswith("'zz' ist keine Trace-ID")
        _fits(qtbot, dialog)
        save(dialog, "open-trace-by-id-refused-de")
    finally:
        switch_language("en")
