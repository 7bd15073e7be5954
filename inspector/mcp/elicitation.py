"""Form-mode elicitation: reading the requested schema, its defaults, and the simple answers.

The requested schema is a flat object of primitive properties (string, number, integer,
boolean, enum of strings); each may carry a ``default``. A form (the window's, or the
terminal's) is built from :func:`form_fields`; a schema it cannot read gives ``None``, and the
window then falls back to a JSON editor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .server_requests import ElicitationRequest

PRIMITIVE_TYPES = ("string", "number", "integer", "boolean")


@dataclass(frozen=True)
class FormField:
    """One property of a requested schema."""

    name: str
    kind: str  # string, number, integer, boolean
    title: str
    description: str
    required: bool
    #: The allowed values of an enum (strings), else ``None``.
    choices: tuple[str, ...] | None = None
    has_default: bool = False
    default: Any = None


def form_fields(schema: Any) -> list[FormField] | None:
    """The fields of a flat requested schema, in order; ``None`` when it is not one."""
    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        return None
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    if not isinstance(properties, dict) or not isinstance(required, list):
        return None
    fields = []
    for name, prop in properties.items():
        if not isinstance(prop, dict):
            return None
        kind = prop.get("type")
        choices = prop.get("enum")
        if choices is None and isinstance(prop.get("oneOf"), list):
            choices = [option.get("const") for option in prop["oneOf"] if isinstance(option, dict)]
        if kind not in PRIMITIVE_TYPES:
            return None
        if choices is not None and (not isinstance(choices, list) or not all(isinstance(c, str) for c in choices)):
            return None
        fields.append(FormField(
            name=name, kind=kind, title=str(prop.get("title") or name), description=str(prop.get("description") or ""),
            required=name in required, choices=tuple(choices) if choices is not None else None,
            has_default="default" in prop, default=prop.get("default")))
    return fields


def defaults_content(schema: Any) -> dict[str, Any] | None:
    """The answer made of the schema's defaults; ``None`` when a required field has none
    (or the schema is not a flat form)."""
    fields = form_fields(schema)
    if fields is None:
        return None
    content: dict[str, Any] = {}
    for item in fields:
        if item.has_default:
            content[item.name] = item.default
        elif item.required:
            return None
    return content


async def decline_all(request: ElicitationRequest) -> dict[str, Any]:
    """Answer every question with ``decline``."""
    return {"action": "decline"}


async def cancel_all(request: ElicitationRequest) -> dict[str, Any]:
    """Answer every question with ``cancel``."""
    return {"action": "cancel"}


async def accept_defaults(request: ElicitationRequest) -> dict[str, Any]:
    """Accept with the schema's defaults; decline when a required field has no default."""
    content = defaults_content(request.schema)
    if content is None:
        return {"action": "decline"}
    return {"action": "accept", "content": content}
