"""The OpenTelemetry ids of a run: its trace id and the span ids of its run, steps and legs.

Derived from the run's uid, so the spans our OTLP export writes, the W3C ``traceparent`` our
requests carry and a server's spans that joined that trace all name the same ids, on any machine.
"""

from __future__ import annotations

import hashlib

__all__ = ["leg_span_id", "span_id", "step_span_id", "trace_id"]


def trace_id(uid: str) -> str:
    """The trace id of a run: 32 hex digits derived from its uid, so a re-export keeps it."""
    return hashlib.sha256(f"run-inspector/{uid}".encode()).hexdigest()[:32]


def span_id(uid: str, *parts: object) -> str:
    """A span id (16 hex digits) derived from the run uid and the span's place in the run."""
    text = "/".join([uid, *map(str, parts)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def step_span_id(uid: str, sequence: int) -> str:
    """The span of step ``sequence`` of the run ``uid``."""
    return span_id(uid, "step", sequence)


def leg_span_id(uid: str, sequence: int, position: int) -> str:
    """The span of the leg at ``position`` (from 0) of step ``sequence``: the request on the wire."""
    return span_id(uid, "step", sequence, "leg", position)
