"""The steps another tool's spans made in a run of ours: each span in one step, a call's two sides in one.

A server's spans (and another tool's client spans around them) that joined the trace of a run of ours are
added to it as steps (``raw.otlp``; a call's server side beside its client side under
``raw.otlp.server``). They come over several imports or requests, in any order, and each time the spans
known so far are mapped again: a call's server span may first make a step alone, then, once its client
span has come, a step of both sides. That step is then the stored one again: the step holding one of
its spans is written over (its number and the note written on it kept), not added beside it. Used by
an import (``inspector.transfer.joining``) and by the OTLP receiver (``inspector.capture.live_joins``).
"""

from __future__ import annotations

import json
from typing import NamedTuple

from .run_store import RunStore, StepRow

__all__ = ["JoinedSteps", "spans_of_payload"]

_SPANS = ("SELECT id, sequence, json_extract(payload, '$.raw.otlp.spanId'), json_extract(payload, "
          "'$.raw.otlp.server.spanId') FROM steps WHERE run_id = ? AND json_valid(payload)")


class _Held(NamedTuple):
    """A step holding spans: its row's id (``None``: placed in this pass, not written yet) and number."""

    step_id: int | None
    sequence: int
    spans: frozenset[str]


class JoinedSteps:
    """Which step of one run holds each span, and where a step made of spans goes."""

    def __init__(self, store: RunStore, run_id: int, *, stored: bool = True) -> None:
        """``stored``: read the run's stored steps (not for a run made in the same write)."""
        self._store = store
        self._by_span: dict[str, _Held] = {}
        #: How many stored steps :meth:`place` wrote over.
        self.written_over = 0
        if stored:
            for step_id, sequence, *spans in store.db.conn.execute(_SPANS, (run_id,)):
                held = _Held(step_id, sequence, frozenset(span for span in spans if isinstance(span, str) and span))
                for span in held.spans:
                    self._by_span[span] = held

    def place(self, sequence: int, started_at: str, row: StepRow) -> bool:
        """Whether ``row`` is to be added as step ``sequence``. Not when each of its spans is in one
        step already (stored, or placed before in this pass), nor when it was written over the stored
        step holding one of its spans instead (inside the caller's transaction): that step now holds
        the call's two sides. A stored step holding another of its spans (the call's other side,
        alone) is merged into it: deleted, its note kept on the step written over."""
        spans = spans_of_payload(row[4])
        if not spans:
            return True
        holding = list(dict.fromkeys(held for held in map(self._by_span.get, spans) if held is not None))
        if any(spans <= held.spans for held in holding):
            return False
        stored = sorted((held for held in holding if held.step_id is not None), key=lambda held: held.sequence)
        if not stored:  # (a step placed in this pass holds one of them: a file maps each span once)
            self._hold(_Held(None, sequence, spans))
            return True
        self._write_over(stored, started_at, row)
        self.written_over += 1
        self._hold(_Held(stored[0].step_id, stored[0].sequence, spans | stored[0].spans))
        return False

    def _hold(self, held: _Held) -> None:
        for span in held.spans:
            self._by_span[span] = held

    def _write_over(self, stored: list[_Held], started_at: str, row: StepRow) -> None:
        """The first of ``stored`` becomes ``row`` (its number kept, the stored notes on it where they
        are; the sender's only where none is), the others go."""
        conn = self._store.db.conn
        ids = [held.step_id for held in stored]
        marks = ", ".join("?" * len(ids))
        notes = [note for (note,) in conn.execute(
            f"SELECT json_extract(payload, '$.note') FROM steps WHERE id IN ({marks}) AND json_valid(payload)"
            " ORDER BY sequence", ids) if isinstance(note, str) and note]
        kind, round_, duration_ms, outcome, payload, _legs = row  # (a span's step has no legs)
        if notes:
            document = json.loads(payload)
            document["note"] = "\n\n".join(dict.fromkeys(notes))
            payload = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
        conn.execute("UPDATE steps SET kind = ?, round = ?, duration_ms = ?, started_at = ?, outcome = ?, payload = ?"
                     " WHERE id = ?", (kind, round_, duration_ms, started_at, outcome, payload, ids[0]))
        if len(ids) > 1:
            conn.execute(f"DELETE FROM steps WHERE id IN ({marks[3:]})", ids[1:])


def spans_of_payload(payload: str | bytes) -> frozenset[str]:
    """The span ids a step's payload was made of: its own span's, and a joined call's server side's."""
    try:
        otlp = json.loads(payload)["raw"]["otlp"]
        spans = (otlp.get("spanId"), (otlp.get("server") or {}).get("spanId"))
    except (ValueError, KeyError, TypeError, AttributeError):
        return frozenset()
    return frozenset(span for span in spans if isinstance(span, str) and span)
