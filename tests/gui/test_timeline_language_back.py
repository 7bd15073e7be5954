"""Switching the language and back keeps the timeline's columns and the detail's room (issue 23, after review69c):
the Outcome column's words of another language were said again only as their rows were painted, so that in the
committed Pydantic AI trace at 1,280 x 800 px, German -> English -> German left the Outcome column 121 px, not the
144 px of "fehlgeschlagen: Zeitüberschreitung" further down, and the split 680 px, not 697, until that row scrolled
into view (then the column and the split jumped back). The pages read say their fitted columns' words again at once.

Real parts: the committed trace imported into the test's run database, the real window offscreen, the real font."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_timeline_columns_steady import _layout

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


def test_switching_the_language_and_back_keeps_the_columns_and_the_details_room(qtbot, runs_tab_showing) -> None:
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, FIXTURES / "pydantic_ai.jsonl").run_ids
    shown = runs_tab_showing(run_id, language="de", size=(1280, 800))
    tab = shown.tab

    def settled() -> tuple[tuple[int, ...], tuple[int, ...]]:
        for _round in range(5):
            qtbot.wait(20)
            QApplication.processEvents()
        return _layout(tab)

    german = settled()
    switch_language("en")
    english = settled()
    assert english != german  # the English words take other room
    switch_language("de")
    assert settled() == german
    tab.timeline_view.scrollToBottom()
    tab.timeline_view.viewport().repaint()
    assert settled() == german  # nothing jumps back as the rows further down are painted
