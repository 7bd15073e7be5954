"""A long run from a trace whose spans nest, for the window's tests of a span tree laid out on the reader
thread (more than :data:`inspector.gui.runs.tree_layout.AT_ONCE_STEPS` steps): a root span, groups under it and
tiny leaves under each group, as a stranger's instrumented loop makes them, imported into a real database; and
the steps of a long running run of ours that a server's spans joined (:func:`joined_steps`)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from inspector.runs import RunStep, StepKind
from inspector.runs.trace_ids import step_span_id
from inspector.store import RunStore
from inspector.transfer.importing import import_trace

#: Leaves under each group span.
GROUP_LEAVES = 49
#: The length of a padded span's attribute: more than four pages of the database hold (a chain of pages,
#: whose links a scrambled page breaks: SQLite meets the damage, not text it reads as invalid JSON).
PADDING = 20_000


def write_nested_trace(path: Path, spans: int, trace: str = "7", name: str = "leaf", padded: int = 0) -> Path:
    """Write to ``path`` one trace of ``spans`` spans: a root, a group span every :data:`GROUP_LEAVES` + 1 spans
    under it, and leaves under the group before them ("{name}-N"; group G's first leaf is named "{name}-G-first"),
    1 µs apart. ``trace``: the hex digit its trace id repeats; ``padded``: the last so many spans carry an attribute
    of :data:`PADDING` characters (their stored steps overflow their pages). Returns ``path``."""
    batch, group = [], 1
    for number in range(spans):
        start = 1_700_000_000_000_000_000 + number * 1_000
        span_id = f"{number + 1:016x}"
        span: dict[str, object] = {"traceId": trace * 32, "spanId": span_id, "kind": 1,
                                   "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 500)}
        if not number:
            span["name"] = "root"
        elif (number - 1) % (GROUP_LEAVES + 1) == 0:
            group = number + 1
            span.update(name=f"group-{number // (GROUP_LEAVES + 1)}", parentSpanId=f"{1:016x}")
        else:
            first = (number - 1) % (GROUP_LEAVES + 1) == 1
            span.update(name=f"{name}-{(number - 1) // (GROUP_LEAVES + 1)}-first" if first else f"{name}-{number}",
                        parentSpanId=f"{group:016x}")
        if number >= spans - padded:
            span["attributes"] = [{"key": "padding", "value": {"stringValue": "x" * PADDING}}]
        batch.append(span)
    path.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": []},
                                                   "scopeSpans": [{"scope": {"name": "loop"}, "spans": batch}]}]}),
                    encoding="utf-8")
    return path


def nested_run(store: RunStore, folder: Path, spans: int, trace: str = "7", name: str = "leaf",
               padded: int = 0) -> int:
    """Import a :func:`write_nested_trace` of ``spans`` spans into ``store``; returns its run's id."""
    report = import_trace(store, write_nested_trace(folder / f"nested-{trace}.json", spans, trace, name, padded))
    (run_id,) = report.run_ids
    return run_id


def joined_steps(uid: str, first: int, count: int, at: datetime, every: int = 50,
                 plumbing: bool = False) -> list[tuple[RunStep, datetime]]:
    """The next ``count`` steps of a running run of ours (uid ``uid``, its next sequence ``first``): model steps
    ("thinking, step N", N their sequence) 1 ms apart from ``at``, and after every ``every``-th of them a server's
    span joined under it (its ``tools/call``, as a server that traced our request stores it; not counted in
    ``count``; ``plumbing``: marked as its instrumentation's own), to append with
    :meth:`~inspector.store.RunStore.append_steps`."""
    steps: list[tuple[RunStep, datetime]] = []
    for offset in range(count):
        sequence, when = first + len(steps), at + timedelta(milliseconds=offset)
        steps.append((RunStep(kind=StepKind.LLM, round=sequence, duration_ms=0.5,
                              content=f"thinking, step {sequence}"), when))
        if offset % every == every - 1:
            steps.append((server_span(uid, sequence, len(steps), plumbing), when + timedelta(microseconds=100)))
    return steps


def server_span(uid: str, under: int, number: int, plumbing: bool = False) -> RunStep:
    """A server's span joined under our step of sequence ``under`` (its span id made of ``number``; ``plumbing``:
    marked as its instrumentation's own, hidden as the importer's plumbing is)."""
    span: dict[str, object] = {"spanId": f"{number + 1:016x}", "parentSpanId": step_span_id(uid, under),
                               "name": "tools/call echo"}
    if plumbing:
        span["plumbing"] = True
    return RunStep(kind=StepKind.TOOL, round=0, duration_ms=0.1, tool_name="echo", raw={"otlp": span})


__all__ = ["GROUP_LEAVES", "PADDING", "joined_steps", "nested_run", "server_span", "write_nested_trace"]
