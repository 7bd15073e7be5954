"""Files a structural fuzzer of the committed fixtures and of exports made it find (tracefuzz64), each
minimised: refused with a sentence naming the place, the database unchanged, in reasonable time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_trace_support import TOOL_PAYLOAD, fingerprint, run_doc, settle, step_doc, trace_doc, write_json

from inspector.store import RunStore
from inspector.traces.format import TraceImportError
from inspector.transfer.importing import import_trace


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def refused(store: RunStore, path: Path) -> TraceImportError:
    settle(store)
    db = Path(store.db.conn.execute("PRAGMA database_list").fetchone()[2])
    before = fingerprint(db)
    with pytest.raises(TraceImportError) as caught:
        import_trace(store, path)
    assert fingerprint(db) == before
    return caught.value


@pytest.mark.parametrize("sequence", [2**63, 2**64, 10**30])
def test_a_step_number_beyond_what_the_database_holds_is_refused_naming_it(store: RunStore, tmp_path: Path,
                                                                            sequence: int) -> None:
    path = write_json(tmp_path / "big.json", trace_doc([run_doc(steps=[step_doc(1, TOOL_PAYLOAD)])]))
    path.write_text(path.read_text().replace('"sequence": 1', f'"sequence": {sequence}'))
    error = refused(store, path)
    assert str(error) == (f"Cannot import big.json: runs[0].steps[0].sequence: must be a whole number from 0 to "
                          f"9223372036854775807, got the number {sequence}. Nothing was imported.")


def test_the_largest_step_number_the_database_holds_imports(store: RunStore, tmp_path: Path) -> None:
    path = write_json(tmp_path / "big.json", trace_doc([run_doc(steps=[step_doc(2**63 - 1, TOOL_PAYLOAD)])]))
    report = import_trace(store, path)
    assert [step.sequence for step in store.iter_steps(report.run_ids[0])] == [2**63 - 1]
    assert json.loads(path.read_text())["runs"][0]["steps"][0]["sequence"] == 2**63 - 1
