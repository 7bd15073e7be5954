"""The Play tab's first words after Play, in front of an audience: with no server chosen a fresh demo
server starts first, and the state line says so at once. It said "The run: playing, 0 steps so far" for
a moment and then "Starting a fresh demo server for the run…" (a line that changed its words twice
before anything happened; German alike)."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language

STARTING = {"en": "Starting a fresh demo server for the run…", "de": "Ein frischer Demo-Server für den Lauf startet…"}
NOTHING_YET = {"en": "The run: playing, 0 steps so far", "de": "Der Lauf: läuft, bisher 0 Schritte"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_fresh_demo_server_starting_is_the_first_thing_said(qtbot, make_window, language) -> None:
    window = make_window()
    room = window.play.room
    window.tabs.setCurrentWidget(room)
    switch_language(language)
    try:
        assert room.choices.choose("happy-path")  # the server chosen: a fresh demo server
        run = room.play()
        assert run is not None
        said = [room.status.text()]
        run.changed.connect(lambda: said.append(room.status.text()))
        assert said[0] == STARTING[language]
        qtbot.waitUntil(lambda: not run.running, timeout=30000)
        assert run.status == "ok", run.error
        assert NOTHING_YET[language] not in said, said
        assert said[-1].endswith(": ✓ ok"), said
    finally:
        switch_language("en")


def test_a_chosen_server_is_not_said_to_be_started(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    room = window.play.room
    window.tabs.setCurrentWidget(room)
    assert room.choices.choose("happy-path") and room.choices.choose_server(demo_server.url)
    run = room.play()
    assert run is not None
    said = [room.status.text()]
    run.changed.connect(lambda: said.append(room.status.text()))
    qtbot.waitUntil(lambda: not run.running, timeout=30000)
    assert run.status == "ok", run.error
    assert STARTING["en"] not in said, said
