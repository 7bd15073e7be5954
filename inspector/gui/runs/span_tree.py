"""The span tree of a run imported from a trace: :mod:`inspector.store.span_tree` (the command line's
``runs show`` lays runs out with it too)."""

from inspector.store.span_tree import SpanTree, TreeRows

__all__ = ["SpanTree", "TreeRows"]
