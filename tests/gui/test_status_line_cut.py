"""The status line in German at 1,024 px: after the played run `flaky-server` its words ("0 Vorgänge laufen ·
letzter Lauf 1: Szenario flaky-server — fehlgeschlagen (1 von 4 Tool-Aufrufen schlug fehl; das Modell gab
trotzdem seine Antwort) · Datenbank /tmp/…") are wider than the window, and the label was cut at the window's
edge mid-letter ("Datenbank /t"). It is cut readably now, "…" at its end, what it paints within its width; its
tooltip and accessible name say it whole."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from tests.gui.test_play_tab import play_tab

WHY = "fehlgeschlagen (1 von 4 Tool-Aufrufen schlug fehl; das Modell gab trotzdem seine Antwort)"


def test_the_status_line_is_cut_with_an_ellipsis_never_at_the_windows_edge(qtbot, make_window) -> None:
    window = make_window()
    switch_language("de")
    try:
        window.resize(1024, 768)
        qtbot.waitUntil(lambda: window.width() == 1024)
        room = play_tab(window).room
        assert room.choices.choose("flaky-server")
        run = room.play()
        qtbot.waitUntil(lambda: not run.running, timeout=30000)
        label = window.status
        qtbot.waitUntil(lambda: WHY in label.text(), timeout=10000)
        QApplication.processEvents()
        whole = label.text()
        assert label.fontMetrics().horizontalAdvance(whole) > label.contentsRect().width()  # too long for the line
        # What the label paints (a plain QLabel paints its whole text, which the window's edge cuts).
        shown = label.shown_text() if hasattr(label, "shown_text") else whole
        assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width(), shown
        assert shown.endswith("…") and whole.startswith(shown[:-1]), shown
        assert WHY in shown  # the run's outcome and why come before the database's path, which is cut
        assert label.toolTip() == whole and whole in label.accessibleName()
    finally:
        switch_language("en")
