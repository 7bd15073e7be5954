"""An operation that waited for sign-ins is stored in the order things happened, by the command line's
writer and the window's alike: sequence numbers follow the steps' times, a run whose first row could
not be written (a lock at its start) starts when its first step did, and a run the database did not
take at all (a lock at its end) keeps its sign-ins in its side file. The records are made by
hand, at fixed times: the real sign-in flows are tests/integration/test_cli_signin.py and
tests/gui/test_signin_window.py."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from inspector.agent import OperationRecord
from inspector.cli.recording import RunRecording
from inspector.gui.workbench.operation_runs import finish_run
from inspector.runs import RunStep, StepKind
from inspector.store import RunStore
from inspector.transfer.side_files import SIDE_FOLDER

URL = "http://127.0.0.1:9/mcp"
AT = datetime(2026, 12, 6, 3, 50, tzinfo=timezone.utc)


def record(kind: StepKind, content: str, seconds: float, status: str = "ok") -> OperationRecord:
    step = RunStep(kind=kind, round=0, duration_ms=100.0, content=content)
    return OperationRecord(step, status, status, 100.0, AT + timedelta(seconds=seconds), None)


def written(store: RunStore, db: Path, writer: str, last: OperationRecord, before: list[OperationRecord]) -> int:
    """The run as ``writer`` stores it when its first row was never written."""
    if writer == "command line":
        fate = RunRecording(store, db, "tools/list", URL).finish(last, before)
        assert fate.problem is None, fate.problem
        return fate.run_id
    run_id, aside = finish_run(store, None, URL, last, before, title="tools/list")
    assert aside is None, aside
    return run_id


@pytest.mark.parametrize("writer", ["command line", "window"])
def test_a_refusal_before_a_failed_sign_in_is_numbered_before_it(tmp_path: Path, writer: str) -> None:
    """A sign-in that failed leaves the attempt it refused as the record (here the second, which asked for a
    larger scope): it was written after that sign-in, so `runs show` listed #3 (the refusal, earlier) above #2."""
    db = tmp_path / "runs.db"
    first_signin = record(StepKind.REQUEST, "sign-in: signed in", 0.5)
    refused_again = record(StepKind.REQUEST, "tools/list: needs a larger scope", 1.0, "failed")
    failed_signin = record(StepKind.REQUEST, "sign-in: failed", 1.5, "failed")
    with RunStore.open(db) as store:
        run_id = written(store, db, writer, refused_again, [first_signin, failed_signin])
        steps = list(store.iter_steps(run_id))
        assert [(step.sequence, step.step.content) for step in steps] == [
            (1, "sign-in: signed in"), (2, "tools/list: needs a larger scope"), (3, "sign-in: failed")]
        assert [step.started_at for step in steps] == [AT + timedelta(seconds=s) for s in (0.5, 1.0, 1.5)]
        assert store.get_run(run_id).status == "failed"


@pytest.mark.parametrize("writer", ["command line", "window"])
def test_a_run_written_whole_at_its_end_starts_with_its_sign_in(tmp_path: Path, writer: str) -> None:
    """The run's start was the operation's last attempt, after the sign-in it waited for."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = written(store, db, writer, record(StepKind.REQUEST, "tools/list: 2 tools", 2.0),
                         [record(StepKind.REQUEST, "sign-in: signed in", 1.0)])
        assert store.get_run(run_id).started_at == AT + timedelta(seconds=1)
        assert [step.sequence for step in store.iter_steps(run_id)] == [1, 2]


@pytest.mark.parametrize("writer", ["command line", "window"])
def test_a_run_the_locked_database_did_not_take_keeps_its_sign_in_in_its_side_file(tmp_path: Path,
                                                                                  writer: str) -> None:
    """The side file held the operation's last step alone: a call that waited for a sign-in came back from
    `import` with one step where the database would have had two."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        holder = sqlite3.connect(db, isolation_level=None)  # another program, holding the write lock
        holder.execute("BEGIN EXCLUSIVE")
        try:
            last, signed_in = record(StepKind.TOOL, "echo: hi", 2.0), record(StepKind.REQUEST, "sign-in: ok", 1.0)
            if writer == "command line":
                fate = RunRecording(store, db, "tools/call echo", URL).finish(last, [signed_in])
                assert fate.run_id is None and fate.side_file is not None
            else:
                run_id, aside = finish_run(store, None, URL, last, [signed_in], title="tools/call echo")
                assert run_id is None and aside is not None
        finally:
            holder.close()
    (side_file,) = (tmp_path / SIDE_FOLDER).iterdir()
    (run,) = json.loads(side_file.read_text())["runs"]
    assert [(step["sequence"], step["started_at"]) for step in run["steps"]] == [
        (1, "2026-12-06T03:50:01.000000Z"), (2, "2026-12-06T03:50:02.000000Z")]
    assert run["steps"][0]["payload"]["content"] == "sign-in: ok"
    assert run["started_at"] == "2026-12-06T03:50:01.000000Z" and run["status"] == "ok"
