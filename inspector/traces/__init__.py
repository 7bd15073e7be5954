"""Trace files: our format, OTLP JSON, sniffing, streaming JSON, redaction. No SQLite, no Qt."""

from __future__ import annotations

import importlib
from typing import Any

from .format import FORMAT_NAME, FORMAT_VERSION, TraceError, TraceImportError
from .redact import redact, redact_text

# The writers (our format, OTLP) load on first use: a `call` redacts text but writes no trace.
_LAZY = {"FORMATS": "writer"}

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "TraceError", "TraceImportError", "redact", "redact_text", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
