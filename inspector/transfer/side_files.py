"""A run that could not be written to the run database, saved beside it as a one-run trace file instead.

A call's record is never dropped because the database would not take it (another program's lock, a
file that can only be read, a full disk): it goes to a file in ``unsaved-runs/`` beside the database
(else in the temporary folder), in our own export format, secrets redacted like an export, and
``run-inspector import`` (or the window's File › Import) brings it back under the same uid.
"""

from __future__ import annotations

import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from inspector.runs import RunStep, step_outcome
from inspector.runs.times import utc_now

#: The folder beside the database where records that could not be written are kept.
SIDE_FOLDER = "unsaved-runs"


class Record(Protocol):
    """What is saved of an operation (the agent's ``OperationRecord``)."""

    status: str
    started_at: datetime | None
    step: RunStep


@dataclass(frozen=True)
class _SideRun:
    uid: str
    title: str
    source: str
    server: str | None
    status: str
    started_at: datetime | None
    finished_at: datetime | None
    note: str = ""


@dataclass(frozen=True)
class _SideStep:
    sequence: int
    started_at: datetime | None
    payload: dict[str, Any]
    outcome: str


def save_side_file(db_path: Path, title: str, server_url: str, record: Record,
                   uid: str | None = None, steps: Sequence[Record] = ()) -> Path:
    """Write the operation as a one-run trace file beside the database (else in the temporary
    folder); return its path. Raises ``OSError`` when neither place can take it. ``uid``: the
    run's, when its requests already named its trace; ``steps``: the run's steps in their order
    when there are more than ``record`` (the sign-ins it waited for), as the database would have them."""
    from inspector.traces.progress import ProgressMeter
    from inspector.traces.writer import replacing, write_trace

    uid = uid or uuid.uuid4().hex
    steps = steps or (record,)
    run = _SideRun(uid, title, "live", server_url, record.status, steps[0].started_at, utc_now())
    side_steps = [_side_step(sequence, each) for sequence, each in enumerate(steps, 1)]
    name = f"run-{time.strftime('%Y%m%d-%H%M%S')}-{uid[:8]}.json"
    problem: OSError | None = None
    for folder in (db_path.parent / SIDE_FOLDER, Path(tempfile.gettempdir()) / "run-inspector" / SIDE_FOLDER):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / name
            with replacing(target) as out:
                write_trace(out, lambda _run: side_steps, [run], ProgressMeter(None, 1, 1.0))
            return target
        except OSError as exc:
            problem = exc
    assert problem is not None
    raise problem


def _side_step(sequence: int, record: Record) -> _SideStep:
    payload = record.step.to_payload()
    return _SideStep(sequence, record.started_at, payload, step_outcome(payload))
