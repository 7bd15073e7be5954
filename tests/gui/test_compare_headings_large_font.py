"""At 16 points the Compare dialog kept its columns' widths at the usual font: "Round" and "Runde" lost
their first and last letters in 64 pixels (80 needed). Each column is as wide as its heading, in English
and German."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_compare import open_compare
from tests.support.sample_runs import mixed_run


@pytest.mark.parametrize("points", [16], indirect=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_compare_dialogs_headings_are_whole_at_16_points(qtbot, make_window, points, language: str) -> None:
    with RunStore.open(resolve_db_path()) as store:
        first, second = mixed_run(store), mixed_run(store)
    switch_language(language)
    try:
        window = make_window(wait_tools=False)
        window.resize(1300, 820)
        window.tabs.setCurrentWidget(window.runs_tab)
        tab = window.runs_tab
        qtbot.waitUntil(lambda: tab.runs.row_of(second) is not None)
        dialog = open_compare(qtbot, tab, [first, second])
        qtbot.addWidget(dialog)
        view, header = dialog.view, dialog.view.horizontalHeader()
        model = view.model()
        cut = {}
        for column in range(model.columnCount() - 1):  # the last takes the room left
            heading = model.headerData(column, Qt.Orientation.Horizontal)
            if heading and view.columnWidth(column) < header.sectionSizeHint(column):
                cut[heading] = (view.columnWidth(column), header.sectionSizeHint(column))
        assert cut == {}, cut
        dialog.close()
    finally:
        switch_language("en")
