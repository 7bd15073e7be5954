"""The Play tab in front of an audience: what a step came to is said in words that are read whole,
in English and in German (a server that is not running, the result of a call)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.play.steps_model import COLUMNS
from tests.gui.test_screenshots import save

STATE, WHAT = COLUMNS.index("state"), COLUMNS.index("what")


def played(qtbot, window, name: str, server: str | None = None):
    room = window.play.room
    window.tabs.setCurrentWidget(room)
    assert room.choices.choose(name)
    if server is not None:
        assert room.choices.choose_server(server)
    run = room.play()
    assert run is not None
    qtbot.waitUntil(lambda: not run.running, timeout=30000)
    return room, run


@contextmanager
def played_in(qtbot, make_window, name: str, language: str, size: tuple[int, int]):
    """``name`` played in a fresh window of ``size`` in ``language``: (window, room, run); English again after."""
    window = make_window()
    window.resize(*size)
    switch_language(language)
    try:
        yield (window, *played(qtbot, window, name))
    finally:
        switch_language("en")


def shown_in_runs(qtbot, window, run):
    """Show in Runs pressed after ``run`` ended: the Runs tab, once it shows the run's steps."""
    window.play.room.runs_button.click()
    tab = window.runs_tab
    qtbot.waitUntil(lambda: window.tabs.currentWidget() is tab and tab.timeline.rowCount() == len(run.rows))
    return tab


@pytest.mark.parametrize(("language", "unreachable"), [
    ("en", "echo: Could not reach the server "),
    ("de", "echo: Der Server "),
])
def test_a_server_that_is_not_running_is_said_in_whole_words(qtbot, make_window, language, unreachable) -> None:
    from tests.support.asgi_server import closed_port

    url = f"http://127.0.0.1:{closed_port()}/mcp"  # nothing listens there
    window = make_window((url, "Staging"))
    window.resize(1280, 800)
    switch_language(language)
    try:
        room, run = played(qtbot, window, "happy-path", url)
        assert run.status == "failed"
        view, model = room.view, room.model
        tools = [index for index, row in enumerate(run.rows) if row.kind == "tool"]
        assert len(tools) == 4 and all(run.rows[index].state == "failed" for index in tools)
        for index in range(model.rowCount()):
            # The State column holds its words whole ("failed: unreachable · 0.002 s" was cut after
            # "unreachable · 0.0…", in German after "nicht er…").
            cell = model.index(index, STATE)
            assert view.columnWidth(STATE) >= view.sizeHintForIndex(cell).width(), model.data(cell)
        # What happened says why the call failed, and the tooltip reads it whole.
        first = model.index(tools[0], WHAT)
        assert model.data(first).startswith(unreachable), model.data(first)
        whole = model.data(first, 3)  # ToolTipRole: the sentence whole, with what to do
        assert {"en": "Check that the server is running", "de": "Prüfen Sie"}[language] in whole, whole
        # The bar's caption names the call, not its result.
        assert room.bar._title == {"en": "Round 3: list_notes", "de": "Runde 3: list_notes"}[language]
        # The column of what happened keeps most of the table.
        assert view.columnWidth(WHAT) > view.columnWidth(STATE)
        # The model's last words do not claim the scripted result ("Done: the sum is 42 ..."), and a
        # shipped scenario plays in the window's language: its words and the model's own.
        assert run.rows[-1].text == {
            "en": "I could not do all that was asked: echo, add, write_note, and list_notes did not work.",
            "de": "Ich konnte nicht alles tun, worum gebeten wurde: Mit echo, add, write_note und list_notes hat "
                  "es nicht geklappt."}[language]
        said = [row.text for row in run.rows if row.kind == "model" and row.text]
        assert said[0] == {"en": "First I greet you.", "de": "Zuerst begrüße ich Sie."}[language], said
    finally:
        switch_language("en")


def test_each_call_shows_what_it_came_to_in_the_reader_s_language(qtbot, make_window) -> None:
    window = make_window()
    window.resize(1280, 800)
    room, run = played(qtbot, window, "flaky-server")
    assert run.status == "failed", run.error
    tools = [index for index, row in enumerate(run.rows) if row.kind == "tool"]

    def said() -> list[str]:
        return [room.model.data(room.model.index(index, WHAT)) for index in tools]

    def tip(index: int) -> str:
        return room.model.index(tools[index], WHAT).data(Qt.ItemDataRole.ToolTipRole).replace("\xa0", " ")

    english = said()
    assert english[0] == "flaky: Call 1 worked."
    # The tool's own reason first (test_flaky_reason_first.py); our sentence naming its server in the tooltip.
    assert english[1].startswith("flaky: Call 2 failed")
    assert "The tool flaky on Fresh demo server reported an error: Call 2 failed" in tip(1)
    assert english[3] == "describe_image: [1 block is not shown as text: 1 image.]"
    switch_language("de")
    try:
        # Our words are said again in German; the tool's own words stay as it said them.
        german = said()
        assert german[0] == "flaky: Call 1 worked."
        assert german[1].startswith("flaky: Call 2")
        assert "Das Tool flaky auf Demo-Server (frisch) meldete einen Fehler: Call 2" in tip(1)
        assert german[3] == "describe_image: [1 Block wird nicht als Text gezeigt: 1 Bild.]"
    finally:
        switch_language("en")
    assert said() == english


def test_a_scenario_file_with_a_mistake_says_so_and_plays_once_corrected(qtbot, make_window, tmp_path) -> None:
    import json

    window = make_window()
    window.resize(1024, 768)  # a small screen: the status below wraps to three lines
    window.main.setSizes([230, 794])  # beside a Servers panel that kept 230 px (it takes a sixth where it follows)
    room = window.play.room
    window.tabs.setCurrentWidget(room)
    mine = {"scenario": 1, "name": "mine", "description": "Echo once.", "prompt": "p",
            "rounds": [{"say": "Echo.", "calls": [{"tol": "echo", "arguments": {"text": "x"}}]}]}
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(mine))
    room.choices.load_file(path)
    assert "rounds[0].calls[0].tol" in room.choices.description.text()
    assert room.play() is None
    # Play says nothing was played and why; it used to say "Choose a scenario file first.", with one chosen.
    assert room.status.text() == ("Nothing was played: the scenario file has a mistake, said above. "
                                  "Correct it and press Play again.")
    switch_language("de")
    try:
        # What is wrong is said again in German (it gave way to "Choose a scenario file …").
        assert "ist bei rounds[0].calls[0].tol ungültig" in room.choices.description.text()
        assert room.play() is None
        assert room.status.text().startswith("Es wurde nichts vorgeführt: ")
    finally:
        switch_language("en")
    # Corrected in an editor, the file plays at the next Play (it is read again).
    mine["rounds"][0]["calls"][0] = {"tool": "echo", "arguments": {"text": "x"}}
    path.write_text(json.dumps(mine))
    run = room.play()
    assert run is not None and room.choices.description.text() == "Echo once."
    qtbot.waitUntil(lambda: not run.running, timeout=30000)
    assert run.status == "ok", run.error
    # Broken again: the steps still shown are said to be the run's played before, not this Play's.
    path.write_text("{")
    assert room.play() is None and room.model.rowCount() > 0
    assert room.status.text() == ("Nothing was played: the scenario file has a mistake, said above. Correct it "
                                  "and press Play again. The steps below are still those of the run played before.")
    # In a 1024 px window that takes three lines: all of them show (the row grows; its buttons are shorter).
    status = room.status
    needed = status.fontMetrics().boundingRect(QRect(0, 0, status.contentsRect().width(), 10_000),
                                               Qt.TextFlag.TextWordWrap, status.text()).height()
    assert needed > 2 * status.fontMetrics().lineSpacing()
    qtbot.waitUntil(lambda: status.contentsRect().height() >= needed)


@pytest.mark.parametrize("language", ["en", "de"])
def test_zoomed_for_an_audience_the_columns_keep_their_words(qtbot, make_window, language) -> None:
    window = make_window()
    window.resize(1280, 800)
    switch_language(language)
    try:
        window.view_menu.set_zoom(200)
        room, run = played(qtbot, window, "long-catalogue")  # a catalogue row, a model's, a tool's
        assert run.status == "ok", run.error
        view, header = room.view, room.view.horizontalHeader()
        for column in ("round", "maker", "state"):
            index = COLUMNS.index(column)
            # "Round" was cut to "Rou", "Runde" to "Rund" at 200 %: the widths were fixed pixels.
            assert view.columnWidth(index) >= header.sectionSizeHint(index), column
            for row in range(room.model.rowCount()):
                cell = room.model.index(row, index)
                assert view.columnWidth(index) >= view.sizeHintForIndex(cell).width(), room.model.data(cell)
        window.view_menu.set_zoom(100)
        assert view.columnWidth(COLUMNS.index("round")) < header.sectionSizeHint(COLUMNS.index("round")) * 2
    finally:
        switch_language("en")


def test_a_cancelled_call_says_so_in_its_row_in_german(qtbot, make_window) -> None:
    window = make_window()
    switch_language("de")
    try:
        room, run = played(qtbot, window, "user-cancels")  # the scenario cancels itself after 2 s
        assert run.status == "cancelled"
        hang = room.model.index(len(run.rows) - 1, WHAT)
        said = ("hang: unterwegs abgebrochen (die Anfrage war gesendet; ob die Gegenseite sie ausgeführt hat, "
                "ist unbekannt)")
        assert room.model.data(hang) == said
        assert "abgebrochen" in room.model.data(hang, 3) and "cancelled" not in room.model.data(hang, 3)
        state = room.model.data(room.model.index(len(run.rows) - 1, STATE))
        assert state.startswith("abgebrochen · ") and "fehlgeschlagen" not in state
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_description_is_as_high_as_its_lines(qtbot, make_window, tmp_path, language) -> None:
    window = make_window()
    window.resize(1280, 800)
    switch_language(language)
    try:
        room = window.play.room
        window.tabs.setCurrentWidget(room)
        choices, description = room.choices, room.choices.description
        line = description.fontMetrics().lineSpacing()

        def snug() -> bool:
            return description.height() == description.heightForWidth(description.width())

        # One line of description was given three lines' height, the text floating in empty space.
        qtbot.waitUntil(lambda: snug() and description.height() <= line + 2)
        assert choices.server.geometry().top() - choices.what.geometry().bottom() < 3 * line
        bad = tmp_path / "bad.json"
        bad.write_text('{"scenario": 1}')
        choices.load_file(bad)
        window.resize(760, 800)  # a long sentence on a narrow window: every line, no more
        qtbot.waitUntil(lambda: snug() and description.height() >= 2 * line)
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_file_s_long_words_never_widen_the_window(qtbot, make_window, tmp_path, language) -> None:
    """A description of one long word (a link) made the Play tab 4,475 pixels wide at least, and the
    window grew past the screen; a long one of many words left the steps no room. What is wrong with a
    file names its place, as long as a key may be: the same."""
    import json

    window = make_window()
    window.resize(1024, 600)
    room = window.play.room
    window.tabs.setCurrentWidget(room)
    switch_language(language)
    try:
        link = "https://example.com/" + "a" * 1000
        described = tmp_path / "link.json"
        described.write_text(json.dumps({"scenario": 1, "name": "link", "description": link, "prompt": "p",
                                         "rounds": [{"say": "Hello."}]}))
        wordy = tmp_path / "words.json"
        wordy.write_text(json.dumps({"scenario": 1, "name": "words", "description": "word " * 2000, "prompt": "p",
                                     "rounds": [{"say": "Hello."}]}))
        wrong = tmp_path / "key.json"
        wrong.write_text(json.dumps({"scenario": 1, "name": "key", "description": "d", "prompt": "p",
                                     "rounds": [{"say": "Hello.", "k" * 1000: 1}]}))
        for path, start in ((described, "https://example.com/"), (wordy, "word word "),
                            (wrong, {"en": "The scenario file ", "de": "Die Szenariodatei "}[language])):
            room.choices.load_file(path)
            QApplication.processEvents()  # the layout takes the new text's size
            assert room.choices.description.text().startswith(start)
            least = window.minimumSizeHint()
            assert least.width() <= 1024 and least.height() <= 600 and window.width() == 1024, least
            # A few lines, cut: the steps keep room for rows (ten thousand characters left them 70 px).
            assert room.view.height() >= 6 * room.view.verticalHeader().defaultSectionSize(), room.view.height()
        run = room.play()  # a file with a mistake plays nothing; the one with the link plays at 1024 px
        assert run is None
        room.choices.load_file(described)
        run = room.play()
        qtbot.waitUntil(lambda: not run.running, timeout=30000)
        assert run.status == "ok" and window.width() == 1024
        assert save(window, f"play-long-description-{language}").exists()
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_server_s_long_address_never_widens_the_play_tab(qtbot, make_window, language) -> None:
    """The server list's longest entry set the Play tab's least width: an address with a token in its
    query (195 characters) made it 1,524 px; the choice keeps the form's width, the address whole in it."""
    address = "https://mcp.example.com/mcp?token=" + "a1b2c3d4" * 20
    window = make_window((address, ""), wait_tools=False)
    room = window.play.room
    window.tabs.setCurrentWidget(room)
    switch_language(language)
    try:
        QApplication.processEvents()
        assert room.choices.server.findData(address) > 0
        assert room.minimumSizeHint().width() <= 600, room.minimumSizeHint()
    finally:
        switch_language("en")


def _play_happy_path_in_german(make_window):
    """The Play tab in German playing happy-path; the run, and the status lines said as it changes."""
    window = make_window()
    room = window.play.room
    window.tabs.setCurrentWidget(room)
    switch_language("de")
    assert room.choices.choose("happy-path")
    run = room.play()
    assert run is not None
    said: list[str] = []
    run.changed.connect(lambda: said.append(room.status.text()))
    return room, run, said


def test_the_fresh_demo_server_starting_is_said_in_german_words(qtbot, make_window, play_demo_process) -> None:
    try:
        room, run, said = _play_happy_path_in_german(make_window)
        # What the status says the moment the run hears its demo server starts. (The window may hear
        # "starting" and "started" together, and then show neither: so asked there, not on `changed`.)
        hear_starting = run._on_demo_starting

        def starting() -> None:
            hear_starting()
            said.append(room.state_text())

        run._on_demo_starting = starting
        qtbot.waitUntil(lambda: not run.running, timeout=30000)
        assert run.status == "ok", run.error
        # It read "scenario happy-path: der Demo-Server startet…" (the stored title, English).
        assert "Ein frischer Demo-Server für den Lauf startet…" in said, said
        assert not any("scenario" in text for text in said), said
    finally:
        switch_language("en")


MODEL_ERRORS = {
    401: ({"error": {"message": "Incorrect API key provided."}},
          {"en": "did not accept the API key (HTTP 401); check the key. It said: Incorrect API key provided.",
           "de": "hat den API-Schlüssel nicht angenommen (HTTP 401); prüfen Sie den Schlüssel. "
                 "Es sagte: Incorrect API key provided."}),
    404: ({"error": {"message": "404 page not found"}},
          {"en": "answered HTTP 404 (not found); check the model name and the address (an OpenAI-compatible "
                 "address usually ends in /v1). It said: 404 page not found",
           "de": "antwortete mit HTTP 404 (nicht gefunden); prüfen Sie den Modellnamen und die Modell-Adresse "
                 "(eine OpenAI-kompatible Adresse endet meist auf /v1). Es sagte: 404 page not found"}),
}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("status", sorted(MODEL_ERRORS))
def test_a_wrong_model_setting_says_what_to_check(qtbot, make_window, demo_server, language, status) -> None:
    from tests.support.asgi_server import serve_asgi
    from tests.support.fake_chat_model import FakeChatModel

    body, sentence = MODEL_ERRORS[status]
    fake = FakeChatModel(lambda _body: body)
    fake.status = status
    window = make_window((demo_server.url, "Demo server"))
    room = window.play.room
    window.tabs.setCurrentWidget(room)
    switch_language(language)
    try:
        with serve_asgi(fake.app(), path="/v1") as url:
            assert room.choices.choose("model") and room.choices.choose_server(demo_server.url)
            room.choices.model_url.setText(url)
            room.choices.model_name.setText("llama9")
            room.choices.prompt.setText("Hello.")
            run = room.play()
            assert run is not None
            qtbot.waitUntil(lambda: not run.running, timeout=20000)
        said = room.status.text()
        failed = {"en": "✗ failed. The model at ", "de": "✗ fehlgeschlagen. Das Modell unter "}[language]
        assert failed in said and said.endswith(sentence[language]), said
        assert "))" not in said  # the reason is a sentence of its own, not brackets around brackets
    finally:
        switch_language("en")


def test_on_a_projector_s_1024_pixels_what_happened_keeps_its_room(qtbot, make_window) -> None:
    from inspector.gui.play.step_columns import BUDGET_LEAST, WIDTHS, WIDTHS_EM

    window = make_window()
    window.resize(1024, 768)
    switch_language("de")
    try:
        room, run = played(qtbot, window, "flaky-server")
        view = room.view
        budget = COLUMNS.index("budget")
        # The mini bars gave way (they kept 220 pixels and left "Was geschah" 155, after the State
        # column had widened to its German words); the State column still holds its words.
        em = view.fontMetrics().height() / WIDTHS_EM
        assert view.columnWidth(WHAT) >= view.columnWidth(budget) >= round(BUDGET_LEAST * em)
        for row in range(room.model.rowCount()):
            assert view.columnWidth(STATE) >= view.sizeHintForIndex(room.model.index(row, STATE)).width()
        window.resize(1600, 900)  # wider again: the bars take their width back
        qtbot.waitUntil(lambda: view.columnWidth(budget) == round(WIDTHS["budget"] * em))
    finally:
        switch_language("en")


def test_a_run_cancelled_while_its_demo_server_starts_says_nothing_was_stored(qtbot, make_window,
                                                                              play_demo_process) -> None:
    try:
        room, run, said = _play_happy_path_in_german(make_window)
        # At once: the worker is starting the run's demo server (its first step, before the run is
        # stored). Waiting to see run.starting_demo is a race: the window may hear "starting" and
        # "started" together, and then the run is stored before the cancel.
        room.cancel()
        qtbot.waitUntil(lambda: not run.running, timeout=20000)
        assert run.status == "cancelled" and run.run_id is None and run.rows == []
        # It said "scenario happy-path: wird abgebrochen…", then "scenario happy-path: ⊘ abgebrochen".
        assert "Der Lauf: wird abgebrochen…" in said, said
        assert room.status.text() == "⊘ abgebrochen, bevor der Lauf gespeichert wurde"
        assert not any("scenario" in text for text in said), said
    finally:
        switch_language("en")
    assert room.status.text() == "⊘ cancelled before the run was stored"


@pytest.mark.parametrize(("language", "ended"), [("en", "failed: not sent"), ("de", "fehlgeschlagen: nicht gesendet")])
def test_a_call_the_budget_never_let_go_is_said_not_sent_and_a_narrow_caption_keeps_its_tool(
        qtbot, make_window, language, ended) -> None:
    """Two findings of one play of slow-handshake on a projector's 1024 pixels (played once: 3.5 s)."""
    # slow-handshake: the handshake spends the whole budget, so the call is never sent. Its state said
    # "failed: refused" ("verweigert"), which an audience reads as the server refusing a call it never saw.
    with played_in(qtbot, make_window, "slow-handshake", language, (1024, 768)) as (window, room, run):
        [tool] = [index for index, row in enumerate(run.rows) if row.kind == "tool"]
        state = room.model.data(room.model.index(tool, STATE))
        assert state.startswith(ended + " · "), state
        room.view.selectRow(tool)
        assert room.bar.current_geometry().end_text == "✗ " + ended
        # On a projector's 1024 pixels the State column holds the words whole ("fehlgeschlagen:
        # nicht gesendet · 3,…" was cut, its third of the table too narrow).
        cell = room.model.index(tool, STATE)
        assert room.view.columnWidth(STATE) >= room.view.sizeHintForIndex(cell).width(), state
        assert room.view.columnWidth(WHAT) > room.view.columnWidth(STATE) / 2

        # At 1024 px the caption over the bar was "Runde 1: … — 3,2 s von 3 s verbraucht": the round
        # kept, the tool that tells the calls apart cut away. It names the tool alone when both do not fit.
        room.bar.grab()  # paints: header_shown is what the paint showed
        caption, end = room.bar.header_shown
        assert caption.endswith("echo — " + room.bar.current_geometry().spent_text), caption
        assert "…" not in caption and "…" not in end, (caption, end)
        window.resize(1600, 768)  # room enough: the round is named too
        room.bar.grab()
        assert room.bar.header_shown[0].startswith({"en": "Round 1: echo — ", "de": "Runde 1: echo — "}[language])


@pytest.mark.parametrize(("language", "walked"), [("en", "tools/list: 130 tools in 13 pages"),
                                                  ("de", "tools/list: 130 Tools auf 13 Seiten")])
def test_the_catalogue_step_says_what_the_walk_found(qtbot, make_window, language, walked) -> None:
    # long-catalogue: the model walks a catalogue of 130 tools, 10 to a page. Its row said only
    # "tools/list (the catalogue)"; the Runs tab said what the walk found, the Play tab now too.
    with played_in(qtbot, make_window, "long-catalogue", language, (1366, 768)) as (window, room, run):
        assert run.status == "ok", run.error
        [walk] = [index for index, row in enumerate(run.rows) if row.kind == "list"]
        said = room.model.data(room.model.index(walk, WHAT))
        assert said.startswith(walked + ": echo, add, "), said
        # The bar's caption names the call, not what it found.
        room.view.selectRow(walk)
        assert room.bar._title == {"en": "Round 0: tools/list (the catalogue)",
                                   "de": "Runde 0: tools/list (der Katalog)"}[language]


@pytest.mark.parametrize(("language", "title"), [("en", "scenario happy-path"), ("de", "Szenario happy-path")])
def test_a_played_run_is_named_in_the_reader_s_language(qtbot, make_window, language, title) -> None:
    # "Show in Runs" after a German demo showed "scenario happy-path" in the list, its heading and
    # the status line: the one English word on the screen. The title is stored in English (as the
    # database keeps our words) and said in the reader's language.
    from tests.gui.test_play_tab import stored

    with played_in(qtbot, make_window, "happy-path", language, (1366, 768)) as (window, room, run):
        assert stored(run.run_id)[0].title == "scenario happy-path"
        room.runs_button.click()
        tab = window.runs_tab
        assert window.tabs.currentWidget() is tab
        assert f" {run.run_id}: {title} (ok)" in window.status.text(), window.status.text()
        model = tab.run_list.model
        qtbot.waitUntil(lambda: model.rowCount() > 0)
        assert model.data(model.index(0, model.COLUMNS.index("title"))) == title
    # The fresh demo server spoke the window's language: its answer is German in a German demo.
    from inspector.store import RunStore, resolve_db_path

    with RunStore.open(resolve_db_path()) as store:
        written = [s.step.tool_result for s in store.iter_steps(run.run_id) if s.step.tool_name == "write_note"]
    assert written == [{"en": "Note 1 written.", "de": "Notiz 1 geschrieben."}[language]]


@pytest.mark.parametrize(("language", "status"), [
    ("en", "Run 1: ✗ failed (the tool call was not sent; the model still gave its answer)"),
    ("de", "Lauf 1: ✗ fehlgeschlagen (der Tool-Aufruf wurde nicht gesendet; das Modell gab trotzdem seine Antwort)"),
])
def test_a_run_whose_one_call_failed_does_not_say_one_of_one(qtbot, make_window, language, status) -> None:
    """slow-handshake's one call is never sent: the status line said "1 of 1 tool calls failed". It says
    how the call failed, as the Runs tab says it of the stored run and its step ("failed: not sent")."""
    with played_in(qtbot, make_window, "slow-handshake", language, (1280, 800)) as (window, room, run):
        assert run.status == "failed"
        assert room.status.text() == status
        save(window, f"play-call-not-sent-{language}")
