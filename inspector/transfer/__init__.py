"""Runs between trace files and the run store: an import reads with ``traces`` and writes with
``store``; an export the other way. No Qt."""

from .exporting import ExportReport, TraceDestinationError, TraceExportError, export
from .importing import ImportReport, TraceImportError, import_trace

__all__ = ["ExportReport", "ImportReport", "TraceDestinationError", "TraceExportError", "TraceImportError", "export",
           "import_trace"]
