"""The heading over a run's steps, on the real Traceloop trace (7 of its 14 spans plumbing, hidden): where
the window is too narrow for all of it, the "(7 plumbing hidden)" clause gives way first, then the counts,
then why the run failed is shortened: the run's number, title and status stay whole (at 1,280 px the German
heading of a played run had read "Lauf 2: … — fehlgeschlagen (…), 9 Sc…"); the tip and a screen reader keep
the whole heading. At 1400×860 (where the support engineer saw it), 1280×720 and the window's default size,
English and German."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.main_window import DEFAULT_SIZE
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_screenshots import save

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"

#: The heading's start that stays whole, why the run failed, the steps shown, the plumbing clause.
WORDS = {"en": ("Run 1: invoke_agent support-agent — failed (", "2 of 4 tool calls failed, 1 not recorded",
                "; 7 of 14 steps shown", " (7 plumbing hidden)"),
         "de": ("Lauf 1: invoke_agent support-agent — fehlgeschlagen (",
                "2 von 4 Tool-Aufrufen schlugen fehl, 1 nicht erfasst", "; 7 von 14 Schritten",
                " (7 Infrastruktur-Spans ausgeblendet)")}


def said_in_order(label, head: str, why: str, counts: str, plumbing: str) -> str:
    """What ``label`` shows of its heading, checked: ``head`` (the run's number, title and status) whole, and
    where it is cut, the ``plumbing`` clause given way first, then the ``counts``, then ``why`` shortened;
    the tip has all of it."""
    shown = label.shown_text()
    assert shown.startswith(head), shown
    assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()
    assert label.toolTip() == (label.text() if label.is_cut() else ""), shown
    if plumbing in shown:
        assert counts in shown, shown
    if counts in shown:
        assert f"({why})" in shown, shown
    if f"({why})" not in shown:
        assert shown.endswith("…)") and counts not in shown, shown
    return shown


@pytest.mark.parametrize("size", [(1400, 860), (1280, 720), (DEFAULT_SIZE.width(), DEFAULT_SIZE.height())])
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_heading_keeps_the_run_and_why_it_failed(qtbot, make_window, language, size) -> None:
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = [run for run in import_trace(store, FIXTURES / "traceloop.jsonl").run_ids
                     if store.get_run(run).title == "invoke_agent support-agent"]
    window = make_window(wait_tools=False)
    window.resize(*size)
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None)
    switch_language(language)
    try:
        tab.select_runs([run_id])
        label = tab.timeline_pane.heading
        head, why, counts, plumbing = WORDS[language]
        qtbot.waitUntil(lambda: plumbing in label.text())
        QApplication.processEvents()
        assert save(window, f"runs-heading-why-{language}-{size[0]}x{size[1]}").exists()
        said_in_order(label, head, why, counts, plumbing)
        # None of these widths has room for all of it: the tip has it.
        assert label.is_cut() and plumbing in label.toolTip() and why in label.toolTip()
    finally:
        switch_language("en")
