"""The Runs tab's status line follows the language like the labels around it: after an import or an
export, switching the window to German left "Imported 1 run from …" and "Exported 1 run to …" in
English while everything else switched."""

from __future__ import annotations

from inspector.gui.language import switch_language
from tests.gui.test_runs_tab import runs_window, trace_file
from tests.gui.test_screenshots import save


def test_the_last_transfer_sentence_is_said_again_in_the_new_language(qtbot, make_window, tmp_path) -> None:
    window = runs_window(make_window)
    window.resize(1280, 800)
    tab = window.runs_tab
    path, _uids = trace_file(tmp_path)
    try:
        with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
            tab.open_trace(path)
        assert tab.status.text() == "Imported 1 run from mixed.trace.json."
        switch_language("de")
        assert tab.status.text() == "1 Lauf aus mixed.trace.json importiert."
        switch_language("en")
        assert tab.status.text() == "Imported 1 run from mixed.trace.json."
        destination = tmp_path / "out.json"
        with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
            tab.export_runs(destination, "trace", tab.selected_run_ids())
        assert tab.status.text() == f"Exported 1 run to {destination}."
        save(window, "runs-status-language-en")
        switch_language("de")
        assert tab.status.text() == f"1 Lauf nach {destination} exportiert."
        save(window, "runs-status-language-de")
        # A sentence given as text, not made again (a server's words), is left as it was said.
        tab.status.say("Copied 3 characters.")
        switch_language("en")
        assert tab.status.text() == "Copied 3 characters."
    finally:
        switch_language("en")
