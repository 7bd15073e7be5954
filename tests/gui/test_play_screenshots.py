"""Screenshots of the Play tab mid-run, in English and German (tests/gui/screenshots/, git-ignored)."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from tests.gui.test_screenshots import big_window, save


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_play_mid_run(qtbot, make_window, language) -> None:
    window = big_window(make_window)
    switch_language(language)
    try:
        room = window.play.room
        window.tabs.setCurrentWidget(room)
        assert room.choices.choose("user-cancels")
        assert room.choices.what.currentText() == {"en": "The user cancels (user-cancels)",
                                                   "de": "Der Benutzer bricht ab (user-cancels)"}[language]
        run = room.play()
        # `hang` in flight, its bar a second along (the scenario cancels the run after 2 s).
        qtbot.waitUntil(lambda: any(row.text == "hang" and row.running and row.elapsed_s() > 0.8
                                    for row in run.rows), timeout=20000)
        assert room.bar.isVisible() and room.bar.state is run.rows[-1].bar
        assert save(window, f"play-mid-run-{language}").exists()
        qtbot.waitUntil(lambda: not run.running, timeout=10000)  # it may end before the wait
        assert run.status == "cancelled"
        assert save(window, f"play-cancelled-{language}").exists()
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_play_model_answering(qtbot, make_window, demo_server, language) -> None:
    from tests.support.asgi_server import serve_asgi
    from tests.support.fake_chat_model import FakeChatModel, answer

    said = "I will look at the notes first, then write the summary you asked for."
    fake = FakeChatModel(lambda body: answer(said, [("echo", {"text": "notes"})]), piece_chars=6)
    fake.hold_after = 8  # the role, then seven pieces of text
    window = big_window(make_window, (demo_server.url, "Demo server"))
    switch_language(language)
    try:
        room = window.play.room
        window.tabs.setCurrentWidget(room)
        with serve_asgi(fake.app(), path="/v1") as url:
            room.choices.choose("model")
            room.choices.choose_server(demo_server.url)
            room.choices.model_url.setText(url)
            room.choices.model_name.setText("fake-model")
            room.choices.prompt.setText("Summarise the notes.")
            run = room.play()
            assert fake.stream_held.wait(20)
            qtbot.waitUntil(lambda: room.said.toPlainText() == said[:42], timeout=5000)
            row = len(run.rows) - 1
            assert room.model.data(room.model.index(row, 3)) == ("answering…" if language == "en" else "antwortet…")
            assert save(window, f"play-model-answering-{language}").exists()
            fake.resume.set()
            qtbot.waitUntil(lambda: not run.running, timeout=20000)  # it may end before the wait
        assert run.status == "ok", run.error
    finally:
        switch_language("en")
