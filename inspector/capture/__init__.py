"""Live runs from elsewhere: the OTLP/HTTP trace receiver (``run-inspector receive``). No Qt."""

from __future__ import annotations

from .live_traces import QUIET_S, RunReceived
from .receiver import DEFAULT_HOST, DEFAULT_PORT, ReceiverError, ReceiverOptions, TraceReceiver, is_loopback

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "QUIET_S", "ReceiverError", "ReceiverOptions", "RunReceived",
           "TraceReceiver", "is_loopback"]
