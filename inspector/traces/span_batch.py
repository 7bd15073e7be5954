"""The spans of one trace, held in memory, into its run and steps: exactly as an import reads them.

The OTLP receiver (:mod:`inspector.capture`) keeps the spans of a trace as they arrive, over many
requests and in any order, and maps all of them again whenever the trace grows. It uses the very
reader of an OTLP file (:class:`~.span_sorter.SpanSorter`, with :mod:`.conventions`,
:mod:`.outcomes` and :mod:`.foreign` behind it), fed the spans in the order they arrived, so a
trace received live gives the run a file of the same requests gives when imported. No I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .format import Path, RunHeader, TraceStep
from .otlp import read_attributes
from .span_parts import Resource, Scope, read_resource, read_scope
from .span_sorter import SpanSorter, our_key

__all__ = ["HeldSpan", "MappedRun", "map_spans"]


@dataclass(frozen=True)
class HeldSpan:
    """One span as OTLP JSON (ids in hex), with the resource and scope objects it came under."""

    resource: Mapping[str, Any]
    scope: Mapping[str, Any]
    span: Mapping[str, Any]
    #: Read back from a stored step (which keeps what an import keeps, not every byte the span was sent as).
    restored: bool = False


@dataclass
class MappedRun:
    """What the spans of one trace make: its run's header (``None``: not known yet, e.g. the run span
    of one of our own runs has not arrived) and its steps, in the order they were made."""

    header: RunHeader | None = None
    steps: list[TraceStep] = field(default_factory=list)


def mapped_run(runs: Mapping[Any, MappedRun], trace_id: str) -> MappedRun:
    """The run of ``trace_id`` among :func:`map_spans`' runs: one of ours (keyed by
    :func:`~.span_sorter.our_key`) before another tool's. A server's spans in the trace of one of
    our runs join it only when imported from a file (``transfer/joining.py``); received live, the
    run of ours is written and they wait for that import."""
    return runs.get(our_key(trace_id)) or runs.get(trace_id) or MappedRun()


def map_spans(spans: Iterable[HeldSpan]) -> dict[Any, MappedRun]:
    """The runs (by trace id) the spans make, read as an import reads a file holding them in this
    order. Raises :class:`~.format.TraceProblem` for a span an import would refuse."""
    runs: dict[Any, MappedRun] = {}

    def on_run(key: Any, header: RunHeader, path: Path) -> None:
        runs.setdefault(key, MappedRun()).header = header

    def on_step(key: Any, step: TraceStep, path: Path, size: int = 0) -> None:
        runs.setdefault(key, MappedRun()).steps.append(step)

    sorter = SpanSorter(on_run, on_step, stored_payloads=True)
    # The spans of one request share their resource and scope objects: each is read once.
    resources: dict[int, tuple[Mapping[str, Any], Resource]] = {}
    scopes: dict[int, tuple[Mapping[str, Any], Scope]] = {}
    for index, held in enumerate(spans):
        path: Path = ("spans", index)
        known = resources.get(id(held.resource))
        if known is None:
            known = resources[id(held.resource)] = (
                held.resource, read_resource(held.resource, (*path, "resource"), read_attributes))
        resource = known[1]
        seen = scopes.get(id(held.scope))
        if seen is None:
            seen = scopes[id(held.scope)] = (held.scope, read_scope(held.scope, (*path, "scope"), read_attributes))
        sorter.span(held.span, path, resource.service, None, 0, resource, seen[1])
    sorter.finish(complete=False)
    return runs
