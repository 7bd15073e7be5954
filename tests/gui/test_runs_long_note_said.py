"""An imported step whose error message is 100,000 characters long (a hostile or verbose trace) says
its Details in the reader's language like any other: the timeline reads each note of the importer cut
inside (its texts, not its JSON), so the note still says itself in German, not in the stored English.
The real trace of FastMCP (tests/fixtures/otel/fastmcp.jsonl), its tool's error made that long."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import FIXTURES, open_run

DETAILS = COLUMNS.index("details")
ERROR = "upstream 503 for Oslo"
SAID = {"en": "fail: failed: ", "de": "fail: fehlgeschlagen: "}


def long_error_trace(to: Path) -> Path:
    text = (FIXTURES / "fastmcp.jsonl").read_text(encoding="utf-8")
    assert ERROR in text
    to.write_text(text.replace(ERROR, ERROR + " " + "x" * 100_000), encoding="utf-8")
    return to


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_details_of_a_step_with_a_long_error_are_in_the_readers_language(qtbot, make_window, tmp_path: Path,
                                                                            language: str) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_ids = import_trace(store, long_error_trace(tmp_path / "long.jsonl")).run_ids
        (run_id,) = [run_id for run_id in run_ids
                     if any(step.payload.get("toolName") == "fail" for step in store.iter_steps(run_id))]
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        shown = [tab.timeline.index(row, DETAILS).data() for row in range(tab.timeline.rowCount())]
        failed = [text for text in shown if ERROR in text]
        assert failed, shown
        for text in failed:
            assert text.startswith(SAID[language]), text
            assert len(text) < 1_000
    finally:
        switch_language("en")
