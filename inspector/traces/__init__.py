"""Trace files: our format, OTLP JSON, sniffing, streaming JSON, redaction. No SQLite, no Qt."""

from .format import FORMAT_NAME, FORMAT_VERSION, TraceError, TraceImportError
from .redact import redact, redact_text
from .writer import FORMATS

__all__ = ["FORMATS", "FORMAT_NAME", "FORMAT_VERSION", "TraceError", "TraceImportError", "redact", "redact_text"]
