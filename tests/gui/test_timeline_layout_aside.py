"""A long run's span tree is laid out on a reader thread (issue 23): a run of 1,000,000 tiny spans held the
window 14 s before its rows showed. The timeline says "Laying out N steps…" at once and its rows show when the
tree arrives; a layout for a run no longer shown is dropped; a window shut down during a layout closes
cleanly. Real parts: wide traces (a root span and its children, as a stranger's instrumented loop makes them)
imported into the test's real database, and the real window."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from inspector.gui.language import switch_language
from inspector.gui.runs.tree_layout import AT_ONCE_STEPS
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_screenshots import runs_window

STEPS = AT_ONCE_STEPS + 1_000
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


def _wide_trace(path: Path, spans: int, trace: str) -> Path:
    """One trace: a root span and ``spans - 1`` tiny children under it, 1 µs apart."""
    batch = []
    for number in range(spans):
        start = 1_700_000_000_000_000_000 + number * 1_000
        span = {"traceId": trace * 32, "spanId": f"{number + 1:016x}", "name": f"step-{number}", "kind": 1,
                "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 500)}
        if number:
            span["parentSpanId"] = f"{1:016x}"
        batch.append(span)
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []},
                                                   "scopeSpans": [{"scope": {"name": "loop"}, "spans": batch}]}]}))
    return path


def _runs(tmp_path: Path, *traces: str) -> dict[str, int]:
    """Wide runs of :data:`STEPS` steps (by trace digit) and "small": a real agent's trace of 7 steps."""
    with RunStore.open(resolve_db_path()) as store:
        for trace in traces:
            import_trace(store, _wide_trace(tmp_path / f"wide-{trace}.jsonl", STEPS, trace))
        import_trace(store, FIXTURES / "mcp_sdk.jsonl")
        runs = store.list_runs(limit=None)
    ids = {run.uid.removeprefix("otlp-")[0]: run.id for run in runs if run.uid.endswith("5" * 31 + "5")
           or run.uid.endswith("6" * 32)}
    ids["small"] = next(run.id for run in runs if run.title == "invoke_agent support-agent")
    return ids


def _laid_out_here(sql: list[str]) -> list[str]:
    """The statements that read every step's span id and parent for a span tree (store.browse.span_nodes)."""
    return [statement for statement in sql if "$.raw.otlp.parentSpanId" in statement
            and "ORDER BY started_at, sequence" in statement]


def _window(make_window, runs_tab_showing):
    shown = runs_tab_showing(window=runs_window(make_window))
    return shown.window, shown.tab


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_long_run_is_laid_out_on_the_reader_thread(qtbot, tmp_path, make_window, runs_tab_showing,
                                                     language) -> None:
    runs = _runs(tmp_path, "5")
    window, tab = _window(make_window, runs_tab_showing)
    pane, model = tab.timeline_pane, tab.timeline_pane.model
    read_here: list[str] = []
    arrived = []
    model._layouts.laid_out.connect(lambda _asked, laid_out: arrived.append(laid_out))  # noqa: SLF001
    tab.store.db.conn.set_trace_callback(read_here.append)
    try:
        switch_language(language)
        qtbot.waitUntil(lambda: tab.runs.row_of(runs["5"]) is not None, timeout=10000)
        assert tab.select_runs([runs["5"]])
        # Asked of the reader: no row yet, and the timeline says why (no event handled since).
        assert model.run.id == runs["5"] and model.rowCount() == 0 and model.laying_out == STEPS
        said = {"en": "Laying out 6,000 steps…", "de": "6.000 Schritte werden angeordnet…"}[language]
        assert pane.empty_note.isVisibleTo(pane) and pane.empty_note.text() == said
        assert {"en": "6,000 steps", "de": "6.000 Schritte"}[language] in pane.heading.text()  # none "0 steps"
        qtbot.waitUntil(lambda: model.rowCount() == STEPS, timeout=20000)
        assert not pane.empty_note.isVisibleTo(pane) and not model.laying_out
        assert model.tree is arrived[0].rows  # its rows laid out on the reader thread too
        assert model.index(1, 0).data() and tab.timeline_view.isEnabled()
    finally:
        tab.store.db.conn.set_trace_callback(None)
        switch_language("en")
    assert not _laid_out_here(read_here)
    # The same run again (a filter, the plumbing toggle) lays out the tree kept: its rows at once.
    model.set_show_plumbing(True)
    assert model.rowCount() == STEPS


def test_a_filter_chosen_during_a_layout_is_laid_out_when_it_arrives(qtbot, tmp_path, make_window,
                                                                     runs_tab_showing) -> None:
    runs = _runs(tmp_path, "5")
    window, tab = _window(make_window, runs_tab_showing)
    pane, model = tab.timeline_pane, tab.timeline_pane.model
    qtbot.waitUntil(lambda: tab.runs.row_of(runs["5"]) is not None, timeout=10000)
    assert tab.select_runs([runs["5"]]) and model.laying_out
    pane.outcome_filter.setCurrentIndex(pane.outcome_filter.findData("failed"))  # before the tree arrives
    assert model.laying_out and model._layouts._asked.reads.reads <= 1  # noqa: SLF001 - asked once
    qtbot.waitUntil(lambda: not model.laying_out, timeout=20000)
    assert model.rowCount() == 0 and model.tree is not None and model.tree.step_count == 0
    pane.outcome_filter.setCurrentIndex(pane.outcome_filter.findData(None))
    assert model.rowCount() == STEPS


def test_a_small_run_is_laid_out_at_once(qtbot, tmp_path, make_window, runs_tab_showing) -> None:
    runs = _runs(tmp_path)
    window, tab = _window(make_window, runs_tab_showing)
    qtbot.waitUntil(lambda: tab.runs.row_of(runs["small"]) is not None, timeout=10000)
    assert tab.select_runs([runs["small"]])
    assert tab.timeline_pane.model.rowCount() == 7 and not tab.timeline_pane.empty_note.isVisibleTo(tab)


def test_a_layout_for_a_run_no_longer_shown_is_dropped(qtbot, tmp_path, make_window, runs_tab_showing) -> None:
    runs = _runs(tmp_path, "5", "6")
    window, tab = _window(make_window, runs_tab_showing)
    model = tab.timeline_pane.model
    arrived: list[int] = []
    model.laid_out.connect(lambda: arrived.append(model.run_id))
    qtbot.waitUntil(lambda: tab.runs.row_of(runs["6"]) is not None, timeout=10000)
    assert tab.select_runs([runs["5"]]) and model.laying_out
    assert tab.select_runs([runs["6"]]) and model.laying_out  # another long run before the first one's tree
    qtbot.waitUntil(lambda: model.rowCount() == STEPS, timeout=20000)
    qtbot.wait(300)
    assert arrived == [runs["6"]] and model.run.id == runs["6"]
    assert tab.select_runs([runs["5"]]) and model.laying_out
    assert tab.select_runs([runs["small"]])  # a short run shown before the long one's tree: laid out at once
    assert model.rowCount() == 7 and not model.laying_out
    busy = model._layouts._asked.reads  # noqa: SLF001 - the reader's work, to wait for its end
    qtbot.waitUntil(lambda: not busy.busy, timeout=20000)
    qtbot.wait(300)  # the long run's answer has arrived (and was dropped)
    assert arrived == [runs["6"]] and model.run.id == runs["small"] and model.rowCount() == 7
    assert not tab.timeline_pane.empty_note.isVisibleTo(tab)


def test_a_window_shut_down_during_a_layout_closes_cleanly(qtbot, tmp_path, make_window, runs_tab_showing) -> None:
    runs = _runs(tmp_path, "5")
    window, tab = _window(make_window, runs_tab_showing)
    model = tab.timeline_pane.model
    qtbot.waitUntil(lambda: tab.runs.row_of(runs["5"]) is not None, timeout=10000)
    assert tab.select_runs([runs["5"]]) and model.laying_out
    began = time.perf_counter()
    window.shut_down()
    tab.store.close()  # as the window's owner closes it next
    assert time.perf_counter() - began < 5
    qtbot.wait(300)
    assert model.rowCount() == 0
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("run-inspector-layout")]
