"""Runs that travel beyond this machine's database: pushed to a team's OpenTelemetry collector
(an outbox in the database, retried with backoff), pulled by trace id from Jaeger or Tempo, and
received live by the OTLP/HTTP trace receiver (``run-inspector receive``) or recorded as they
happen by the recording proxy (``run-inspector proxy``).

No Qt: the window drives these from a worker thread, the command line directly."""

from __future__ import annotations

from .live_traces import QUIET_S, RunReceived
from .receiver import DEFAULT_HOST, DEFAULT_PORT, ReceiverError, ReceiverOptions, TraceReceiver, is_loopback

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "QUIET_S", "ReceiverError", "ReceiverOptions", "RunReceived",
           "TraceReceiver", "is_loopback"]
