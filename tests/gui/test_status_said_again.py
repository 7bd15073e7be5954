"""Status sentences said again in the new language after a switch, as the Runs tab's transfer sentences
are: the step detail's "Copied the result of step 5 …", Copy uid's "Copied the uid of run 1: …", the
span's "Copied 3 attributes …" and a replay's "No server is configured …" in the window's status line
stayed English in a German window."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.widgets.wire_view import WireView
from inspector.runs import Leg
from inspector.store import RunStore, resolve_db_path
from inspector.store.browse import delete_runs
from tests.gui.test_runs_span_detail import imported_agent_run, open_run, step_row
from tests.gui.test_screenshots import save


def _switched(tab, language: str) -> str:
    switch_language(language)
    QApplication.processEvents()
    return tab.status.text()


def test_copied_sentences_of_the_runs_tab_follow_the_language(qtbot, make_window) -> None:
    run_id = imported_agent_run("mcp_sdk.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    window.resize(1280, 800)
    try:
        tab.select_step(step_row(tab, "slow: TimeoutError"))
        tab.detail.copy_result_text()
        count = len(QApplication.clipboard().text())
        assert tab.status.text() == f"Copied the result of step 5 ({count} characters)."
        assert _switched(tab, "de") == f"Das Resultat von Schritt 5 wurde kopiert ({count} Zeichen)."
        save(window, "status-said-again-copied-de")
        assert _switched(tab, "en") == f"Copied the result of step 5 ({count} characters)."
        save(window, "status-said-again-copied-en")
        uid = tab.current_run().uid
        assert tab.timeline_pane.identity.copy_uid() == f"Copied the uid of run {run_id}: {uid}"
        assert _switched(tab, "de") == f"Die UID von Lauf {run_id} wurde kopiert: {uid}"
        switch_language("en")
        said = tab.detail.span.attributes.copy_attributes()
        assert said.startswith("Copied ") and tab.status.text() == said
        assert " als JSON kopiert (" in _switched(tab, "de")
    finally:
        switch_language("en")


def test_a_step_that_cannot_be_replayed_says_so_in_the_new_language(qtbot, make_window) -> None:
    run_id = imported_agent_run("mcp_sdk.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    window.resize(1280, 800)
    tab.select_step(step_row(tab, "slow: TimeoutError"))
    assert tab.detail.replay.isVisible()
    with RunStore.open(resolve_db_path()) as store:  # gone from under the window: nothing to replay
        assert delete_runs(store, [run_id]) == 1
    try:
        tab.detail.replay.click()
        assert tab.status.text() == "Step 5 cannot be replayed: only a stored tool step that can be read can be."
        assert _switched(tab, "de") == ("Schritt 5 kann nicht wiederholt werden: Das geht nur mit einem "
                                        "gespeicherten, lesbaren Tool-Schritt.")
        save(window, "status-said-again-replay-de")
    finally:
        switch_language("en")


def test_a_copied_leg_is_said_again_in_the_new_language(qtbot) -> None:
    view = WireView()
    qtbot.addWidget(view)
    said: list = []
    view.said.connect(said.append)
    exchange = {"level": "headers", "request": {"method": "POST", "url": "http://h/mcp"}}
    assert view.show_legs([Leg("tools/call", 5, 12.0, 200, "ok", exchange)])
    view.tree.setCurrentItem(view.tree.topLevelItem(0))
    text = view.copy_leg_json()
    count = len(QApplication.clipboard().text())
    assert text == f"Copied leg 1 as JSON ({count} characters)."
    (words,) = said
    try:
        switch_language("de")
        assert words() == f"Etappe 1 als JSON kopiert ({count} Zeichen)."
    finally:
        switch_language("en")
