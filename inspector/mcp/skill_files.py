"""Checking one file of a skill, read with ``resources/read``, against its entry (SEP-2640:
"Integrity and Verification"): its bytes (a text's UTF-8, a binary's decoded base64) must have
the size and the SHA-256 digest the entry lists. A mismatch is a :class:`FileMismatch` naming the
file and what differed ("FORMS.md: 812 bytes, the listing says 790"); the bytes are never
returned then, so they cannot be shown as the skill's.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from typing import Any

from .messages import N_, Message
from .sanitize import sanitize_remote_text
from .skill_entries import SkillFile


class FileMismatch(Exception):
    """A file that is not what the entry says; ``problem`` says which and how."""

    def __init__(self, problem: Message) -> None:
        super().__init__(str(problem))
        self.problem = problem


@dataclass(frozen=True)
class ReadFile:
    """One file as it was read and verified: its bytes' digest and size, its type, and its text
    when it is text (``None`` for a binary)."""

    uri: str
    path: str
    size: int
    digest: str
    mime_type: str | None
    text: str | None
    #: Whether it was checked against a listed digest and size (``False``: a dynamic skill's).
    verified: bool


def digest_of(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _content_of(result: dict[str, Any], uri: str) -> dict[str, Any] | None:
    contents = result.get("contents")
    if not isinstance(contents, list):
        return None
    items = [item for item in contents if isinstance(item, dict)]
    return next((item for item in items if item.get("uri") == uri), items[0] if items else None)


def file_bytes(result: dict[str, Any], uri: str, path: str) -> tuple[bytes, str | None, bool]:
    """The bytes of the content ``resources/read`` gave for ``uri``: (bytes, its type, whether it
    came as text). :class:`FileMismatch` when there is none, or a binary is not base64."""
    content = _content_of(result, uri)
    shown = sanitize_remote_text(path, 120)
    if content is None:
        raise FileMismatch(Message(N_("{file}: the server's answer holds no content"), {"file": shown}))
    mime = content.get("mimeType") if isinstance(content.get("mimeType"), str) else None
    if isinstance(content.get("text"), str):
        return content["text"].encode("utf-8", "surrogatepass"), mime, True
    if isinstance(content.get("blob"), str):
        try:
            return base64.b64decode(content["blob"], validate=True), mime, False
        except (binascii.Error, ValueError):
            raise FileMismatch(Message(N_("{file}: its binary content is not valid base64"),
                                       {"file": shown})) from None
    raise FileMismatch(Message(N_("{file}: the server's answer holds neither text nor binary content"),
                               {"file": shown}))


def verify_file(listed: SkillFile, result: dict[str, Any]) -> ReadFile:
    """``result`` (of ``resources/read`` of ``listed.uri``) checked against the entry: size first
    (a read of another length fails whatever its digest), then the digest."""
    data, mime, as_text = file_bytes(result, listed.uri, listed.path)
    shown = sanitize_remote_text(listed.path, 120)
    if len(data) != listed.size:
        raise FileMismatch(Message(N_("{file}: {size} bytes, the listing says {listed}"),
                                   {"file": shown, "size": len(data), "listed": listed.size}))
    digest = digest_of(data)
    if digest != listed.digest:
        raise FileMismatch(Message(N_("{file}: its SHA-256 digest is {digest}, the listing says {listed}"),
                                   {"file": shown, "digest": digest, "listed": listed.digest}))
    return ReadFile(listed.uri, listed.path, len(data), digest, mime, _text(data, as_text), True)


def unverified_file(uri: str, path: str, result: dict[str, Any]) -> ReadFile:
    """A file of a dynamic skill: read, measured, but with nothing to check it against."""
    data, mime, as_text = file_bytes(result, uri, path)
    return ReadFile(uri, path, len(data), digest_of(data), mime, _text(data, as_text), False)


def _text(data: bytes, as_text: bool) -> str | None:
    if as_text:
        return data.decode("utf-8", "surrogatepass")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


__all__ = ["FileMismatch", "ReadFile", "digest_of", "file_bytes", "unverified_file", "verify_file"]
