"""A running call's row says "over" only once its budget is spent. slow-handshake's call showed
"running · 0.1 s over" before "failed: not sent": its 3 s budget is spent on the handshake (initialize
1.6 s, then notifications/initialized granted the whole 2 s it asked for, so it ran about 0.3 s past
the deadline), so the words were true, as the bar says them; this keeps them true."""

from __future__ import annotations

from inspector.gui.play.steps_model import COLUMNS

STATE = COLUMNS.index("state")


def test_a_row_says_over_only_past_its_budget(qtbot, make_window) -> None:
    window = make_window()
    window.resize(1280, 800)
    room = window.play.room
    window.tabs.setCurrentWidget(room)
    assert room.choices.choose("slow-handshake")
    run = room.play()
    assert run is not None
    over = []
    while run.running:
        qtbot.wait(40)
        for index, row in enumerate(run.rows):
            if row.kind == "tool" and row.running:
                elapsed = row.elapsed_s()  # read before the words: they can only be later
                said = room.model.data(room.model.index(index, STATE))
                if said.endswith(" over"):
                    over.append((elapsed, said))
                    assert elapsed > row.bar.budget_s, (elapsed, row.bar.budget_s, said)
    [tool] = [row for row in run.rows if row.kind == "tool"]
    assert tool.state == "failed" and tool.bar.budget_s == 3
    assert over  # the handshake's last leg ran past the deadline, and the row said so
