"""Issue 23: the Runs list's Status column says why a failed run failed in the words ``runs list`` prints
for the same database ("failed (2 of 4 tool calls failed, 1 not recorded)"), from the same source, in English
and German: a run read from a trace, and a played run the model got over. The cell shows the whole words where the
column has the room, else the status word alone; its tooltip and what a screen reader says are whole.
Where the column is narrower than the whole words (a 1280 px window) the cell shows the counts, the reason
cut after a whole word. The reasons of a page are asked for at once, and sorting and filtering by status are
as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem

from inspector.gui.language import switch_language
from inspector.gui.runs.outcome_cell import FailureRole
from inspector.gui.runs.run_listing import RECORD_PAGE, read_listing, read_records
from inspector.gui.runs.run_reasons import KnownReasons
from inspector.gui.runs.runs_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.store.browse import RunFilter
from inspector.store.notes import write_run_note
from inspector.transfer import import_trace
from tests.support.cli_process import cli_here

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"
STATUS = COLUMNS.index("status")
#: The failed run of mcp_sdk.jsonl (its agent's span) and why, as `runs list` says it.
SAID = {"en": ("failed", "failed (2 of 4 tool calls failed, 1 not recorded)"),
        "de": ("fehlgeschlagen", "fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl, 1 nicht erfasst)")}


def listed_lines(language: str, *options: str) -> dict[int, str]:
    """``runs list``'s rows for the test's database, by run id, in ``language`` (the line under them left out)."""
    said = cli_here("--lang", language, "runs", "list", *options, "--db", str(resolve_db_path()))
    assert said.returncode == 0, said.stderr
    return {int(line.split()[0]): line for line in said.stdout.splitlines()[1:] if line.split()[0].isdigit()}


def shown_text(view, row: int) -> str:
    """What the Status cell of ``row`` paints (its delegate's text at the column's width)."""
    option = QStyleOptionViewItem()
    option.rect = view.visualRect(view.model().index(row, STATUS))
    option.widget = view
    option.fontMetrics = view.fontMetrics()
    view.itemDelegateForColumn(STATUS).initStyleOption(option, view.model().index(row, STATUS))
    return option.text


def runs_tab(qtbot, make_window, rows: int):
    window = make_window(wait_tools=False)
    window.resize(1920, 1000)  # room for the longest reason, in German
    tab = window.runs_tab
    tab.show_me()
    qtbot.waitUntil(lambda: tab.runs.rowCount() == rows)
    QApplication.processEvents()
    return window, tab


def check_said_as_runs_list(tab, language: str, run_id: int, word: str, whole: str, *options: str) -> None:
    """Every Status cell says what `runs list` (with ``options``) says of its run, the window listing the runs it
    lists; the failed one why, whole where it fits."""
    lines = listed_lines(language, *options)
    assert whole in lines[run_id], lines[run_id]
    model = tab.runs
    assert sorted(model.run_id(row) for row in range(model.rowCount())) == sorted(lines)
    for row in range(model.rowCount()):
        listed = model.run(row).id
        said = model.index(row, STATUS).data()
        assert f"  {said}  " in lines[listed], (said, lines[listed])
    QApplication.processEvents()  # the rows' records read (a list read anew): the column widens to their reasons
    cell = model.index(model.row_of(run_id), STATUS)
    assert cell.data() == whole
    assert cell.data(Qt.ItemDataRole.AccessibleTextRole) == whole
    assert whole in cell.data(Qt.ItemDataRole.ToolTipRole)
    assert cell.data(FailureRole) == word
    view = tab.run_list.view
    assert shown_text(view, cell.row()) == whole  # a wide window: the column widened to the reason
    narrow = view.columnWidth(STATUS)
    view.setColumnWidth(STATUS, view.fontMetrics().horizontalAdvance(word) + 40)
    try:
        assert shown_text(view, cell.row()) == word  # the word alone, never cut; the tip and reader whole
        assert cell.data(Qt.ItemDataRole.AccessibleTextRole) == whole
    finally:
        view.setColumnWidth(STATUS, narrow)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_run_list_says_why_an_imported_run_failed_as_runs_list_does(qtbot, make_window, language: str) -> None:
    imported = cli_here("import", str(FIXTURE), "--db", str(resolve_db_path()))
    assert imported.returncode == 0, imported.stderr
    _window, tab = runs_tab(qtbot, make_window, 1)  # as `runs list`: the SDK's three notifications' traces left out
    [failed] = [tab.runs.run(0)]
    assert failed.title == "invoke_agent support-agent"
    word, whole = SAID[language]
    try:
        switch_language(language)
        QApplication.processEvents()
        check_said_as_runs_list(tab, language, failed.id, word, whole)
        # Filtered by status ("failed"), and sorted by it: the same words, the order by status as before.
        tab.outcome_filter.setCurrentIndex(tab.outcome_filter.findData("failed"))
        assert [tab.runs.index(row, STATUS).data() for row in range(tab.runs.rowCount())] == [whole]
        tab.outcome_filter.setCurrentIndex(0)
        # "Show plumbing traces" ticked: the runs `runs list --all` lists, said as it says them.
        tab.run_list.plumbing_line.toggle.setChecked(True)
        assert tab.runs.rowCount() == 4
        check_said_as_runs_list(tab, language, failed.id, word, whole, "--all")
        tab.run_list.view.sortByColumn(STATUS, Qt.SortOrder.AscendingOrder)
        assert [tab.runs.run(row).status for row in range(4)] == ["failed", "ok", "ok", "ok"]
        assert tab.runs.index(0, STATUS).data() == whole
    finally:
        switch_language("en")


@pytest.mark.parametrize(("language", "counts"), [("en", "failed (2 of 4 "), ("de", "fehlgeschlagen (2 von 4 ")])
def test_a_1280_px_window_shows_the_counts_of_a_long_reason(qtbot, make_window, language: str, counts: str) -> None:
    """The Logfire agent's run, "failed (2 of 4 tool calls failed, 1 cancelled)": at 1280 px the title keeps its
    room and the Status column is narrower than the reason; the cell said "failed" alone, and now says the
    counts, cut after a whole word; its tooltip and what a screen reader says stay whole."""
    imported = cli_here("import", str(FIXTURE.parent / "logfire.jsonl"), "--db", str(resolve_db_path()))
    assert imported.returncode == 0, imported.stderr
    window, tab = runs_tab(qtbot, make_window, 1)
    try:
        switch_language(language)
        window.resize(1280, 760)
        QApplication.processEvents()
        view, cell = tab.run_list.view, tab.runs.index(0, STATUS)
        whole = cell.data()
        assert whole.startswith(counts) and "1 " in whole.removeprefix(counts)
        assert view.columnWidth(STATUS) < view.fontMetrics().horizontalAdvance(whole)  # the whole does not fit
        shown = shown_text(view, 0)
        assert shown.startswith(counts) and shown.endswith("…"), shown
        kept = shown.removesuffix("…")
        assert whole.startswith(kept) and (whole[len(kept)] in " ," or kept.endswith("-")), (kept, whole)
        assert whole in cell.data(Qt.ItemDataRole.ToolTipRole)
        assert cell.data(Qt.ItemDataRole.AccessibleTextRole) == whole
    finally:
        switch_language("en")


def test_the_run_list_says_why_a_played_run_the_model_got_over_failed(qtbot, make_window) -> None:
    played = cli_here("scenario", "flaky-server", "--db", str(resolve_db_path()))
    assert played.returncode == 1, played.stderr  # failed, as stored
    _window, tab = runs_tab(qtbot, make_window, 1)
    run_id = tab.runs.run(0).id
    try:
        for language, word, whole in (
                ("en", "failed", "failed (1 of 4 tool calls failed; the model still gave its answer)"),
                ("de", "fehlgeschlagen", "fehlgeschlagen (1 von 4 Tool-Aufrufen schlug fehl; das Modell gab "
                                         "trotzdem seine Antwort)")):
            switch_language(language)
            QApplication.processEvents()
            check_said_as_runs_list(tab, language, run_id, word, whole)
    finally:
        switch_language("en")


def test_a_page_of_runs_asks_for_their_reasons_at_once() -> None:
    """Every trace of the fixtures imported (nine failed runs with a reason): reading the list asks the
    database as many questions as reading it with one such run (not one, or two, more per run)."""

    def questions(store: RunStore) -> tuple[int, int]:
        listing = read_listing(store, RunFilter(), "started", True, 500)
        asked: list[str] = []
        store.db.conn.set_trace_callback(asked.append)
        try:
            records = read_records(store, listing.ids[:RECORD_PAGE])  # the rows shown
        finally:
            store.db.conn.set_trace_callback(None)
        return len(asked), len(records.reasons)

    with RunStore.open(resolve_db_path()) as store:
        import_trace(store, FIXTURE)
        once, reasons = questions(store)
        assert reasons == 1
        for trace in sorted(FIXTURE.parent.glob("*.jsonl")):
            import_trace(store, trace)
        many, reasons = questions(store)
        assert reasons >= 8 and many == once


def test_a_list_read_again_asks_only_for_the_reasons_of_runs_that_changed() -> None:
    """A live read of the loaded list (the reader thread's, every time another connection wrote) keeps the
    reasons of the runs it finds as they were; a run that changed is asked for again, alone."""
    with RunStore.open(resolve_db_path()) as store:
        for trace in sorted(FIXTURE.parent.glob("*.jsonl")):
            import_trace(store, trace)
        first = read_records(store, read_listing(store, RunFilter(), "started", True, 500).ids)  # the rows shown
        known = KnownReasons(first.runs, first.reasons)
        changed = next(run for run in first.runs.values() if run.id in first.reasons)
        write_run_note(store, changed.id, "looked at")  # its record is another: asked again
        asked: list[str] = []
        store.db.conn.set_trace_callback(asked.append)
        try:
            again = read_listing(store, RunFilter(), "started", True, 500, known=known)
        finally:
            store.db.conn.set_trace_callback(None)
    assert again.reasons == first.reasons
    reasons = [sql for sql in asked if "json_each" in sql or "WITH called" in sql]
    assert reasons and all(f"[{changed.id}]" in sql or f"IN ({changed.id})" in sql for sql in reasons), reasons
