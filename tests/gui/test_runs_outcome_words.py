"""The Runs tab's timeline says each step's outcome in the words of ``runs show``, from the one source
(``inspector.i18n.words.stored_outcome_text``): a call that timed out reads "failed: timed out" there
too (it read "failed" alone), whether its legs tell it (a call of ours) or the importer found it (real
traces, tests/fixtures/otel/); English and German. At the window's default size no Outcome cell is cut:
where the column has no room for the whole words, it says the kind of failure beside the failed icon."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionViewItem

from inspector.gui.main_window import DEFAULT_SIZE
from inspector.gui.runs.timeline_model import COLUMNS, OUTCOME_COLUMN
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_screenshots import runs_window
from tests.gui.test_screenshots import save
from tests.support.cli_process import cli_here
from tests.support.fault_server import Exchange, FaultServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
TIMED_OUT = {"en": "failed: timed out", "de": "fehlgeschlagen: Zeitüberschreitung"}
FAILED = {"en": "failed", "de": "fehlgeschlagen"}


def _imported(fixture: str) -> int:
    """The run of ``fixture`` with the most steps (the agent's), imported into the test's database."""
    with RunStore.open(resolve_db_path()) as store:
        run_ids = import_trace(store, FIXTURES / fixture).run_ids
        return max(run_ids, key=store.count_steps)


def _timed_out_call() -> int:
    """A call of ours the server never answered, ended by its 1 s budget (its legs tell the time-out)."""
    def work(exchange: Exchange) -> None:
        exchange.stall()

    with FaultServer("session", work=work) as server:
        done = cli_here("call", server.url, "slow", "--budget", "1", "--db", str(resolve_db_path()))
    assert done.returncode != 0 and ": failed: timed out (budget 1 s)" in done.stdout, done.stdout + done.stderr
    with RunStore.open(resolve_db_path()) as store:
        return store.list_runs(limit=1)[0].id


def _said_by_runs_show(run_id: int, language: str) -> dict[int, str]:
    """Each step's Outcome cell as ``runs show`` prints it, by the step's number ("" for "-")."""
    done = cli_here("--lang", language, "--db", str(resolve_db_path()), "runs", "show", str(run_id),
                    env={"COLUMNS": "250"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    heading = next(line for line in lines if line.lstrip().startswith("#"))
    number = heading.index("#") + 1
    start = heading.index("  Ergebnis  " if language == "de" else "  Outcome  ") + 2
    end = heading.index("  Details", start) + 2
    said = {int(line[:number]): line[start:end].strip() for line in lines if line[:number].strip().isdigit()}
    return {sequence: "" if text == "-" else text for sequence, text in said.items()}


def _shown(tab) -> dict[int, str]:
    model = tab.timeline
    return {model.row(row).sequence: model.index(row, OUTCOME_COLUMN).data() or "" for row in range(model.rowCount())}


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_outcome_column_says_what_runs_show_says(qtbot, make_window, runs_tab_showing, language: str) -> None:
    runs = {fixture: _imported(fixture) for fixture in ("traceloop.jsonl", "mcp_sdk.jsonl", "pydantic_ai.jsonl")}
    runs["live"] = _timed_out_call()
    showing = runs_tab_showing(language=language, window=runs_window(make_window))
    tab = showing.tab
    for source, run_id in runs.items():
        showing.select(run_id)
        shown, said = _shown(tab), _said_by_runs_show(run_id, language)
        assert shown and all(said[sequence] == text for sequence, text in shown.items()), (source, shown, said)
        # The time-outs say so (the pydantic_ai trace has three); a failure that was none says "failed".
        timed_out = [text for text in shown.values() if text == TIMED_OUT[language]]
        assert len(timed_out) == {"pydantic_ai.jsonl": 3}.get(source, 1), (source, shown)
        assert source == "live" or FAILED[language] in shown.values()
    # Its whole words are the cell's tooltip and what a screen reader says.
    model = tab.timeline
    [row] = [row for row in range(model.rowCount()) if model.index(row, OUTCOME_COLUMN).data()]
    index = model.index(row, OUTCOME_COLUMN)
    assert TIMED_OUT[language] in index.data(Qt.ItemDataRole.ToolTipRole)
    assert index.data(Qt.ItemDataRole.AccessibleTextRole) == TIMED_OUT[language]


def _painted(view, row: int) -> tuple[str, int, int]:
    """The text the Outcome cell of ``row`` shows (as its delegate prepares it for painting), its width
    and the room the cell has for it."""
    index = view.model().index(row, OUTCOME_COLUMN)
    option = QStyleOptionViewItem()
    option.rect, option.widget = view.visualRect(index), view
    view.itemDelegateForIndex(index).initStyleOption(option, index)
    style = view.style()
    room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, view).width() - 2 * (
        style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, option, view) + 1)
    return option.text, option.fontMetrics.horizontalAdvance(option.text), room


@pytest.mark.parametrize(("language", "cell"), [("en", "failed: timed out"), ("de", "Zeitüberschreitung")])
def test_no_outcome_is_cut_at_the_default_size(qtbot, runs_tab_showing, language: str, cell: str) -> None:
    """At the window's default size the column fits the whole words in English; in German ("fehlgeschlagen:
    Zeitüberschreitung" would leave the details a sliver) the kind of failure beside the failed icon. So
    too where the column was fitted in a wider window that was then made smaller."""
    run_id = _imported("pydantic_ai.jsonl")
    shown = runs_tab_showing(run_id, language=language, size=(DEFAULT_SIZE.width() * 3 // 2, DEFAULT_SIZE.height()))
    window, tab = shown.window, shown.tab
    view = tab.timeline_view
    model = tab.timeline
    QApplication.processEvents()
    with qtbot.waitSignal(model.said_outcomes.changed):  # the column is fitted once they are said
        timed_out = [row for row in range(model.rowCount()) if model.index(row, OUTCOME_COLUMN).data()
                     == TIMED_OUT[language]]
    assert len(timed_out) == 3
    window.resize(DEFAULT_SIZE)
    QApplication.processEvents()
    for row in range(model.rowCount()):
        if model.index(row, OUTCOME_COLUMN).data():
            text, width, room = _painted(view, row)
            assert width <= room, (text, width, room)
    assert {_painted(view, row)[0] for row in timed_out} == {cell}
    # The details keep their room: in German the column is not as wide as the whole words.
    whole = view.fontMetrics().horizontalAdvance(TIMED_OUT[language])
    assert (view.columnWidth(OUTCOME_COLUMN) > whole) == (language == "en")
    assert view.columnWidth(COLUMNS.index("details")) >= 100
    tab.select_step(timed_out[0])
    save(window, f"runs-outcome-words-default-size-{language}", grey=True)
