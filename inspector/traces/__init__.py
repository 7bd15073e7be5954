"""Trace files: our format, OTLP JSON, sniffing, streaming JSON, redaction. No SQLite, no Qt."""

from __future__ import annotations

import importlib
from typing import Any

from .redact import redact, redact_text

# The format's checks and the writers (our format, OTLP) load on first use: a `call` redacts
# text but reads and writes no trace.
_LAZY = {"FORMATS": "writer", "FORMAT_NAME": "format", "FORMAT_VERSION": "format", "TraceError": "format",
         "TraceImportError": "format"}

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "TraceError", "TraceImportError", "redact", "redact_text", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
