"""A note on a step of the hidden plumbing: the "Show plumbing" toggle counts such notes, so that a note
written with the plumbing shown (here, or on the machine the run was exported from) is not taken for lost.
The real Traceloop trace of tests/fixtures/otel/, in the test's SQLite file."""

from __future__ import annotations

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.store.notes import step_id_of, write_step_note
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import FIXTURES, imported_agent_run, open_run
from tests.gui.test_screenshots import save


def _noted_elsewhere(tmp_path) -> int:
    """The run as a colleague's export brings it: a note on its first stream writer (step 1)."""
    source_db = tmp_path / "colleague.db"
    with RunStore.open(source_db) as source:
        report = import_trace(source, FIXTURES / "traceloop.jsonl")
        run_id = next(found for found in report.run_ids if source.get_run(found).title.startswith("invoke_agent"))
        write_step_note(source, step_id_of(source, run_id, 1), "the proxy drops this chunk")
        export(source, [run_id], None, tmp_path / "noted.json", "trace")
    with RunStore.open(resolve_db_path()) as store:
        (here,) = import_trace(store, tmp_path / "noted.json").run_ids
    return here


def test_the_plumbing_toggle_counts_the_notes_it_hides(qtbot, make_window, tmp_path) -> None:
    run_id = _noted_elsewhere(tmp_path)
    window, tab = open_run(qtbot, make_window, run_id)
    window.resize(1280, 800)
    pane = tab.timeline_pane
    toggle = pane.plumbing_toggle
    try:
        assert toggle.isVisibleTo(pane) and not toggle.isChecked()
        assert toggle.text() == "Show plumbing (1 note)"
        assert toggle.toolTip().endswith("\n1 of them has a note.")
        save(window, "runs-plumbing-notes-en")
        switch_language("de")
        assert toggle.text() == "Infrastruktur (1 Notiz)"  # the short form: the German heading needs the room
        save(window, "runs-plumbing-notes-de")
        switch_language("en")
        toggle.setChecked(True)  # shown, the note is under its step: the toggle says no more
        assert toggle.text() == "Show plumbing"
        assert "note" not in toggle.toolTip()
    finally:
        switch_language("en")


def test_a_run_without_such_a_note_keeps_the_toggle_as_it_was(qtbot, make_window) -> None:
    run_id = imported_agent_run("traceloop.jsonl")
    with RunStore.open(resolve_db_path()) as store:  # a note on a step that shows is not counted
        write_step_note(store, step_id_of(store, run_id, 14), "the agent's whole turn")
    _window, tab = open_run(qtbot, make_window, run_id)
    assert tab.timeline_pane.plumbing_toggle.text() == "Show plumbing"
