"""Tool arguments mirrored into ``Mcp-Param-*`` headers, and the tools whose annotations forbid it.

In the stateless era (2026-07-28, SEP-2243) a tool may mark properties of its ``inputSchema``
with ``"x-mcp-header": "Name"``; over HTTP the client repeats each such argument of a
``tools/call`` in the header ``Mcp-Param-Name``, so that gateways can route on it without
reading bodies. A tool whose annotations break the rules is invalid: the client must not call
it, and the inspector lists it apart with the reason (never drops it silently).

Pure functions of the tool's definition and the arguments; nothing here touches the network.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .messages import N_, Message
from .stateless import header_safe

ANNOTATION = "x-mcp-header"
HEADER_PREFIX = "Mcp-Param-"
#: JavaScript's safe integers: the range an integer argument may have to be mirrored.
MAX_SAFE_INTEGER = 2**53 - 1
#: The JSON types an annotated property may have.
PRIMITIVE_TYPES = ("string", "integer", "boolean")
#: RFC 9110 ``token``: one or more ``tchar``.
_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
#: Keywords whose value is a map of names to schemas, and those whose value is a schema or a list
#: of schemas: the only places an annotation can hide (``default``, ``enum``, ``examples`` hold data).
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_SLOTS = ("items", "prefixItems", "additionalItems", "contains", "additionalProperties",
                 "unevaluatedProperties", "unevaluatedItems", "propertyNames", "anyOf", "oneOf", "allOf",
                 "not", "if", "then", "else")
#: How many schema nodes one tool's walk visits at most (a hostile schema may be huge).
MAX_NODES = 10_000
_SHOWN_CHARS = 80


def _quoted(text: str) -> str:
    """A name or header as a sentence quotes it: JSON-escaped (controls visible), clipped."""
    clipped = text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "…"
    return json.dumps(clipped, ensure_ascii=False)


def _annotations(schema: dict[str, Any]) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every schema node carrying the annotation, with the path of keywords and names to it."""
    found: list[tuple[tuple[str, ...], dict[str, Any]]] = []
    stack: list[tuple[tuple[str, ...], Any]] = [((), schema)]
    visited = 0
    while stack and visited < MAX_NODES:
        path, node = stack.pop()
        if not isinstance(node, dict):
            continue
        visited += 1
        if ANNOTATION in node:
            found.append((path, node))
        for keyword in _SCHEMA_MAPS:
            members = node.get(keyword)
            if isinstance(members, dict):
                stack.extend(((*path, keyword, str(name)), member) for name, member in members.items())
        for keyword in _SCHEMA_SLOTS:
            value = node.get(keyword)
            if isinstance(value, list):
                stack.extend(((*path, keyword, str(index)), member) for index, member in enumerate(value))
            elif isinstance(value, dict):
                stack.append(((*path, keyword), value))
    found.sort(key=lambda item: item[0])
    return found


def _property_path(path: tuple[str, ...]) -> tuple[str, ...] | None:
    """The property names of a pure ``properties`` chain from the root, else ``None``."""
    if not path or len(path) % 2:
        return None
    if any(keyword != "properties" for keyword in path[0::2]):
        return None
    return path[1::2]


def _declared_type(node: dict[str, Any]) -> str | None:
    """The one primitive type a property declares (``["string", "null"]`` counts as string)."""
    kind = node.get("type")
    if isinstance(kind, list):
        kinds = [item for item in kind if item != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    return kind if kind in PRIMITIVE_TYPES else None


def _type_words(node: dict[str, Any]) -> str:
    kind = node.get("type")
    if isinstance(kind, str):
        return kind
    if isinstance(kind, list):
        return " or ".join(str(item) for item in kind)
    return "none"


def tool_header_problem(tool: dict[str, Any]) -> Message | None:
    """Why the tool's ``x-mcp-header`` annotations make it invalid (one sentence naming the
    property and the rule), or ``None`` when it has none or they are all valid."""
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict):
        return None
    seen: dict[str, tuple[str, str]] = {}
    for path, node in _annotations(schema):
        names = _property_path(path)
        header = node[ANNOTATION]
        if names is None:
            location = "/" + "/".join(path) if path else "/"
            return Message(N_("The x-mcp-header annotation at {location} in the tool's input schema is not on a "
                              "property reached through \"properties\" alone from the top (items, anyOf, oneOf, "
                              "allOf, not, if/then/else, $ref and $defs are not allowed)."),
                           {"location": _quoted(location)})
        prop = _quoted(".".join(names))
        if not isinstance(header, str):
            return Message(N_("The x-mcp-header annotation of the property {property} is not text."),
                           {"property": prop})
        if not header:
            return Message(N_("The x-mcp-header annotation of the property {property} is empty; a header name "
                              "must not be empty."), {"property": prop})
        if any(ord(char) < 0x20 or ord(char) > 0x7e for char in header):
            return Message(N_("The x-mcp-header annotation {header} of the property {property} holds control "
                              "characters or characters outside ASCII, which a header name must not."),
                           {"header": _quoted(header), "property": prop})
        if not _TOKEN.match(header):
            return Message(N_("The x-mcp-header annotation {header} of the property {property} is not a valid "
                              "HTTP header name: only letters, digits and !#$%&'*+-.^_`|~ are allowed (RFC 9110)."),
                           {"header": _quoted(header), "property": prop})
        if _declared_type(node) is None:
            return Message(N_("The x-mcp-header annotation {header} is on the property {property} of type {type}; "
                              "only string, integer and boolean properties can be sent as headers."),
                           {"header": _quoted(header), "property": prop, "type": _type_words(node)})
        earlier = seen.get(header.lower())
        if earlier is not None:
            return Message(N_("The properties {first} and {second} both have the x-mcp-header annotation {header} "
                              "(header names are compared without regard to case)."),
                           {"first": earlier[0], "second": prop, "header": _quoted(header)})
        seen[header.lower()] = (prop, header)
    return None


def split_catalogue(tools: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], Message]]]:
    """The tools that may be called, and those excluded with the reason, each in the server's order."""
    valid: list[dict[str, Any]] = []
    excluded: list[tuple[dict[str, Any], Message]] = []
    for tool in tools:
        problem = tool_header_problem(tool)
        if problem is None:
            valid.append(tool)
        else:
            excluded.append((tool, problem))
    return valid, excluded


def _header_value(value: Any) -> str | None:
    """An argument as a header value, or ``None`` when it has no header form (left out)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER else None
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_SAFE_INTEGER:
        return str(int(value))  # 42.0 as JSON gave it: the integer the server reads
    if isinstance(value, str):
        return header_safe(value)
    return None


def param_headers(tool: dict[str, Any], arguments: dict[str, Any] | None) -> dict[str, str]:
    """The ``Mcp-Param-{Name}`` headers of a ``tools/call``: each annotated argument that is present
    and not null: text as it is (or its ``=?base64?…?=`` form), integers in decimal, booleans as
    ``true``/``false``. Empty for a tool whose annotations are invalid (it must not be called) or
    that has none. A value with no header form (an object, an integer beyond ±(2^53-1)) is left
    out: the server then says what it misses."""
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict) or not isinstance(arguments, dict) or tool_header_problem(tool) is not None:
        return {}
    headers: dict[str, str] = {}
    for path, node in _annotations(schema):
        names = _property_path(path) or ()
        value: Any = arguments
        for name in names:
            value = value.get(name) if isinstance(value, dict) else None
        shown = None if value is None else _header_value(value)
        if shown is not None:
            headers[HEADER_PREFIX + node[ANNOTATION]] = shown
    return headers


__all__ = ["ANNOTATION", "HEADER_PREFIX", "MAX_SAFE_INTEGER", "param_headers", "split_catalogue",
           "tool_header_problem"]
