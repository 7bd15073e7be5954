"""A run imported from a real agent's trace shows its span tree: children under their parent,
collapsible, plumbing hidden until asked for; the waterfall has a time axis and short spans stay
visible. The traces are the real fixtures of tests/fixtures/otel/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.span_tree import SpanTree, TreeRows
from inspector.gui.runs.time_axis import axis_ticks, tick_label, tick_step
from inspector.gui.runs.timeline_model import (
    COLUMNS,
    OUTCOME_COLUMN,
    BranchRole,
    DepthRole,
    MatchRole,
    OutcomeRole,
    StepIdRole,
    TimelineModel,
)
from inspector.gui.runs.timeline_pane import TimelinePane
from inspector.gui.runs.tree_cell import indent_of
from inspector.gui.runs.waterfall import MIN_BAR_PX, bar_extent
from inspector.store import RunStore, resolve_db_path
from inspector.store.browse import SpanNodes, StepFilter, span_nodes
from inspector.transfer.importing import import_trace
from tests.gui.test_screenshots import save
from tests.support.sample_runs import mixed_run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
DETAILS = COLUMNS.index("details")


@pytest.fixture
def store(tmp_path: Path, qapp) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def agent_run(store: RunStore, fixture: str):
    import_trace(store, FIXTURES / fixture)
    (run,) = [run for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    return run


def shown(model: TimelineModel) -> list[tuple[int, str]]:
    """(depth, details) of every row."""
    return [(model.index(row, 0).data(DepthRole), model.index(row, DETAILS).data()) for row in range(model.rowCount())]


def test_the_sdk_trace_nests_its_calls_under_the_agent_span(qtmodeltester, store: RunStore) -> None:
    model = TimelineModel(store)
    model.set_run(agent_run(store, "mcp_sdk.jsonl"))
    qtmodeltester.check(model)
    rows = shown(model)
    assert rows[0] == (0, "invoke_agent support-agent")
    assert [depth for depth, _details in rows] == [0] + [1] * 6
    assert model.index(0, 0).data(BranchRole) is True and model.index(1, 0).data(BranchRole) is None
    assert model.step_count == 7 and model.plumbing_count == 0
    # The root starts first and lasts longest: each child's bar lies inside the root's.
    root = model.index(0, 0)
    assert root.siblingAtColumn(COLUMNS.index("duration")).data()
    assert any("fail" in details for _depth, details in rows[1:])


def test_traceloop_plumbing_is_hidden_until_asked_for_and_then_hangs_under_its_parent(qtmodeltester,
                                                                                      store: RunStore) -> None:
    model = TimelineModel(store)
    model.set_run(agent_run(store, "traceloop.jsonl"))
    qtmodeltester.check(model)
    assert model.plumbing_count == 7 and model.step_count == 7 and model.rowCount() == 7
    assert "ResponseStreamWriter" not in {details for _depth, details in shown(model)}
    model.set_show_plumbing(True)
    qtmodeltester.check(model)
    rows = shown(model)
    assert model.rowCount() == model.step_count == 14
    # Each tool span has its stream writer one level below it, right under it.
    lookup = next(row for row, (_depth, details) in enumerate(rows) if details.startswith("lookup:"))
    assert rows[lookup][0] == 1 and rows[lookup + 1] == (2, "ResponseStreamWriter")
    assert model.index(lookup, 0).data(BranchRole) is True


def test_collapsing_and_expanding_moves_only_the_rows_underneath(qtmodeltester, qtbot, store: RunStore) -> None:
    model = TimelineModel(store)
    model.set_run(agent_run(store, "traceloop.jsonl"))
    model.set_show_plumbing(True)
    qtmodeltester.check(model)
    first_child = model.index(1, 0).data(StepIdRole)
    with qtbot.waitSignal(model.rowsRemoved) as removed:
        assert model.set_expanded(1, False)
    assert removed.args[1:] == [2, 2]  # the one writer under initialize.mcp
    assert model.rowCount() == 13 and model.index(1, 0).data(BranchRole) is False
    assert model.index(1, 0).data(StepIdRole) == first_child
    with qtbot.waitSignal(model.rowsInserted):
        assert model.set_expanded(1, True)
    assert model.rowCount() == 14
    assert model.set_expanded(0, False) and model.rowCount() == 1
    assert not model.set_expanded(0, False)  # already so
    qtmodeltester.check(model)
    # Find opens what hides a match.
    rows = model.find("ResponseStreamWriter")
    assert len(rows) == 7 and model.rowCount() == 14
    assert all(model.index(row, DETAILS).data() == "ResponseStreamWriter" for row in rows)


def test_a_filter_lifts_the_matching_spans_and_keeps_their_nesting(store: RunStore) -> None:
    model = TimelineModel(store)
    model.set_run(agent_run(store, "mcp_sdk.jsonl"), StepFilter(outcomes=("failed",)))
    outcomes = [model.index(row, OUTCOME_COLUMN).data(OutcomeRole) for row in range(model.rowCount())]
    assert outcomes == ["failed", "failed"] and model.step_count == 2
    assert [model.index(row, 0).data(DepthRole) for row in range(2)] == [0, 0]  # the root is filtered out


def test_a_run_of_our_own_shows_as_before(qtmodeltester, store: RunStore) -> None:
    model = TimelineModel(store)
    model.set_run(store.get_run(mixed_run(store)))
    qtmodeltester.check(model)
    assert model.tree is None
    assert {model.index(row, 0).data(DepthRole) for row in range(model.rowCount())} == {0}
    assert {model.index(row, 0).data(BranchRole) for row in range(model.rowCount())} == {None}


def test_the_pane_says_what_is_hidden_and_the_keyboard_and_the_arrow_fold(qtbot, store: RunStore) -> None:
    pane = TimelinePane(store)
    qtbot.addWidget(pane)
    pane.resize(1100, 420)
    pane.show()
    pane.show_run(agent_run(store, "traceloop.jsonl"))
    assert pane.plumbing_toggle.isVisibleTo(pane)
    assert "7 of 14 steps shown (7 plumbing hidden)" in pane.heading.text()
    # The waterfall's heading is the run's time axis.
    assert pane.view.horizontalHeader().span_s() == pytest.approx(pane.model.span_s) and pane.model.span_s > 1
    pane.plumbing_toggle.setChecked(True)
    assert pane.heading.text().endswith(", 14 steps") and pane.model.rowCount() == 14
    # Left on a parent collapses it, Left again (a collapsed row) goes to its parent, Right expands.
    pane.select_step(1)
    pane.view.setFocus()
    qtbot.keyClick(pane.view, Qt.Key.Key_Left)
    assert pane.model.rowCount() == 13 and pane.view.currentIndex().row() == 1
    qtbot.keyClick(pane.view, Qt.Key.Key_Left)
    assert pane.view.currentIndex().row() == 0
    qtbot.keyClick(pane.view, Qt.Key.Key_Left)
    assert pane.model.rowCount() == 1
    qtbot.keyClick(pane.view, Qt.Key.Key_Right)
    assert pane.model.rowCount() == 13
    # A click on the arrow of row 1 (depth 1) expands it again.
    rect = pane.view.visualRect(pane.model.index(1, DETAILS))
    arrow = QPoint(rect.left() + indent_of(1) - 6, rect.center().y())
    qtbot.mouseClick(pane.view.viewport(), Qt.MouseButton.LeftButton, pos=arrow)
    assert pane.model.rowCount() == 14


def test_find_keeps_to_the_rows_showing_when_rows_fold(qtbot, store: RunStore) -> None:
    pane = TimelinePane(store)
    qtbot.addWidget(pane)
    pane.show_run(agent_run(store, "traceloop.jsonl"))
    pane.plumbing_toggle.setChecked(True)
    pane.find_edit.setText("ResponseStreamWriter")
    assert len(pane.finder.find()) == 7 and pane.find_status.text() == "1 of 7"
    pane.model.set_expanded(0, False)  # every match is under the root
    assert pane.model.rowCount() == 1 and pane.find_status.text() == "no match"
    assert not pane.model.index(0, 0).data(MatchRole)
    pane.model.set_expanded(0, True)
    assert pane.finder.find() and pane.model.rowCount() == 14
    # A screen reader hears where a row is in the tree.
    assert pane.model.index(0, DETAILS).data(Qt.ItemDataRole.AccessibleTextRole).endswith("(level 1, expanded)")
    assert pane.model.index(2, DETAILS).data(Qt.ItemDataRole.AccessibleTextRole).endswith("(level 3)")


def test_a_span_tree_survives_what_a_hostile_file_can_say(store: RunStore) -> None:
    """Parents missing, a cycle, one span id twice, a payload SQLite cannot read: every step is a row."""
    nodes = SpanNodes(step_ids=[1, 2, 3, 4, 5], span_ids=["a", "b", "c", "c", None],
                      parent_ids=[None, "c", "b", "zz", "a"], plumbing=[False] * 5, kinds=["request"] * 5,
                      outcomes=[""] * 5)
    tree = SpanTree(nodes)
    rows = TreeRows(tree, StepFilter())
    assert sorted(rows.rows) == [0, 1, 2, 3, 4]
    assert tree.parent[4] == 0 and tree.parent[3] == -1  # under "a"; "zz" is not in the run
    assert {tree.parent[1], tree.parent[2]} & {-1}  # b and c hang under each other: one is made a root
    run = agent_run(store, "mcp_sdk.jsonl")
    step = store.db.conn.execute("SELECT id FROM steps WHERE run_id = ? ORDER BY id LIMIT 1", (run.id,)).fetchone()[0]
    store.db.conn.execute("UPDATE steps SET payload = ? WHERE id = ?", ("[" * 3000 + "]" * 3000, step))
    nodes = span_nodes(store, run.id)
    assert len(nodes) == 7 and nodes.span_ids[nodes.step_ids.index(step)] is None


def test_the_time_axis_has_round_ticks_in_the_readers_format() -> None:
    assert tick_step(1.8, 4) == 0.5 and tick_step(0.0009, 3) == 0.0005 and tick_step(600, 5) == 120
    ticks = axis_ticks(2.0, 400, lambda label: 7.0 * len(label))
    assert [label for _x, _s, label in ticks] == ["0", "0.5 s", "1 s", "1.5 s", "2 s"]
    assert [label for _x, _s, label in axis_ticks(0.05, 400, lambda label: 7.0 * len(label))] == [
        "0", "10 ms", "20 ms", "30 ms", "40 ms", "50 ms"]
    assert ticks[-1][0] == pytest.approx(400)
    # A narrow column: fewer ticks, never overlapping.
    assert [label for _x, _s, label in axis_ticks(2.0, 90, lambda label: 7.0 * len(label))] == ["0", "1 s", "2 s"]
    assert tick_label(0.0005, 0.0001) == "0.5 ms"
    assert tick_label(2, 1) == "2 s" and tick_step(7, 4) == 2  # whole seconds come as ints
    assert [label for _x, _s, label in axis_ticks(7, 300, lambda label: 7.0 * len(label))][:3] == ["0", "1 s", "2 s"]
    switch_language("de")
    try:
        assert tick_label(0.0005, 0.0001) == "0,5 ms" and tick_label(1.5, 0.5) == "1,5 s"
    finally:
        switch_language("en")


_UNIT_S = {"d": 86400, "h": 3600, "min": 60, "s": 1}


@pytest.mark.parametrize("span", [700, 3599.9999, 5000, 20000, 86400, 90000, 172800, 356400, 86400 * 400])
@pytest.mark.parametrize("width", [150, 300, 600, 1200])
def test_each_tick_of_minutes_hours_and_days_is_labelled_with_its_own_time(span: float, width: int) -> None:
    """Steps of 10,000 s and 100,000 s put ticks at 2 h 46 min 40 s and at 1 d 3 h 46 min 40 s, labelled "2 h
    47 min" and "1 d 4 h" (a duration said in two units): a step 17 minutes wide of where the label put it.
    Clock steps (1 min, 15 min, 1 h, 6 h, 1 d) are said exactly."""
    ticks = axis_ticks(span, width, lambda label: 7.0 * len(label))
    assert len(ticks) >= 2
    for _x, seconds, label in ticks[1:]:
        parts = re.fullmatch(r"(\d+) (d|h|min|s)(?: (\d+) (h|min|s))?", label.replace(",", ""))
        assert parts is not None, label
        said = sum(int(number) * _UNIT_S[unit] for number, unit in zip(parts.groups()[::2], parts.groups()[1::2],
                                                                        strict=True) if number)
        assert said == seconds, (label, seconds)


def test_a_tenth_of_a_millisecond_still_shows(qapp) -> None:
    _x, width = bar_extent(1.0, 0.0001, 120.0, 300)
    assert width >= MIN_BAR_PX >= 3


@pytest.mark.parametrize("fixture", ["mcp_sdk.jsonl", "traceloop.jsonl"])
@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_a_real_agents_span_tree(qtbot, make_window, runs_tab_showing, fixture, language) -> None:
    from tests.gui.test_runs_screenshots import runs_window

    with RunStore.open(resolve_db_path()) as opened:
        run = agent_run(opened, fixture)
    shown = runs_tab_showing(run.id, language=language, window=runs_window(make_window))
    window, tab = shown.window, shown.tab
    pane = tab.timeline_pane
    if fixture == "traceloop.jsonl":
        pane.plumbing_toggle.setChecked(True)
        pane.model.set_expanded(1, False)  # initialize.mcp folded: its writer is under the arrow
    failed = next(row for row in range(tab.timeline.rowCount())
                  if tab.timeline.index(row, OUTCOME_COLUMN).data(OutcomeRole) == "failed")
    tab.select_step(failed)
    QApplication.processEvents()
    assert tab.timeline.index(failed, 0).data(DepthRole) == 1
    save(window, f"runs-span-tree-{fixture.split('.')[0]}-{language}", grey=True)


def test_screenshot_traceloop_as_first_shown_with_its_plumbing_hidden(qtbot, make_window, runs_tab_showing) -> None:
    from tests.gui.test_runs_screenshots import runs_window

    with RunStore.open(resolve_db_path()) as opened:
        run = agent_run(opened, "traceloop.jsonl")
    shown = runs_tab_showing(run.id, window=runs_window(make_window))
    window, tab = shown.window, shown.tab
    pane = tab.timeline_pane
    assert not pane.plumbing_toggle.isChecked() and "(7 plumbing hidden)" in pane.heading.text()
    assert tab.timeline.rowCount() == 7
    tab.select_step(5)
    save(window, "runs-span-tree-traceloop-plumbing-hidden-en", grey=True)
