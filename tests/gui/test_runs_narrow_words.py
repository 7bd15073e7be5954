"""The Runs tab in little room says whole words: the runs' search shows a placeholder Qt does not cut
(it showed "T…" in German at the window's least width), the step search its short word where the
shortcut has no room (it was cut to "Such…"), and the run's uid stays whole in a narrow timeline
pane, zoomed too (it was cut to "uid otlp-0d83c098ab9d2f8…")."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QImage
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget

from inspector.cli import main
from inspector.gui.language import switch_language
from inspector.gui.widgets.accessibility import name_clear_button
from inspector.gui.widgets.fitted_placeholder import placeholder_room
from inspector.gui.widgets.hints import readable_placeholder
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_screenshots import save
from tests.support.sample_runs import mixed_run

TRACE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "traceloop.jsonl"


def painted_text(edit: QLineEdit, width: int) -> QImage:
    """The left of ``edit`` as Qt paints it ``width`` px wide, as far as its placeholder reaches whole."""
    edit.resize(width, edit.sizeHint().height())
    QApplication.processEvents()
    reach = edit.fontMetrics().horizontalAdvance(edit.placeholderText()) + 6
    return edit.grab().toImage().copy(0, 0, reach, edit.height())


@pytest.mark.parametrize("zoom", [1.0, 1.5, 2.0])
@pytest.mark.parametrize("text", ["Suchen…", "Find… (Ctrl+F)", "Titel, Server, Dateien, Notizen suchen…"])
def test_qt_paints_a_placeholder_whole_in_the_room_we_count_for_it(qtbot, zoom, text) -> None:
    """The room :func:`placeholder_room` counts is what Qt needs: the placeholder painted in it is the one
    painted in a wide field (a field with a named clear button takes 33 px beside its text, not 30)."""
    top = QWidget()
    qtbot.addWidget(top)
    font = QFont(top.font())
    font.setPointSizeF(font.pointSizeF() * zoom)
    top.setFont(font)
    edit = QLineEdit(top)
    name_clear_button(edit, lambda: "Clear")
    readable_placeholder(edit)
    edit.setPlaceholderText(text)
    top.show()
    qtbot.waitExposed(top)
    assert painted_text(edit, placeholder_room(edit, text)) == painted_text(edit, 2000)


def placeholder_fits(edit: QLineEdit) -> bool:
    return placeholder_room(edit, edit.placeholderText()) <= edit.width()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_searches_show_whole_words_at_the_least_window_and_the_whole_sentence_where_wide(
        qtbot, runs_tab_showing, language) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    shown = runs_tab_showing(run_id, language=language)
    window, tab = shown.window, shown.tab
    searches = {"runs": tab.run_list.search, "steps": tab.timeline_pane.find_edit}
    window.resize(window.minimumSizeHint().width(), 600)  # the least the window allows
    QApplication.processEvents()
    assert window.width() <= 1024  # still the smallest screen's
    cut = {name: (edit.placeholderText(), edit.width()) for name, edit in searches.items()
           if not placeholder_fits(edit)}
    assert cut == {}  # the step search was "Such…" (76 px) when the filters of the runs began to wrap
    # The short words where the sentence has no room: the step search under the list of runs, and the
    # runs' search in German, at the end of the filters' line; in English the filters wrap the search
    # onto the next line (before Compare and Delete), with the room for the whole sentence.
    short = {"en": "Search…", "de": "Suchen…"}[language]
    assert {name: edit.placeholderText() for name, edit in searches.items()} == {
        "runs": {"en": "Search titles, servers, notes, steps…", "de": "Suchen…"}[language],
        "steps": short.replace("Search", "Find")}
    # Its tip says what it searches.
    assert tab.run_list.search.toolTip() == {"en": "Search titles, servers, notes, steps",
                                             "de": "Titel, Server, Notizen, Schritte suchen"}[language]
    save(window, f"runs-least-width-{language}")
    # Wide, the whole sentences.
    window.resize(1920, 1080)
    QApplication.processEvents()
    assert tab.run_list.search.placeholderText().startswith({"en": "Search titles", "de": "Titel"}[language])
    assert tab.timeline_pane.find_edit.placeholderText() == {"en": "Find… (Ctrl+F)",
                                                             "de": "Suchen… (Strg+F)"}[language]
    # The timeline pane narrowed beside the detail: the step search says "Find…" once the shortcut has
    # no room, whole wherever the field has the room for that word.
    tab.arrangement.user_split = True  # as a drag of the splitter leaves it
    find, least = searches["steps"], tab.timeline_pane.minimumSizeHint().width()
    said, cut, total = set(), [], sum(tab.lower.sizes())
    for width in range(least + 200, least - 1, -4):
        tab.lower.setSizes([width, total - width])
        QApplication.processEvents()
        said.add(find.placeholderText())
        if find.width() >= placeholder_room(find, {"en": "Find…", "de": "Suchen…"}[language]) \
                and not placeholder_fits(find):
            cut.append((find.width(), find.placeholderText()))
    assert cut == []
    assert said == {{"en": "Find… (Ctrl+F)", "de": "Suchen… (Strg+F)"}[language], short.replace("Search", "Find")}
    assert find.toolTip() == {"en": "Find in this run (Ctrl+F)", "de": "In diesem Lauf suchen (Strg+F)"}[language]


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_uid_stays_whole_in_a_narrow_timeline_pane_zoomed(qtbot, runs_tab_showing, language) -> None:
    assert main(["import", str(TRACE)]) == 0
    with RunStore.open(resolve_db_path()) as store:
        run = store.get_run(1)
    assert run.source == "imported" and run.origin
    # Wide enough for the detail to stay beside the timeline at 200 % (the pixel sizes the panes are
    # arranged by grow with the zoom: a tab of 1,700 pixels puts the detail under the timeline there).
    showing = runs_tab_showing(run.id, language=language, size=(2600, 1080))
    window, tab = showing.window, showing.tab
    try:
        identity = tab.timeline_pane.identity
        qtbot.waitUntil(lambda: run.uid in identity.line.text())
        tab.arrangement.user_split = True  # as a drag of the splitter leaves it: the panes stay where put
        for zoom in (100, 150, 200):
            window.view_menu.set_zoom(zoom)
            QApplication.processEvents()  # the new font's least widths
            tab.lower.setSizes([1, 4000])  # the timeline at its least, beside the detail
            pane = tab.timeline_pane
            qtbot.waitUntil(lambda: pane.width() == pane.minimumSizeHint().width())  # noqa: B023
            QApplication.processEvents()  # the line laid out in the pane's width
            assert identity.isVisible()
            assert identity.line.width() < identity.line.fontMetrics().horizontalAdvance(identity.line.text()), (
                zoom, tab.lower.orientation(), tab.lower.sizes(), pane.width(), window.width(), identity.width())
            shown = identity.line.shown_text()
            assert run.uid in shown, f"{zoom} %: {shown!r}"
            assert identity.line.toolTip() == (identity.line.text() if identity.line.is_cut() else ""), (
                identity.line.is_cut(), shown, identity.line.width())  # cut: the whole line in its tip
            # Copy uid keeps its words' height (they were cut at the foot at 150 %).
            button = identity.copy_button
            assert button.height() >= button.fontMetrics().height(), f"{zoom} %"
            save(window, f"runs-uid-narrow-{zoom}-{language}")
    finally:
        window.view_menu.set_zoom(100)


@pytest.mark.parametrize(("language", "whole", "toggle"), [
    ("en", "; 7 of 14 steps shown (7 plumbing hidden)", "Show plumbing"),
    ("de", "; 7 von 14 Schritten (7 Infrastruktur-Spans ausgeblendet)", "Infrastruktur")])
def test_the_heading_keeps_the_run_whole_beside_the_detail_at_1280_by_800(qtbot, make_window, language, whole,
                                                                         toggle) -> None:
    """Beside the step's detail the timeline is about 700 px wide: the heading leaves the plumbing it hides to
    its tip, then its counts, then shortens why the run failed, so that the run's number, title and status
    are read whole (the title had given all its room: "Lauf 1: … — "); it says more where the row has the
    room. The toggle beside it gives way to its short word for the heading's room."""
    from tests.gui.test_runs_span_detail import imported_agent_run, open_run
    from tests.gui.test_timeline_heading_fit import WORDS, said_in_order

    run_id = imported_agent_run("traceloop.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        pane = tab.timeline_pane
        heading, box = pane.heading, pane.plumbing_toggle
        head, why, counts, plumbing = WORDS[language]
        for size, said in (((1280, 800), toggle),
                           ((1920, 1080), {"en": "Show plumbing", "de": "Infrastruktur anzeigen"}[language])):
            tab.arrangement.user_split = False  # the panes follow the window, as they do until a drag
            window.resize(*size)
            QApplication.processEvents()
            assert tab.lower.orientation() == tab.lower.orientation().Horizontal  # the detail beside
            shown = said_in_order(heading, head, why, counts, plumbing)
            if size[0] == 1920:  # the steps shown too where the row has the room (English: the plumbing too)
                assert counts in shown and (language == "de" or shown.endswith(whole)), shown
            assert heading.toolTip() in ("", heading.text()) and whole in heading.text()  # all of it in the tip
            assert box.isVisible() and box.text() == said, size
            assert box.sizeHint().width() <= box.width()
            assert box.accessibleName() == {"en": "Show plumbing", "de": "Infrastruktur anzeigen"}[language]
            save(window, f"runs-heading-{size[0]}-{language}")
    finally:
        switch_language("en")
