"""What a server offers besides tools: resources, resource templates, prompts, and completion.

Each is an operation of its own (see :meth:`.client.McpClient._operate`): one deadline spent across
its legs (the handshake's, then every page of a listing), cancellable, in both eras, reported to
the observer like a tool call. Results are plain data read defensively: a server's text is kept as
characters (shown plain by every caller), a binary content is named with its type and size and
kept as its base64 text, never decoded here.

Methods (MCP 2025-06-18 and later): ``resources/list``, ``resources/templates/list``,
``resources/read``, ``prompts/list``, ``prompts/get``, ``completion/complete``.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import McpTransportError
from .messages import N_, Message
from .page_cursors import CursorTrail

if TYPE_CHECKING:
    from .cancel import CancelSignal
    from .client import McpClient
    from .reports import OperationObserver
    from .server import ServerEndpoint

#: The most pages one listing walks (as the tool catalogue).
MAX_PAGES = 50
#: The most values one completion answer keeps (the specification caps a response at 100).
MAX_COMPLETIONS = 100


@dataclass(frozen=True)
class Listing:
    """Every page of one listing: the items (objects as the server sent them) and the pages walked."""

    method: str
    items: list[dict[str, Any]]
    pages: int

    def names(self, key: str = "name") -> list[str]:
        return [str(item.get(key, "")) for item in self.items]


@dataclass(frozen=True)
class ResourceContent:
    """One content of ``resources/read``: text as it came, or a binary's type, size and base64 text."""

    uri: str
    mime_type: str | None
    text: str | None = None
    blob: str | None = None
    #: The decoded size of a binary (``None``: its base64 text is not valid base64).
    size: int | None = None

    @property
    def is_image(self) -> bool:
        return self.blob is not None and (self.mime_type or "").startswith("image/")


@dataclass(frozen=True)
class ReadResource:
    uri: str
    contents: list[ResourceContent]


@dataclass(frozen=True)
class PromptMessage:
    """One message of a prompt: its role and its content (text as it came; another kind named)."""

    role: str
    kind: str
    text: str | None = None
    content: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Prompt:
    name: str
    description: str | None
    messages: list[PromptMessage]


@dataclass(frozen=True)
class Completion:
    values: list[str]
    total: int | None
    has_more: bool


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _malformed(server: ServerEndpoint, method: str, what: str) -> McpTransportError:
    return McpTransportError.malformed(server.label, method, Message(what))


async def _walk(op: Any, server: ServerEndpoint, method: str, key: str) -> Listing:
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    trail = CursorTrail(server.label, method)
    for page in range(1, MAX_PAGES + 1):
        result = await op.request(method, {} if cursor is None else {"cursor": cursor}, is_work=True)
        listed = result.get(key)
        if not isinstance(listed, list):
            raise McpTransportError.malformed(server.label, method, Message(N_("its result has no list {key}"),
                                                                            {"key": key}))
        items.extend(item for item in listed if isinstance(item, dict))
        next_cursor = result.get("nextCursor")
        if not isinstance(next_cursor, str) or not next_cursor:
            return Listing(method, items, page)
        cursor = trail.follow(next_cursor, page)
    raise McpTransportError.malformed(server.label, method, Message(N_("the listing did not end within {count} pages"),
                                                                    {"count": MAX_PAGES}))


def _content(item: Any, uri: str) -> ResourceContent | None:
    if not isinstance(item, dict):
        return None
    own_uri = _text(item.get("uri")) or uri
    mime = _text(item.get("mimeType"))
    text, blob = _text(item.get("text")), _text(item.get("blob"))
    if text is not None:
        return ResourceContent(own_uri, mime, text=text)
    if blob is not None:
        try:
            size: int | None = len(base64.b64decode(blob, validate=True))
        except (binascii.Error, ValueError):
            size = None
        return ResourceContent(own_uri, mime, blob=blob, size=size)
    return None


def _message(item: Any) -> PromptMessage | None:
    if not isinstance(item, dict):
        return None
    role = _text(item.get("role")) or "?"
    content = item.get("content")
    if not isinstance(content, dict):
        return PromptMessage(role, "?")
    kind = _text(content.get("type")) or "?"
    return PromptMessage(role, kind, _text(content.get("text")) if kind == "text" else None, content)


class Offerings:
    """The operations on what a server offers besides tools, made through ``client``."""

    def __init__(self, client: McpClient) -> None:
        self.client = client

    async def _operate(self, method: str, server: ServerEndpoint, work: Any, budget_s: object,
                       cancel: CancelSignal | None, observer: OperationObserver | None, wire: str | None) -> Any:
        return await self.client._operate(method, server, work, budget_s, cancel, observer, wire)  # noqa: SLF001

    async def list_resources(self, server: ServerEndpoint, *, budget_s: object = None,
                             cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                             wire: str | None = None) -> Listing:
        """Every page of ``resources/list``."""
        return await self._operate("resources/list", server,
                                   lambda op: _walk(op, server, "resources/list", "resources"),
                                   budget_s, cancel, observer, wire)

    async def list_templates(self, server: ServerEndpoint, *, budget_s: object = None,
                             cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                             wire: str | None = None) -> Listing:
        """Every page of ``resources/templates/list``."""
        return await self._operate("resources/templates/list", server,
                                   lambda op: _walk(op, server, "resources/templates/list", "resourceTemplates"),
                                   budget_s, cancel, observer, wire)

    async def read(self, server: ServerEndpoint, uri: str, *, budget_s: object = None,
                   cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                   wire: str | None = None) -> ReadResource:
        """``resources/read`` of ``uri`` (a ``resource_link`` of a tool result is read the same way)."""

        async def work(op: Any) -> ReadResource:
            result = await op.request("resources/read", {"uri": uri}, is_work=True)
            contents = result.get("contents")
            if not isinstance(contents, list):
                raise _malformed(server, "resources/read", N_("its result has no list of contents"))
            return ReadResource(uri, [read for read in (_content(item, uri) for item in contents) if read])

        return await self._operate("resources/read", server, work, budget_s, cancel, observer, wire)

    async def list_prompts(self, server: ServerEndpoint, *, budget_s: object = None,
                           cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                           wire: str | None = None) -> Listing:
        """Every page of ``prompts/list``."""
        return await self._operate("prompts/list", server, lambda op: _walk(op, server, "prompts/list", "prompts"),
                                   budget_s, cancel, observer, wire)

    async def get_prompt(self, server: ServerEndpoint, name: str, arguments: dict[str, str] | None = None, *,
                         budget_s: object = None, cancel: CancelSignal | None = None,
                         observer: OperationObserver | None = None, wire: str | None = None) -> Prompt:
        """``prompts/get`` of ``name`` filled with ``arguments`` (strings, as the specification has them)."""

        async def work(op: Any) -> Prompt:
            result = await op.request("prompts/get", {"name": name, "arguments": arguments or {}}, is_work=True)
            messages = result.get("messages")
            if not isinstance(messages, list):
                raise _malformed(server, "prompts/get", N_("its result has no list of messages"))
            return Prompt(name, _text(result.get("description")),
                          [shown for shown in (_message(item) for item in messages) if shown])

        return await self._operate("prompts/get", server, work, budget_s, cancel, observer, wire)

    async def complete(self, server: ServerEndpoint, ref: dict[str, str], argument: str, value: str,
                       context: dict[str, str] | None = None, *, budget_s: object = None,
                       cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                       wire: str | None = None) -> Completion:
        """``completion/complete`` of ``argument`` (typed so far: ``value``) of a prompt or a
        resource template (``ref``: ``{"type": "ref/prompt", "name": …}`` or ``ref/resource`` with ``uri``)."""

        async def work(op: Any) -> Completion:
            params: dict[str, Any] = {"ref": ref, "argument": {"name": argument, "value": value}}
            if context:
                params["context"] = {"arguments": context}
            result = await op.request("completion/complete", params, is_work=True)
            completion = result.get("completion")
            if not isinstance(completion, dict) or not isinstance(completion.get("values"), list):
                raise _malformed(server, "completion/complete", N_("its result has no list of values"))
            values = [item for item in completion["values"] if isinstance(item, str)][:MAX_COMPLETIONS]
            total = completion.get("total")
            return Completion(values, total if isinstance(total, int) and not isinstance(total, bool) else None,
                              completion.get("hasMore") is True)

        return await self._operate("completion/complete", server, work, budget_s, cancel, observer, wire)


__all__ = ["Completion", "Listing", "Offerings", "Prompt", "PromptMessage", "ReadResource", "ResourceContent"]
