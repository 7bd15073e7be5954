"""The window's OTLP receiver says in the status bar, beside its state, when another program holds the
run database locked (a sqlite3 shell holding a transaction: the spans received meanwhile are refused
with 503) and, for a while, when it is free again. Before, those sentences went only to the log.

A real receiver in a real window (offscreen), a real SQLite file held by another connection's
``BEGIN IMMEDIATE``, spans sent with httpx; the waits shortened (lock wait, writer wait)."""

from __future__ import annotations

import sqlite3

import httpx
import pytest
from PySide6.QtWidgets import QApplication, QLabel

from inspector.gui.language import switch_language
from inspector.store import resolve_db_path
from tests.gui.test_screenshots import save
from tests.support.receiver_ports import start_receiving

JSON = {"Content-Type": "application/json"}
SPAN = (b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "%032x", "spanId": "%016x", "name": "one",'
        b' "startTimeUnixNano": "1000", "endTimeUnixNano": "2000"}]}]}]}')
WORDS = {
    "en": ("Run database locked by another program", "is locked by another program",
           "Close that program to go on receiving.", "is no longer locked: the spans received are stored again."),
    "de": ("Laufdatenbank von einem anderen Programm gesperrt", "von einem anderen Programm gesperrt",
           "um weiter zu empfangen.", "ist nicht mehr gesperrt: Empfangene Spans werden wieder gespeichert."),
}


def status_bar_words(window) -> str:
    """What the status bar shows: its visible labels and its message."""
    bar = window.statusBar()
    labels = [label.text() for label in bar.findChildren(QLabel) if label.isVisible()]
    return "\n".join([*labels, bar.currentMessage()])


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_locked_run_database_is_said_in_the_status_bar_and_so_is_its_end(qtbot, make_window, language) -> None:
    window = make_window(wait_tools=False)
    window.resize(1400, 860)
    switch_language(language)
    short, locked_words, advice, free_words = WORDS[language]
    switch = window.receiving
    switch.lock_wait_s = 0.3  # the receiver's own wait is a minute
    switch.answer_wait_s = 5.0
    start_receiving(window)
    qtbot.waitUntil(switch.label.isVisible)
    assert httpx.post(switch.url, content=SPAN % (1, 1), headers=JSON, timeout=10).status_code == 200
    assert locked_words not in status_bar_words(window)
    other = sqlite3.connect(str(resolve_db_path()), isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # as a sqlite3 shell holding a transaction
        answer = httpx.post(switch.url, content=SPAN % (2, 2), headers=JSON, timeout=30)
        assert answer.status_code == 503
        qtbot.waitUntil(lambda: short in status_bar_words(window), timeout=10000)
        tip = switch.warning.toolTip()  # the receiver's whole sentence: which database, what to do
        assert locked_words in tip and advice in tip and str(resolve_db_path()) in tip
        assert switch.label.isVisible() and switch.url in switch.label.text()  # the state stays beside it
        qtbot.wait(300)
        # One line: the status bar keeps its height (a wrapped sentence took five lines from the Server log).
        assert window.statusBar().height() <= 2 * switch.label.fontMetrics().height() + 12
        assert switch.warning.shown_text().startswith(short[:20])
        assert save(window, f"receiver-locked-{language}").exists()
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert httpx.post(switch.url, content=SPAN % (3, 3), headers=JSON, timeout=10).status_code == 200
    qtbot.waitUntil(lambda: free_words in status_bar_words(window), timeout=10000)
    assert short not in status_bar_words(window)
    QApplication.processEvents()
    assert save(window, f"receiver-unlocked-{language}").exists()
    switch.stop()
    switch_language("en")
