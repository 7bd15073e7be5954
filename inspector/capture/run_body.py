"""One run as the body of an OTLP/HTTP export request (OTLP JSON, ``ExportTraceServiceRequest``).

The same writer as ``export --format otlp`` (:func:`inspector.traces.writer.write_otlp`): every
string redacted, our spans with their deterministic ids (``otlp.trace_id(uid)``), a run imported
from another tool's trace as the spans it was read from.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.store import RunRecord, RunStore, StoredStep
from inspector.traces.progress import ProgressMeter
from inspector.traces.writer import write_otlp


class UnpushableRunError(Exception):
    """The run cannot be sent (a step of it is damaged in the database)."""

    def __init__(self, message: Message) -> None:
        self.sentence = message
        super().__init__(str(message))


def run_body(store: RunStore, run: RunRecord) -> bytes:
    """The request body that carries ``run`` and all its steps."""
    out = io.StringIO()
    write_otlp(out, lambda record: _readable(store.iter_steps(record.id)), [run], ProgressMeter(None, 0, 1.0))
    return out.getvalue().encode("utf-8")


def _readable(steps: Iterator[StoredStep]) -> Iterator[StoredStep]:
    for stored in steps:
        if stored.damage:
            raise UnpushableRunError(Message(N_("{damage}; the run cannot be sent"),
                                             {"damage": stored.damage_sentence or stored.damage}))
        yield stored
