"""The pictures a tool's answer carries, kept as the server sent them (base64 text), bounded.

Only what arrived inside the answer is kept: an ``image`` block's ``data`` and the ``blob`` of an
embedded resource whose MIME type is an image. A ``resource_link`` (or any address) is never
followed: it stays a line of text. Nothing here decodes; the window does, within its own bounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: An image whose base64 text is longer than this is not kept (about 7.5 MB of image data): the
#: window would refuse to decode it anyway, and the answer's memory is let go sooner.
MAX_IMAGE_CHARS = 10_000_000

#: How many images of one answer are kept; the count of the others is kept instead.
MAX_IMAGES = 20


@dataclass(frozen=True)
class ImagePart:
    """One picture of an answer: where it came from, what it says it is and its base64 text.

    ``label`` is the embedded resource's URI (empty for an ``image`` block); ``data`` is
    ``None`` when the text was too long to keep (see :data:`MAX_IMAGE_CHARS`) or not a string;
    ``chars`` is the length of the base64 text the server sent.
    """

    index: int
    label: str
    mime_type: str
    data: str | None
    chars: int


def image_parts(blocks: Any) -> tuple[tuple[ImagePart, ...], int]:
    """The images among an answer's content blocks, in order (at most :data:`MAX_IMAGES`), and how
    many more there were."""
    if not isinstance(blocks, list):
        return (), 0
    parts: list[ImagePart] = []
    more = 0
    for index, block in enumerate(blocks):
        part = _image_of(index, block)
        if part is None:
            continue
        if len(parts) < MAX_IMAGES:
            parts.append(part)
        else:
            more += 1
    return tuple(parts), more


def _image_of(index: int, block: Any) -> ImagePart | None:
    if not isinstance(block, dict):
        return None
    kind = block.get("type")
    if kind == "image":
        return _part(index, "", block.get("mimeType"), block.get("data"))
    if kind == "resource":
        resource = block.get("resource")
        if not isinstance(resource, dict) or "blob" not in resource:
            return None
        mime = resource.get("mimeType")
        if not isinstance(mime, str) or not mime.strip().lower().startswith("image/"):
            return None
        uri = resource.get("uri")
        return _part(index, uri if isinstance(uri, str) else "", mime, resource.get("blob"))
    return None


def _part(index: int, label: str, mime: Any, data: Any) -> ImagePart:
    text = data if isinstance(data, str) else None
    chars = len(text) if text is not None else 0
    kept = text if text is not None and chars <= MAX_IMAGE_CHARS else None
    return ImagePart(index, label, mime if isinstance(mime, str) else "", kept, chars)


__all__ = ["MAX_IMAGES", "MAX_IMAGE_CHARS", "ImagePart", "image_parts"]
