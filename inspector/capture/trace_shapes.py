"""The OTLP JSON inside a Jaeger or Tempo answer, as one ``{"resourceSpans": [...]}`` document.

Jaeger's v3 API wraps the trace as ``{"result": {"resourceSpans": ...}}``, and streams one such
object per line when a trace comes in chunks; Tempo answers ``{"batches": [...]}`` (older
versions, with ``instrumentationLibrarySpans`` in place of ``scopeSpans``), ``{"resourceSpans":
[...]}``, or ``{"trace": {...}}`` (its v2 API). Only the wrapping is undone here: the spans are
checked by the OTLP import, like a file's.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.traces.otlp import read_trace_id


class NotOtlpError(ValueError):
    """The answer holds no OTLP trace; ``sentence`` says what it holds instead."""

    def __init__(self, message: Message) -> None:
        self.sentence = message
        super().__init__(str(message))


def otlp_document(backend: str, body: bytes) -> dict[str, Any]:
    """The trace in ``body`` as one OTLP JSON object with at least one span."""
    pieces = _json_pieces(body)
    resource_spans: list[Any] = []
    for piece in pieces:
        resource_spans.extend(_resource_spans(piece))
    if not any(_has_spans(item) for item in resource_spans):
        raise NotOtlpError(Message(N_("the trace has no spans")))
    return {"resourceSpans": resource_spans}


def trace_ids_in(document: dict[str, Any]) -> set[str]:
    """The trace ids the spans of an :func:`otlp_document` name, as the import reads them (an id it would
    refuse is left out: the import says what is wrong with it)."""
    return {found for item in document["resourceSpans"] for scope in _listed(item, "scopeSpans")
            for span in _listed(scope, "spans") if (found := read_trace_id(span.get("traceId"))) is not None}


def _listed(item: Any, key: str) -> list[dict[str, Any]]:
    found = item.get(key) if isinstance(item, dict) else None
    return [each for each in found if isinstance(each, dict)] if isinstance(found, list) else []


def _json_pieces(body: bytes) -> list[Any]:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise NotOtlpError(Message(N_("the answer is not UTF-8 text"))) from None
    try:
        return [json.loads(text)]
    except RecursionError:
        raise NotOtlpError(Message(N_("the answer nests too deeply"))) from None
    except ValueError:
        pass
    pieces = []
    for line in text.splitlines():  # a streamed answer: one JSON object per line
        if line.strip():
            try:
                pieces.append(json.loads(line))
            except RecursionError:
                raise NotOtlpError(Message(N_("the answer nests too deeply"))) from None
            except ValueError:
                raise NotOtlpError(Message(N_("the answer is not JSON"))) from None
    if not pieces:
        raise NotOtlpError(Message(N_("the answer is empty")))
    return pieces


def _resource_spans(piece: Any) -> list[Any]:
    if not isinstance(piece, dict):
        raise NotOtlpError(Message(N_("the answer is not a JSON object")))
    if isinstance(piece.get("error"), dict):  # Jaeger's gateway: {"error": {"httpCode": 404, "message": ...}}
        said = str(piece["error"].get("message", ""))[:300]
        raise NotOtlpError(Message(N_("the service reported an error: {message}"), {"message": said}))
    for wrapper in ("result", "trace"):
        if isinstance(piece.get(wrapper), dict):
            piece = piece[wrapper]
    found = piece.get("resourceSpans", piece.get("batches"))
    if not isinstance(found, list):
        keys = ", ".join(sorted(map(str, piece))[:5]) or "none"
        raise NotOtlpError(Message(N_("it has neither 'resourceSpans' nor 'batches'; its keys: {keys}"),
                                   {"keys": keys}))
    return [_scope_spans_named(item) for item in found]


def _scope_spans_named(item: Any) -> Any:
    """An older ``instrumentationLibrarySpans`` item under the name OTLP uses now."""
    if not isinstance(item, dict) or "scopeSpans" in item or "instrumentationLibrarySpans" not in item:
        return item
    renamed = {key: value for key, value in item.items() if key != "instrumentationLibrarySpans"}
    libraries = item["instrumentationLibrarySpans"]
    if isinstance(libraries, list):
        renamed["scopeSpans"] = [
            {("scope" if key == "instrumentationLibrary" else key): value for key, value in library.items()}
            if isinstance(library, dict) else library for library in libraries]
    else:
        renamed["scopeSpans"] = libraries
    return renamed


def _has_spans(item: Any) -> bool:
    scopes = item.get("scopeSpans") if isinstance(item, dict) else None
    return isinstance(scopes, list) and any(
        isinstance(scope, dict) and isinstance(scope.get("spans"), list) and scope["spans"] for scope in scopes)
