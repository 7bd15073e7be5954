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
