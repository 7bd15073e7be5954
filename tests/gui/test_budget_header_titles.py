"""The selected operation's budget bar names it before the numbers. In German its ending ("✗ fehlgeschlagen:
Zeitüberschreitung") leaves the name little room: at the window's first size (1,200 px) "tools/call hang @
Demo server" was cut to "tools/call ha…" where "tools/call hang" fits whole, and at 1,024 px to "to…" with
nothing saying the rest. The operation alone is named where the whole title does not fit, the tool alone where
that does not, and no title where none fits whole: the header's tooltip says it whole."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from tests.gui.test_main_window import choose
from tests.gui.test_server_questions import finish


def test_the_bar_names_the_operation_whole_where_it_fits_and_says_the_rest_in_its_tip(qtbot, make_window,
                                                                                     demo_server) -> None:
    from inspector.gui.language import switch_language

    window = make_window((demo_server.url, "Demo server"), budget_s=2.5)
    window.main.setSizes([230, 970])  # the Servers panel kept at 230 px (else it takes a sixth of the window)
    switch_language("de")
    try:
        choose(window, "hang")
        outcome = finish(qtbot, window.workbench.run_current_tool(), timeout_ms=15000)
        assert outcome.status == "failed"
        bar = window.workbench.operations.detail
        whole = "tools/call hang @ Demo server — 3,0 s von 2,5 s verbraucht"
        ending = "✗ fehlgeschlagen: Zeitüberschreitung"

        def shown(width: int) -> str:
            window.resize(width, 760)
            qtbot.waitUntil(lambda: window.width() == width)
            QApplication.processEvents()
            bar.grab()  # paints: header_shown is what the paint showed
            assert bar.header_shown[1] == ending  # what happened stays whole
            return bar.header_shown[0]

        assert shown(1200) == "tools/call hang — 3,0 s von 2,5 s verbraucht"
        assert bar.tooltip_at(4, 2) == f"{whole}\n{ending}"
        # No cut title where none fits whole: it said "to…" ("tool…" for slow_task), which named nothing.
        assert shown(1024) == "3,0 s von 2,5 s verbraucht"
        assert shown(1100) == "hang — 3,0 s von 2,5 s verbraucht"  # the tool alone, where it fits
        assert bar.tooltip_at(4, 2) == f"{whole}\n{ending}"
        assert shown(1400) == whole  # wide enough: the whole title, and the header's tip is the bar's own again
        assert bar.tooltip_at(4, 2) != f"{whole}\n{ending}"
    finally:
        switch_language("en")
