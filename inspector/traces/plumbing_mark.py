"""The importer's rule of plumbing: which spans a step keeps marked ``raw.otlp.plumbing``.

A span is plumbing when its convention says so (:mod:`.conventions`: Traceloop's stream writers, OpenLIT's
``mcp transport/request`` and its set-up) or when it is a session's plumbing (:mod:`.session_plumbing`). The rule
is asked of a span as a file or a collector gives it (:func:`~.foreign.read_side`), and again of a span as a step
keeps it (its ``raw.otlp``, a joined call's server side its ``raw.otlp.server``): a database whose steps were
imported before a part of the rule was written gets the marks a fresh import would give (schema version 14,
:mod:`inspector.store.plumbing_upgrade`), and so does a file in our format an older version exported (its steps
as that version kept them: :func:`mark_kept_spans`, asked by :mod:`.reader`). A mark a step has is kept as it is.
No I/O, no SQLite, no Qt.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .conventions import Meaning, understand
from .session_plumbing import is_session_plumbing

__all__ = ["kept_span_is_plumbing", "mark_kept_spans", "marks_plumbing", "missing_marks"]


def marks_plumbing(meaning: Meaning, parent_id: str, attributes: Mapping[str, Any], scope_name: str) -> bool:
    """Whether a span (what :func:`~.conventions.understand` read of it, its parent's id, ``""`` for none; its
    attributes and scope name) is marked plumbing."""
    return meaning.plumbing or is_session_plumbing(parent_id, attributes, scope_name, meaning.convention,
                                                   meaning.method)


def kept_span_is_plumbing(kept: Mapping[str, Any]) -> bool:
    """Whether the importer marks plumbing the span a step keeps (``raw.otlp`` or ``raw.otlp.server``: its name,
    kind, parent, attributes, scope and events, as :func:`~.foreign.read_side` kept them). A kept span that is not
    one as the importer writes it (a part of another type) is not plumbing."""
    name, kind, parent_id = kept.get("name"), kept.get("kind"), kept.get("parentSpanId", "")
    attributes, scope, events = kept.get("attributes"), kept.get("scope"), kept.get("events")
    scope_name = scope.get("name", "") if isinstance(scope, Mapping) else ""
    if not (isinstance(name, str) and isinstance(kind, (int, str)) and not isinstance(kind, bool)
            and isinstance(parent_id, str) and isinstance(attributes, Mapping) and isinstance(scope_name, str)
            and (events is None or isinstance(events, list) and all(isinstance(event, Mapping) for event in events))):
        return False
    return marks_plumbing(understand(name, kind, attributes, scope_name, events), parent_id, attributes, scope_name)


def missing_marks(kept: Mapping[str, Any]) -> tuple[bool, bool]:
    """Whether the rule marks plumbing the span a step keeps (``raw.otlp``) and its server side (``server``), each
    of the two that has no mark (``plumbing``, whatever its value) yet."""
    side = kept.get("server")
    return ("plumbing" not in kept and kept_span_is_plumbing(kept),
            isinstance(side, Mapping) and "plumbing" not in side and kept_span_is_plumbing(side))


def mark_kept_spans(payload: Any) -> None:
    """Add the marks :func:`missing_marks` finds to a request step's ``payload`` as a file brought it (a ``true`` at
    the end of the span's object); any other payload is left as it is. As the upgrade, only request steps are asked:
    the parts of the rule written since older versions marked spans mark request spans alone (a session's set-up, a
    notification, a log), and a tool's or a model's span is the dearest to read again (its arguments, its result)."""
    raw = payload.get("raw") if type(payload) is dict and payload.get("kind") == "request" else None
    kept = raw.get("otlp") if type(raw) is dict else None
    if type(kept) is not dict:
        return
    own, server = missing_marks(kept)
    if own:
        kept["plumbing"] = True
    if server:
        kept["server"]["plumbing"] = True
