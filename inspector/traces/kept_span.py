"""The spans a step keeps of a trace (``raw.otlp``, and a joined call's server side ``raw.otlp.server``),
checked as spans when a file in our format (or a step span of ours) brings them: an OTLP export writes
them back as they are (:mod:`.foreign_spans`), so one that no OTLP reader takes (an id of the wrong
length, a time past 2^64-1 ns, a status code 7) is refused on import, naming its place, as that span
itself would be. No I/O."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .foreign_spans import written_span
from .format import Path, TraceProblem
from .otlp import read_span

__all__ = ["check_kept_spans"]

def check_kept_spans(raw: Any, path: Path) -> None:
    """Refuse (:class:`TraceProblem`) a step's ``raw`` (at ``path``) whose kept spans an OTLP export would
    write invalid."""
    kept = raw.get("otlp") if isinstance(raw, Mapping) else None
    if not isinstance(kept, Mapping) or not kept.get("spanId"):
        return  # no span of a trace: an export makes one of its own
    trace = kept.get("traceId")  # every import kept it (without it an export names the trace after the run's uid)
    where = (*path, "otlp")
    _check(kept, trace, where)
    server = kept.get("server")
    if isinstance(server, Mapping) and server.get("spanId"):
        _check(server, trace, (*where, "server"))


def _check(kept: Mapping[str, Any], trace: Any, where: Path) -> None:
    # Its attributes are left out: plain JSON values, each written as a valid AnyValue (a number too large
    # for one was refused by the JSON reader already), and they are most of the cost.
    try:
        read_span(written_span({**kept, "attributes": None}, trace), ())
    except TraceProblem as problem:
        raise TraceProblem((*where, *(problem.path or ())), problem.sentence) from None
