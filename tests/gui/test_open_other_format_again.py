"""The support engineer opens the developer's runs in the window twice, once as our trace and once as
OTLP JSON (the same runs): the second open stores nothing, so the status bar does not count its runs
again ("4 runs imported in this session" for 2), and the tab says they are here already rather than
that this file was imported before (it was not). Real files exported from a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from inspector.gui.language import switch_language
from inspector.store import RunStore
from inspector.transfer import export
from tests.gui.test_runs_tab import runs_window


def _two_exports(tmp_path: Path) -> tuple[Path, Path]:
    with RunStore.open(tmp_path / "developer.db") as store:
        store.finish_run(store.start_run("tools/call echo", "live", "http://127.0.0.1:8765/mcp"), "ok")
        store.finish_run(store.start_run("tools/call hang", "live", "http://127.0.0.1:8765/mcp"), "cancelled")
        trace, otlp = tmp_path / "runs-trace.json", tmp_path / "runs-otlp.json"
        export(store, None, None, trace)
        export(store, None, None, otlp, format="otlp")
    return trace, otlp


def test_the_same_runs_opened_in_the_other_format_are_not_counted_twice(qtbot, make_window, tmp_path) -> None:
    trace, otlp = _two_exports(tmp_path)
    window = runs_window(make_window)
    tab = window.runs_tab
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
        tab.open_trace(trace)
    assert window.status.text().startswith("0 operations running · 2 runs imported in this session · ")
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
        tab.open_trace(otlp)
    assert window.status.text().startswith("0 operations running · 2 runs imported in this session · ")
    assert tab.status.text() == "The runs of runs-otlp.json are here already (nothing was imported): they are selected."
    assert sorted(tab.selected_run_ids()) == [1, 2] and tab.runs.rowCount() == 2
    switch_language("de")
    try:
        assert tab.status.text() == ("Die Läufe aus runs-otlp.json sind schon hier (nichts wurde importiert): "
                                     "sie sind ausgewählt.")
        assert "2 Läufe in dieser Sitzung importiert" in window.status.text()
    finally:
        switch_language("en")
