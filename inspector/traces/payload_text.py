"""The stored JSON of foreign steps, with each resource's JSON made once.

Every step of another tool's span keeps the span's resource under ``raw.otlp.resource`` (and its
server side's under ``raw.otlp.server.resource``): the same attributes, often a few hundred
characters, for every span a process wrote. :class:`PayloadText` encodes a payload with those
parts stood in for by markers and puts each part's JSON, made once per resource, in their place:
the text is exactly what encoding the whole payload makes (JSON is written the same wherever a
value sits), and a payload whose text holds a marker of its own is simply encoded whole. No I/O.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["PayloadText"]

# As the store writes a payload (run_store._PAYLOAD_ENCODER).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_CLIENT, _SERVER = "\x00run-inspector resource\x00", "\x00run-inspector server resource\x00"
_KEPT = 64


class PayloadText:
    """Encodes the payloads of one import; keeps the JSON of the last :data:`_KEPT` resources seen."""

    def __init__(self) -> None:
        # id of a resource's attributes → (those attributes, kept alive so the id stays theirs; a copy
        # to tell they are unchanged; their JSON)
        self._texts: dict[int, tuple[dict[str, Any], dict[str, Any], str]] = {}
        self._client_marker, self._server_marker = _ENCODER.encode(_CLIENT), _ENCODER.encode(_SERVER)

    def text(self, payload: dict[str, Any]) -> str:
        """``payload`` as compact JSON (see the module's note)."""
        raw = payload.get("raw")
        otlp = raw.get("otlp") if type(raw) is dict else None
        if type(otlp) is not dict:
            return _ENCODER.encode(payload)
        server = otlp.get("server")
        if type(server) is not dict:
            server = None
        client_resource = self._part(otlp.get("resource"))
        server_resource = self._part(server.get("resource")) if server is not None else None
        if client_resource is None and server_resource is None:
            return _ENCODER.encode(payload)
        replaced = []
        try:
            if client_resource is not None:
                replaced.append((otlp, otlp["resource"]))
                otlp["resource"] = _CLIENT
            if server_resource is not None:
                replaced.append((server, server["resource"]))
                server["resource"] = _SERVER
            text = _ENCODER.encode(payload)
        finally:
            for holder, value in replaced:
                holder["resource"] = value
        for marker, part in ((self._client_marker, client_resource), (self._server_marker, server_resource)):
            if part is not None:
                if text.count(marker) != 1:  # the payload spells a marker itself
                    return _ENCODER.encode(payload)
                text = text.replace(marker, part, 1)
        return text

    def _part(self, resource: Any) -> str | None:
        """The JSON of ``{"attributes": {...}}`` (a resource as ``raw.otlp`` holds it), made once."""
        if type(resource) is not dict or len(resource) != 1 or type(resource.get("attributes")) is not dict:
            return None
        attributes = resource["attributes"]
        kept = self._texts.get(id(attributes))
        if kept is not None and kept[0] is attributes and kept[1] == attributes:
            return kept[2]
        text = _ENCODER.encode(resource)
        if len(self._texts) >= _KEPT:
            self._texts.clear()
        self._texts[id(attributes)] = (attributes, dict(attributes), text)
        return text
