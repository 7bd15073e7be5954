"""The Runs tab's timeline for a played ``flaky-server`` run at 1,024, 1,280 and 1,600 px, English and German,
measured with the real widgets' font metrics. The heading keeps the run's number, title and status whole, then
why it failed, then its step count: at 1,280 px the German one read "Lauf 2: … — fehlgeschlagen (1 von 4
Tool-Aufrufen …), 9 Sc…", its title given away. Beside the step detail (which keeps its least width where the
timeline needs the room) the Details column says the failed call's reason: it was 157 px at 1,280 px German
("flaky: Aufruf 2 ist fehlg…") beside a 361-px detail, then 178 px ("flaky: Aufruf 2 ist fehlgesc…") beside a 340-px
one, held so wide by its buttons' row (Note… has moved beside Replay: the names of its tabs are its least width now);
the reason is whole at 1,280 px in both languages. The waterfall's axis and the Outcome words keep theirs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from tests.gui.test_flaky_reason_first import WORDS, shown
from tests.gui.test_screenshots import save

#: The heading's start that stays whole at every width, and the status word the Outcome column shows whole.
HEADS = {"en": ("Run {id}: scenario flaky-server — failed", "failed"),
         "de": ("Lauf {id}: Szenario flaky-server — fehlgeschlagen", "fehlgeschlagen")}


def test_the_timeline_keeps_the_title_and_room_for_the_reason(qtbot, make_window, play_demo_process) -> None:
    window = make_window()
    room, tab = window.play.room, window.runs_tab
    try:
        for language in ("en", "de"):
            switch_language(language)
            window.tabs.setCurrentWidget(room)
            assert room.choices.choose("flaky-server")
            run = room.play()
            assert run is not None
            qtbot.waitUntil(lambda run=run: run.run_id is not None and not run.running, timeout=30000)
            room.runs_button.click()
            qtbot.waitUntil(lambda run=run: tab.current_run() is not None and tab.current_run().id == run.run_id
                            and tab.timeline.rowCount() == len(run.rows))
            head, word = HEADS[language]
            head = head.format(id=run.run_id)
            reason = WORDS[language][0]
            view, heading = tab.timeline_view, tab.run_heading
            details = tab.timeline.index(3, COLUMNS.index("details"))
            outcome = tab.timeline.index(3, COLUMNS.index("outcome"))
            for width in (1024, 1280, 1600):
                tab.arrangement.user_split = False  # the panes follow the window, as they do until a drag
                window.resize(width, 800)
                QApplication.processEvents()
                said = heading.shown_text()
                # Which run and how it ended, whole; why after it; all of it in the tip where it is cut.
                assert said.startswith(f"{head} ("), (width, said)
                assert heading.fontMetrics().horizontalAdvance(said) <= heading.contentsRect().width()
                assert heading.toolTip() == (heading.text() if heading.is_cut() else "")
                if heading.is_cut():  # the count goes before the reason is shortened
                    assert not said.endswith(("steps", "Schritte")), said
                cell = shown(view, details)
                assert details.data().startswith(reason)
                if width >= 1280:  # beside the detail, the reason whole (German: "flaky: Aufruf 2 ist fehlgeschlagen")
                    assert tab.lower.orientation() == Qt.Orientation.Horizontal
                    assert cell.startswith(reason), (width, cell)
                    # The detail is no wider than the names of its tabs need (its buttons' row held it 20 px wider).
                    margins = tab.detail.layout().contentsMargins()
                    assert tab.detail.minimumSizeHint().width() == (tab.detail.tabs.minimumSizeHint().width()
                                                                    + margins.left() + margins.right())
                # The waterfall keeps its axis' room; the Outcome column its word, whole.
                assert view.columnWidth(COLUMNS.index("waterfall")) >= 100
                assert view.fontMetrics().horizontalAdvance(word) + 24 <= view.columnWidth(outcome.column())
                save(window, f"timeline-room-{language}-{width}")
    finally:
        switch_language("en")
