"""What a successful operation returns."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

NO_TEXT_SENTENCE = "The tool returned no textual content."


@dataclass(frozen=True)
class ToolCallResult:
    """The answer of ``tools/call``. ``is_error`` means the tool itself reported a failure."""

    tool: str
    content: str
    is_error: bool
    structured_content: dict[str, Any] | None = None
    #: Non-text blocks that were not turned into text, by kind.
    dropped_blocks: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_result(cls, tool: str, result: dict[str, Any]) -> ToolCallResult:
        blocks = result.get("content")
        texts: list[str] = []
        dropped: Counter[str] = Counter()
        if isinstance(blocks, list):
            for block in blocks:
                kind = block.get("type") if isinstance(block, dict) else None
                if kind == "text" and isinstance(block.get("text"), str):
                    texts.append(block["text"])
                else:
                    dropped[kind if kind in ("image", "audio", "resource", "resource_link") else "other"] += 1
        content = "\n".join(texts)
        if dropped:
            total = sum(dropped.values())
            kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(dropped.items()))
            note = f"[{total} non-text block(s) not shown: {kinds}]"
            content = f"{note}\n{content}" if content else note
        if not content:
            content = NO_TEXT_SENTENCE
        structured = result.get("structuredContent")
        return cls(
            tool=tool,
            content=content,
            is_error=result.get("isError") is True,
            structured_content=structured if isinstance(structured, dict) else None,
            dropped_blocks=dict(dropped),
        )


@dataclass(frozen=True)
class ToolArgument:
    """One argument of a tool, as its input schema declares it."""

    name: str
    #: The JSON Schema type in a few words, e.g. ``string``, ``integer or null``, ``any``.
    type: str
    required: bool


def tool_arguments(tool: dict[str, Any]) -> list[ToolArgument]:
    """The arguments a tool's ``inputSchema`` declares, in the schema's order.

    A schema that is missing or not an object of properties gives no arguments; a property
    whose type cannot be read is shown as ``any`` rather than dropped.
    """
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict):
        return []
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return []
    required = schema.get("required")
    required_names = {name for name in required if isinstance(name, str)} if isinstance(required, list) else set()
    return [ToolArgument(str(name), _schema_type(spec), name in required_names)
            for name, spec in properties.items()]


def _schema_type(spec: Any, depth: int = 0) -> str:
    """A JSON Schema's type in words; alternatives (a type list, anyOf, oneOf) joined by "or"."""
    if not isinstance(spec, dict) or depth > 3:
        return "any"
    kind = spec.get("type")
    if isinstance(kind, str):
        if kind == "array" and isinstance(spec.get("items"), dict):
            return f"array of {_schema_type(spec['items'], depth + 1)}"
        return kind
    if isinstance(kind, list):
        names = [item for item in kind if isinstance(item, str)]
        if names:
            return " or ".join(names)
    for combined in ("anyOf", "oneOf"):
        options = spec.get(combined)
        if isinstance(options, list) and options:
            names = []
            for option in options:
                name = _schema_type(option, depth + 1)
                if name not in names:
                    names.append(name)
            return " or ".join(names)
    if isinstance(spec.get("enum"), list):
        return "enum"
    if isinstance(spec.get("$ref"), str):
        return spec["$ref"].rsplit("/", 1)[-1] or "any"
    return "any"


@dataclass(frozen=True)
class ToolCatalogue:
    """The tools a server offers, gathered across all pages of ``tools/list``."""

    tools: list[dict[str, Any]]
    pages: int

    @property
    def names(self) -> list[str]:
        return [str(tool.get("name", "")) for tool in self.tools]


@dataclass(frozen=True)
class PingResult:
    """What the handshake told us about the server, and how fast it answered ``ping``."""

    protocol_version: str
    server_name: str | None
    server_version: str | None
    #: How long the ``ping`` request took, from sending it to its answer (milliseconds).
    latency_ms: float | None = None
