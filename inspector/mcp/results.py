"""What a successful operation returns."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .annotations import kept_annotations
from .images import ImagePart, image_parts
from .messages import N_, NP_, Message, said_together

NO_TEXT_SENTENCE = N_("The tool returned no textual content.")
#: What the model, the stored step and ``call`` say of a tool that reported an error, before the tool's own
#: text, in the words of the Workbench's sentence ("the tool fail on Demo server reported an error"): the
#: server by its name or address, never "the server demo server".
TOOL_REPORTED_ERROR = N_("The tool {tool} on {server} reported an error:")
#: The sentence steps stored before said it in: kept in the catalogue, so they still read in German.
RETIRED_TOOL_REPORTED_ERROR = N_("The tool {tool} on the server {server} reported an error:")
#: The sentences of ours a tool's error is stored after: a cell with little room says the tool's own text first.
TOOL_ERROR_HEADS = frozenset({TOOL_REPORTED_ERROR, RETIRED_TOOL_REPORTED_ERROR})


#: The kinds of content block MCP defines besides text (each named in :func:`_kind_count`).
NON_TEXT_KINDS = frozenset({"image", "audio", "resource", "resource_link"})


@dataclass(frozen=True)
class ToolCallResult:
    """The answer of ``tools/call``. ``is_error`` means the tool itself reported a failure.

    ``content`` is the text the tool returned (its text blocks joined by newlines, after a
    note naming the blocks that are not text); ``blocks`` describes every content block in
    order (see :func:`describe_block`), so that nothing the server said is lost, except the
    bytes of binary data, of which only the size is kept; the images among them keep their
    base64 text apart, in ``images`` (bounded), for a viewer to draw.
    """

    tool: str
    content: str
    is_error: bool
    structured_content: dict[str, Any] | None = None
    #: Non-text blocks that were not turned into text, by kind.
    dropped_blocks: dict[str, int] = field(default_factory=dict)
    #: Every content block, described: type, MIME type, URI, name, size, text of text resources.
    blocks: tuple[dict[str, Any], ...] = ()
    #: The pictures the answer carried (base64, bounded: see :mod:`inspector.mcp.images`), and how
    #: many more it had beyond those kept.
    images: tuple[ImagePart, ...] = ()
    images_left_out: int = 0

    @classmethod
    def from_result(cls, tool: str, result: dict[str, Any]) -> ToolCallResult:
        blocks = result.get("content")
        texts: list[str] = []
        dropped: Counter[str] = Counter()
        described: list[dict[str, Any]] = []
        if isinstance(blocks, list):
            for block in blocks:
                described.append(describe_block(block))
                kind = block.get("type") if isinstance(block, dict) else None
                if kind == "text" and isinstance(block.get("text"), str):
                    texts.append(block["text"])
                else:
                    dropped[kind if kind in NON_TEXT_KINDS else "other"] += 1
        content = "\n".join(texts)
        if dropped:
            note = non_text_note(dropped)
            content = f"{note}\n{content}" if content else note
        if not content:
            content = NO_TEXT_SENTENCE
        structured = result.get("structuredContent")
        images, images_left_out = image_parts(blocks)
        return cls(
            tool=tool,
            content=content,
            is_error=result.get("isError") is True,
            structured_content=structured if isinstance(structured, dict) else None,
            dropped_blocks=dict(dropped),
            blocks=tuple(described),
            images=images,
            images_left_out=images_left_out,
        )


def non_text_note(dropped: dict[str, int]) -> str:
    """The note that starts a text answer with blocks that are not text, e.g.
    ``[3 blocks are not shown as text: 2 images, 1 resource link.]``."""
    return str(non_text_sentence(dropped))


def non_text_sentence(dropped: dict[str, int]) -> Message:
    """:func:`non_text_note` as a sentence a display layer says in the reader's language."""
    listed = said_together([_kind_count(kind, count) for kind, count in sorted(dropped.items())], ", ")
    return NP_("[{count} block is not shown as text: {kinds}.]", "[{count} blocks are not shown as text: {kinds}.]",
               {"count": sum(dropped.values()), "kinds": listed}, "count")


def _kind_count(kind: str, count: int) -> Message:
    said = {"count": count}
    if kind == "image":
        return NP_("{count} image", "{count} images", said, "count")
    if kind == "audio":
        return NP_("{count} audio clip", "{count} audio clips", said, "count")
    if kind == "resource":
        return NP_("{count} embedded resource", "{count} embedded resources", said, "count")
    if kind == "resource_link":
        return NP_("{count} resource link", "{count} resource links", said, "count")
    return NP_("{count} block of another kind", "{count} blocks of other kinds", said, "count")


def describe_block(block: Any) -> dict[str, Any]:
    """One content block as kept: its ``type`` and whichever of ``mimeType``, ``uri``, ``name``,
    ``title``, ``description``, ``size`` (bytes) and ``text`` (of a text resource) it has.

    Binary data (``data`` of images and audio, ``blob`` of resources) is never kept: its size
    is, counted from the base64 text. Text blocks keep their size; their text is the answer's
    ``content``. A value of the wrong type is left out rather than trusted. The block's valid
    ``annotations`` (audience, priority, last change: see :func:`.annotations.kept_annotations`)
    are kept beside the rest, under that key, when it has any.
    """
    if not isinstance(block, dict):
        return {"type": "other"}
    described = _described(block)
    annotations = kept_annotations(block.get("annotations"))
    if annotations is not None:
        described["annotations"] = annotations
    return described


def _described(block: dict[str, Any]) -> dict[str, Any]:
    kind = block.get("type")
    described: dict[str, Any] = {"type": kind if isinstance(kind, str) and kind else "other"}
    if kind == "text":
        text = block.get("text")
        if isinstance(text, str):
            described["size"] = _utf8_size(text)
        return described
    if kind in ("image", "audio"):
        _copy_strings(block, described, ("mimeType",))
        if isinstance(block.get("data"), str):
            described["size"] = base64_size(block["data"])
        return described
    if kind == "resource_link":
        _copy_strings(block, described, ("uri", "name", "title", "description", "mimeType"))
        size = block.get("size")
        if isinstance(size, int) and not isinstance(size, bool) and size >= 0:
            described["size"] = size
        return described
    if kind == "resource":
        resource = block.get("resource")
        if isinstance(resource, dict):
            _copy_strings(resource, described, ("uri", "name", "title", "mimeType"))
            if isinstance(resource.get("text"), str):
                described["size"] = _utf8_size(resource["text"])
                described["text"] = resource["text"]
            elif isinstance(resource.get("blob"), str):
                described["size"] = base64_size(resource["blob"])
        return described
    return described


def base64_size(data: str) -> int:
    """How many bytes a base64 text decodes to (without decoding it; whitespace ignored)."""
    length = sum(1 for char in data if not char.isspace())
    padding = len(data.rstrip()) - len(data.rstrip().rstrip("="))
    return max(0, length * 3 // 4 - min(padding, 2))


def _copy_strings(source: dict[str, Any], target: dict[str, Any], keys: tuple[str, ...]) -> None:
    for key in keys:
        value = source.get(key)
        if isinstance(value, str):
            target[key] = value


def _utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


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
    """The tools a server offers, gathered across all pages of ``tools/list``.

    ``excluded``: the tools the server listed that must not be called (e.g. an invalid
    ``x-mcp-header`` annotation, see :func:`.param_headers.split_catalogue`), each with the
    reason; shown apart from ``tools``, never dropped silently."""

    tools: list[dict[str, Any]]
    pages: int
    excluded: list[tuple[dict[str, Any], Message]] = field(default_factory=list)
    #: How long the server lets the catalogue be kept (``ttlMs`` of the first page, 0: not at all);
    #: ``None``: it said nothing (the handshake era). See :func:`catalogue_freshness`.
    ttl_ms: int | None = None
    #: Who may share a kept catalogue: ``public`` (anyone using the address) or ``private``
    #: (these credentials only); ``None``: not said (kept as private).
    cache_scope: str | None = None

    @property
    def names(self) -> list[str]:
        return [str(tool.get("name", "")) for tool in self.tools]


#: The scopes a cacheable result may name.
CACHE_SCOPES = ("public", "private")


def catalogue_freshness(result: dict[str, Any], *, stateless: bool = True) -> tuple[int | None, str | None]:
    """``(ttl_ms, cache_scope)`` of a ``tools/list`` result (its first page).

    In the stateless era an absent, negative or unusable ``ttlMs`` is 0 (not to be kept); in the
    handshake era a result that names neither is ``(None, None)``: nothing was said. A scope other
    than ``public`` or ``private`` is ``None`` (and treated as private where the catalogue is kept).
    """
    ttl, scope = result.get("ttlMs"), result.get("cacheScope")
    if not stateless and ttl is None and scope is None:
        return None, None
    if isinstance(ttl, bool) or not isinstance(ttl, int | float) or ttl != ttl or ttl <= 0:
        ttl_ms = 0
    else:
        ttl_ms = int(min(ttl, 2**53 - 1))  # a float beyond any int a JSON peer can mean is cut there
    return ttl_ms, scope if scope in CACHE_SCOPES else None


@dataclass(frozen=True)
class PingResult:
    """What the handshake told us about the server, and how fast it answered ``ping``."""

    protocol_version: str
    server_name: str | None
    server_version: str | None
    #: How long the ``ping`` request took, from sending it to its answer (milliseconds).
    latency_ms: float | None = None
    #: The stateless era has no ``ping``: ``server/discover`` was the request timed instead.
    stateless: bool = False
