"""The window's import of a later export of runs it has: the notes written since are added and said.

A developer exported runs, the support engineer opened them; the developer wrote a note on a run and
exported again. Opening that file said "here already (nothing was imported)" and dropped the note."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore
from inspector.store.notes import write_run_note
from inspector.transfer.exporting import export
from tests.gui.test_runs_tab import runs_window, trace_file
from tests.gui.test_screenshots import save


def _save(window, name: str) -> None:
    save(window, f"open-trace-notes-again-{name}")


def _opened_twice(qtbot, make_window, first, later, uid: str):  # type: ignore[no-untyped-def]
    """The window that opened ``first`` and then ``later`` (a later export of its run), and that run's id."""
    window = runs_window(make_window)
    window.resize(1280, 800)
    tab = window.runs_tab
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
        tab.open_trace(first)
    run_id = tab.store.find_run_by_uid(uid).id
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
        tab.open_trace(later)
    return window, tab, run_id


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_a_note_written_since_is_added_said_and_shown(qtbot, make_window, tmp_path, file_format) -> None:
    first, uids = trace_file(tmp_path, file_format=file_format)
    with RunStore.open(tmp_path / "source-mixed.trace.json.db") as source:  # the developer's runs
        write_run_note(source, source.find_run_by_uid(uids[0]).id, "Reproduced on 1.4: the session drops")
        second = tmp_path / "second.json"
        export(source, None, None, second, format=file_format)
    window, tab, run_id = _opened_twice(qtbot, make_window, first, second, uids[0])
    try:
        assert tab.status.text() == ("The run of second.json is here already: it is selected. "
                                     f"1 note of the file was added to run {run_id}.")
        assert tab.store.get_run(run_id).note == "Reproduced on 1.4: the session drops"
        assert tab.selected_run_ids() == [run_id]
        assert tab.timeline_pane.run_note.text() == "Note: Reproduced on 1.4: the session drops"
        _save(window, f"{file_format}-en")
        switch_language("de")
        assert tab.status.text() == ("Der Lauf aus second.json ist schon hier: er ist ausgewählt. "
                                     f"1 Notiz der Datei wurde Lauf {run_id} hinzugefügt.")
        _save(window, f"{file_format}-de")
        switch_language("en")
        with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
            tab.open_trace(second)
        assert tab.status.text() == ("The run of second.json is here already (nothing was imported): it is "
                                     "selected. Its note is here already: no note was added.")
    finally:
        switch_language("en")


def test_a_note_on_a_step_the_run_here_lacks_is_said(qtbot, make_window, tmp_path) -> None:
    """The file's run holds a step the stored run does not: its note has nothing to be added to. The status
    line said nothing of it; it says so now, as the command line does, in English and German."""
    import json

    first, uids = trace_file(tmp_path)
    exported = json.loads(first.read_text(encoding="utf-8"))
    (run,) = exported["runs"]
    last = run["steps"][-1]
    number = last["sequence"] + 3
    run["steps"].append({**last, "sequence": number, "payload": {**last["payload"], "note": "only in the file"}})
    later = tmp_path / "later.json"
    later.write_text(json.dumps(exported), encoding="utf-8")
    window, tab, run_id = _opened_twice(qtbot, make_window, first, later, uids[0])
    try:
        assert tab.status.text() == ("The run of later.json is here already (nothing was imported): it is selected. "
                                     f"1 note of the file was not added: run {run_id} has no step {number}.")
        _save(window, "stepless-en")
        switch_language("de")
        assert tab.status.text() == ("Der Lauf aus later.json ist schon hier (nichts wurde importiert): er ist "
                                     f"ausgewählt. 1 Notiz der Datei wurde nicht hinzugefügt: Lauf {run_id} hat "
                                     f"keinen Schritt {number}.")
        _save(window, "stepless-de")
    finally:
        switch_language("en")
