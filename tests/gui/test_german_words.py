"""German where the window said English: a cancel's stored sentence, the source and kind words of the
runs list and the timeline, and a language chosen in Settings shown at once (Cancel goes back)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from inspector import i18n
from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import COLUMNS as RUN_COLUMNS
from inspector.gui.runs.timeline_model import COLUMNS as STEP_COLUMNS
from inspector.mcp.errors import McpTransportError
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_language import window_with_mixed_run


@pytest.fixture
def german() -> Iterator[None]:
    yield
    switch_language("en")


def test_the_clients_cancel_sentences_are_said_in_german(german) -> None:
    from inspector.gui.runs.stored_text import cancelled_result_text, translate_stored

    in_flight = McpTransportError.cancelled("Demo server", "tools/call", True).message
    before = McpTransportError.cancelled("Demo server", "tools/call", False).message
    assert translate_stored(in_flight) == in_flight  # English stays as stored
    switch_language("de")
    assert translate_stored(in_flight) == (
        "Sie haben den Vorgang abgebrochen, nachdem tools/call an den Server Demo server gesendet worden war, "
        "bevor die Antwort eintraf. Ob der Server die Anfrage ausgeführt hat, ist unbekannt.")
    assert translate_stored(before).startswith("Sie haben den Vorgang abgebrochen, bevor seine Anfrage den "
                                               "Server Demo server erreichte (während tools/call)")
    assert translate_stored("cancelled by the user") == "vom Benutzer abgebrochen"
    # A text the program did not write (a trace's, a server's) is shown as it is, under a German sentence.
    assert translate_stored("the user pressed stop") == "the user pressed stop"
    assert cancelled_result_text("the user pressed stop", True, "live").splitlines() == [
        "Sie haben diesen Schritt abgebrochen, nachdem seine Anfrage gesendet worden war; ob der Server sie "
        "ausgeführt hat, ist unbekannt.", "Gespeicherter Text: the user pressed stop"]


def test_a_sign_in_legs_name_in_a_sentence_is_said_in_german_as_the_leg_is(german) -> None:
    """"(während sign-in: refresh)": a cancel, a time-out or a spent budget during a sign-in's leg (the
    refresh of one, say) named the leg in English inside the German sentence, as it was, and as stored."""
    from inspector.gui.runs.stored_text import translate_stored
    from inspector.i18n.messages import translate
    from inspector.mcp.leg_names import leg_name
    from inspector.mcp.signin.flow import STEP_REFRESH, STEP_TOKEN

    cancelled = McpTransportError.cancelled("Team server", STEP_REFRESH, False)
    assert cancelled.message.endswith("(during sign-in: refresh); the work was not sent.")  # stored so, in English
    spent = McpTransportError.exhausted_budget("Team server", STEP_TOKEN, 5)
    switch_language("de")
    assert translate(leg_name(STEP_REFRESH)) == "Anmeldung: Token erneuern"
    for said in (translate(cancelled), translate_stored(cancelled.message)):
        assert said == ("Sie haben den Vorgang abgebrochen, bevor seine Anfrage den Server Team server erreichte "
                        "(während Anmeldung: Token erneuern); der Auftrag wurde nicht gesendet.")
    assert translate(spent).startswith("Anmeldung: Token wurde nicht an den Server Team server gesendet")


def test_the_result_tab_says_the_cancel_in_german(qtbot, make_window, german) -> None:
    window, _cancelled = window_with_mixed_run(qtbot, make_window)
    detail = window.runs_tab.detail
    assert detail.result.toPlainText() == "cancelled by the user"
    switch_language("de")
    assert detail.result.toPlainText() == "vom Benutzer abgebrochen"
    switch_language("en")
    assert detail.result.toPlainText() == "cancelled by the user"


def test_source_and_kind_words_of_runs_and_timeline_in_german(qtbot, make_window, german) -> None:
    with RunStore.open(resolve_db_path()) as store:
        live = store.start_run("tools/call echo", "live", None)
        store.finish_run(live, "ok")
    window, cancelled = window_with_mixed_run(qtbot, make_window)
    tab = window.runs_tab
    source = tab.timeline.index(cancelled, STEP_COLUMNS.index("source"))
    kind = tab.timeline.index(cancelled, STEP_COLUMNS.index("kind"))
    run_source = tab.runs.index(tab.runs.row_of(live), RUN_COLUMNS.index("source"))
    assert (source.data(), kind.data(), run_source.data()) == ("MCP client", "tool", "live")
    switch_language("de")
    assert (source.data(), kind.data(), run_source.data()) == ("MCP-Client", "Tool", "aufgezeichnet")
    heading = tab.detail.heading.text()
    assert heading.startswith("Schritt ") and heading.endswith(": Tool hang")
    kinds = [tab.kind_filter.itemText(i) for i in range(tab.kind_filter.count())]
    assert "Anfrage" in kinds and "Modell" in kinds and "llm" not in kinds
    switch_language("en")
    assert kind.data() == "tool"


def test_a_language_chosen_in_settings_is_shown_at_once_and_cancel_goes_back(qtbot, make_window, german) -> None:
    window = make_window()
    file_menu = window.menuBar().actions()[0]
    dialog = SettingsDialog(window.settings, str(window.db_path), window)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.language.setCurrentIndex(dialog.language.findData("de"))
    # At once, before OK: the dialog, the window, and (as Qt's event arrives) the standard buttons.
    assert i18n.current_language() == "de"
    assert dialog.windowTitle() == "Einstellungen"
    cancel = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Cancel)
    qtbot.waitUntil(lambda: cancel.text() == "Abbrechen")
    # The switch does not stretch the combo boxes across the dialog.
    assert dialog.language.width() < dialog.language.sizeHint().width() * 2
    assert file_menu.text() == "&Datei"
    dialog.reject()  # Cancel: back to the language shown before, nothing saved
    assert i18n.current_language() == "en" and file_menu.text() == "&File"
    assert window.settings.language == ""

    again = SettingsDialog(window.settings, str(window.db_path), window)
    qtbot.addWidget(again)
    again.language.setCurrentIndex(again.language.findData("de"))
    again.accept()  # OK keeps it, and saves it
    assert window.settings.language == "de" and i18n.current_language() == "de"
    assert window.apply_language() == "de" and file_menu.text() == "&Datei"


def test_copy_payload_says_the_word_of_its_button_and_tab_in_german(qtbot, make_window, german) -> None:
    """The tab and the button say "Rohdaten"; the sentence after the copy said "Nutzdaten", a word the
    window uses nowhere else, so a reader could not tell it was the same thing."""
    from tests.gui.test_runs_span_detail import imported_agent_run, open_run

    run_id = imported_agent_run("mcp_sdk.jsonl")
    switch_language("de")
    window, tab = open_run(qtbot, make_window, run_id)
    tab.select_step(3)
    detail = tab.detail
    word = detail.tabs.tabText(detail.tabs.indexOf(detail.payload))
    assert word == "Rohdaten" and detail.copy_payload.text().startswith(word)
    said = detail.copy_payload_text()
    assert said.startswith(f"Die {word} von Schritt") and tab.status.text() == said


def test_a_cancel_on_the_fresh_demo_server_names_it_in_german(german) -> None:
    """A scenario's cancelled step said "an den Server Fresh demo server" in German (the Play tab and a
    failed step's sentence say "Demo-Server (frisch)"); a server's own name stays as it is."""
    from inspector.agent.scenario import DEMO_SERVER_NAME
    from inspector.gui.runs.stored_text import translate_stored

    fresh = McpTransportError.cancelled(str(DEMO_SERVER_NAME), "tools/call", True).message
    elsewhere = McpTransportError.cancelled("Fresh demo server 2", "tools/call", False).message
    assert translate_stored(fresh) == fresh  # English stays as stored
    switch_language("de")
    assert translate_stored(fresh).startswith(
        "Sie haben den Vorgang abgebrochen, nachdem tools/call an den Server Demo-Server (frisch) gesendet worden war")
    assert "den Server Fresh demo server 2 erreichte" in translate_stored(elsewhere)
