"""Imported runs' spans written back as OTLP: grouped by resource and scope, each run's in the order
that numbers its steps again as they were numbered.

An import numbers a foreign trace's steps by their spans' places among the trace's spans in the
file (for a call whose two sides are one step, the client side's place; the server side's place is
then no step's number). So each run's spans are written in the order of its steps' numbers, a call's
server side where the numbers leave a place free (a server span had it in the source), the other
server sides after the run's last step. The spans of different runs may come in any order against
each other: they are merged so that spans of one resource and scope stay together as far as each
run's order allows; where a run goes back to a resource or scope it left, that resource or scope is
written again (another ``resourceSpans`` or ``scopeSpans``, as an OpenTelemetry Collector's batches
repeat them). See docs/trace-format.md, "Exporting an imported trace again".
"""

from __future__ import annotations

import tempfile
from collections import deque
from collections.abc import Iterator
from typing import IO, NamedTuple

from .foreign_spans import SpanOut
from .format import dump_json

__all__ = ["SpanGroups"]


class _Placed(NamedTuple):
    """A span waiting in the temporary file: what orders it, where it is."""

    sequence: int
    server: bool
    offset: int
    length: int
    group: int  # the index of its (resource, scope)


Segment = tuple[int, list[_Placed]]
"""Spans of one run under one (resource, scope), in the run's order."""


class SpanGroups:
    """Spans waiting in a temporary file to be written (:meth:`write`) grouped by resource and scope,
    run by run (:meth:`next_run`), each run's in the order that numbers its steps again."""

    def __init__(self) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile()
        self._size = 0
        #: (resource JSON, scope JSON) → its index in ``_names``
        self._indexes: dict[tuple[str, str], int] = {}
        self._names: list[tuple[str, str]] = []
        self._runs: list[list[_Placed]] = []
        #: per run, the number its spans' steps follow (a run of ours: its own steps' last)
        self._after: list[int] = []

    def __enter__(self) -> SpanGroups:
        return self

    def __exit__(self, *exc: object) -> None:
        self._file.close()

    def next_run(self) -> None:
        """The spans added from now on are of the next run."""
        self._runs.append([])
        self._after.append(0)

    def numbered_after(self, sequence: int) -> None:
        """The current run's spans are its steps after ``sequence`` (a run of ours: its own steps come
        first; another tool's spans that joined it are numbered after them)."""
        self._after[-1] = sequence

    def add(self, piece: SpanOut) -> None:
        if not self._runs:
            self.next_run()
        data = dump_json(piece.span).encode()
        self._file.write(data)
        name = (dump_json(piece.resource), dump_json(piece.scope))
        group = self._indexes.setdefault(name, len(self._names))
        if group == len(self._names):
            self._names.append(name)
        self._runs[-1].append(_Placed(piece.sequence, piece.server, self._size, len(data), group))
        self._size += len(data)

    def write(self, out: IO[str], *, first: bool) -> None:
        """Write the spans as ``resourceSpans`` entries (``first``: none is written before them)."""
        self._file.flush()
        runs = [_segments(_in_numbering_order(spans, after))
                for spans, after in zip(self._runs, self._after, strict=True)]
        self._runs = []
        resource: str | None = None
        scope: str | None = None
        for group, spans in _merged(runs, self._names):
            name = self._names[group]
            if name[0] != resource:
                if resource is not None:
                    out.write("\n]}]}")
                out.write(f'{"" if first else ","}\n{{"resource": {name[0]}, "scopeSpans": [{{"scope": {name[1]}, '
                          '"spans": [')
                first = False
            elif name[1] != scope:
                out.write("\n]},")
                out.write(f'{{"scope": {name[1]}, "spans": [')
            else:
                out.write(",")
            resource, scope = name
            for index, span in enumerate(spans):
                self._file.seek(span.offset)
                out.write(("," if index else "") + "\n" + self._file.read(span.length).decode())
        if resource is not None:
            out.write("\n]}]}")


def _in_numbering_order(spans: list[_Placed], after: int) -> list[_Placed]:
    """A run's spans in the order whose places number its steps as they are numbered: each step's own
    span at its number's place, a server side in a place no step has, the others at the end."""
    spans.sort(key=lambda span: (span.sequence, span.server, span.offset))
    servers = deque(span for span in spans if span.server)
    ordered: list[_Placed] = []
    place = after + 1
    for span in spans:
        if span.server:
            continue
        while place < span.sequence and servers:
            ordered.append(servers.popleft())
            place += 1
        ordered.append(span)
        place = max(place, span.sequence) + 1
    ordered.extend(servers)
    return ordered


def _segments(spans: list[_Placed]) -> list[Segment]:
    """A run's ordered spans cut where the (resource, scope) changes."""
    found: list[Segment] = []
    for span in spans:
        if found and found[-1][0] == span.group:
            found[-1][1].append(span)
        else:
            found.append((span.group, [span]))
    return found


def _merged(runs: list[list[Segment]], names: list[tuple[str, str]]) -> Iterator[Segment]:
    """The runs' segments merged, each run's in its order: each time, the next segments of every run
    that go under one (resource, scope), written together. The resource just written is kept while
    any run's next segment is under it; else the run with the most segments left goes on (the others
    may catch up with it: a short run's server sides wait for a long run's, and so on), then the one
    most runs go on with."""
    places = [0] * len(runs)
    waiting: dict[int, list[int]] = {}  # (resource, scope) → the runs whose next segment is under it
    for run, segments in enumerate(runs):
        if segments:
            waiting.setdefault(segments[0][0], []).append(run)
    resource: str | None = None
    while waiting:
        group = min(waiting, key=lambda key: (names[key][0] != resource,
                                              -max(len(runs[run]) - places[run] for run in waiting[key]),
                                              -len(waiting[key]), key))
        spans: list[_Placed] = []
        for run in sorted(waiting.pop(group)):
            spans.extend(runs[run][places[run]][1])
            places[run] += 1
            if places[run] < len(runs[run]):
                waiting.setdefault(runs[run][places[run]][0], []).append(run)
            else:
                runs[run] = []  # written: let go of its spans' places
        resource = names[group][0]
        yield group, spans
