"""The heading over a run's steps, on the real Traceloop trace (7 of its 14 spans plumbing, hidden): where
the window is too narrow for all of it, the run's title gives way first, then the "(7 plumbing hidden)"
clause, then the end of the counts (their numbers stay: "7 von 14 …", the title all "…"), so that why the
run failed ("2 of 4 tool calls failed") stays whole; the tip and a screen reader keep the whole heading.
At 1400×860 (where the support engineer saw it), 1280×720 and the window's default size, English and
German."""

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

#: Why the run failed, the steps shown without the plumbing and with it, the plumbing clause.
#: Without the plumbing clause the heading still says how many of the run's steps are shown: ", 7 steps"
#: alone read as all the run has (it has 14).
WORDS = {"en": ("2 of 4 tool calls failed, 1 not recorded", "; 7 of 14 steps shown", "; 7 of 14 steps shown",
                " (7 plumbing hidden)"),
         "de": ("2 von 4 Tool-Aufrufen schlugen fehl, 1 nicht erfasst", "; 7 von 14 Schritten", "; 7 von 14 Schritten",
                " (7 Infrastruktur-Spans ausgeblendet)")}


@pytest.mark.parametrize("size", [(1400, 860), (1280, 720), (DEFAULT_SIZE.width(), DEFAULT_SIZE.height())])
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_heading_keeps_why_the_run_failed_and_its_counts(qtbot, make_window, language, size) -> None:
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
        why, brief, counts, plumbing = WORDS[language]
        qtbot.waitUntil(lambda: plumbing in label.text())
        QApplication.processEvents()
        assert save(window, f"runs-heading-why-{language}-{size[0]}x{size[1]}").exists()
        shown = label.shown_text()
        # The reason whole (before, at 1280 px: "(2 vo…)"), then the steps shown with the plumbing, without
        # it, or cut down to their numbers, the title all given way ("Lauf 1: … — "): the German heading
        # said its title whole and left its counts to the tip.
        after = shown.split(f"({why})", 1)[1]
        # (Narrower still, at the window's default size beside the detail, the counts go to the tip too.)
        assert after in (f"{counts}{plumbing}", brief, "") or (
            after.endswith("…") and brief.startswith(after[:-1].rstrip()) and " 14" in after), shown
        if after != f"{counts}{plumbing}":
            assert "invoke_agent support-agent" not in shown, shown
        assert not shown.endswith((", 7 steps", ", 7 Schritte")), shown
        assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()
        assert shown != label.text() and label.toolTip() == label.text()  # all of it in the tip
        assert plumbing in label.toolTip() and why in label.toolTip()
    finally:
        switch_language("en")
