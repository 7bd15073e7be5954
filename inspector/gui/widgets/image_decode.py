"""Turning a picture's base64 text into a QImage, within bounds, off the GUI thread.

A picture comes from a server or a file, so it is treated as hostile: its base64 text is refused
beyond :data:`MAX_BASE64_CHARS`; only PNG, JPEG, GIF (first frame) and WebP are read, chosen by the
data's own signature (never by Qt's guess, so an SVG or any other format with a plugin is never
handed to Qt); the size the header declares is read before any pixel, and more than
:data:`MAX_PIXELS` is refused (a decompression bomb declares a huge size in a few bytes). Nothing
is ever fetched from an address. :func:`decode` runs in a worker thread (decoding a large PNG
takes a second) and :func:`request_decode` hands its result back to the GUI thread.
"""

from __future__ import annotations

import base64
import binascii
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import shiboken6
from PySide6.QtCore import QBuffer, QIODevice, QObject, QSize, Qt, Signal
from PySide6.QtGui import QImage, QImageReader

#: The longest base64 text decoded (about 7.5 MB of image data).
MAX_BASE64_CHARS = 10_000_000
#: The most pixels a picture may declare (width × height) to be decoded.
MAX_PIXELS = 40_000_000

#: The formats drawn, by MIME type, as Qt's reader names them.
RASTER_TYPES = {"image/png": "png", "image/jpeg": "jpeg", "image/jpg": "jpeg", "image/pjpeg": "jpeg",
                "image/gif": "gif", "image/webp": "webp"}
FORMAT_NAMES = {"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "webp": "WebP"}

# Why a picture is not drawn (the view says each in a sentence).
SVG = "svg"
UNKNOWN_TYPE = "unknown_type"
TOO_LARGE = "too_large"
BAD_BASE64 = "bad_base64"
NOT_AN_IMAGE = "not_an_image"
NO_READER = "no_reader"
DAMAGED = "damaged"
TOO_MANY_PIXELS = "too_many_pixels"


@dataclass(frozen=True)
class Checked:
    """The checks made before Qt sees a byte: the bytes and their format, or why not."""

    raw: bytes | None = None
    format: str | None = None
    problem: str | None = None


@dataclass(frozen=True)
class Decoded:
    """A decoded picture (scaled down to the size asked for, if any) or why there is none.

    ``width`` and ``height`` are the picture's own size (as its header declares it, also when it
    was refused for being too large); ``mismatch`` names the real format when the MIME type said
    another one."""

    image: QImage | None
    width: int = 0
    height: int = 0
    format: str | None = None
    problem: str | None = None
    mismatch: str | None = None


def media_type(mime: str) -> str:
    """The MIME type without parameters, in lower case: ``"Image/PNG; q=1"`` → ``"image/png"``."""
    return mime.split(";", 1)[0].strip().lower()


def sniff(raw: bytes) -> str | None:
    """The format the data's own signature says: ``png``, ``jpeg``, ``gif``, ``webp`` or ``None``."""
    if raw.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if raw.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if raw.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "webp"
    return None


def check(data: str | None, mime: str, chars: int) -> Checked:
    """Everything that can be decided without Qt (no pixel is decoded here)."""
    kind = media_type(mime)
    if kind.startswith("image/svg"):
        return Checked(problem=SVG)
    if kind and kind not in RASTER_TYPES and kind not in ("image", "application/octet-stream"):
        return Checked(problem=UNKNOWN_TYPE)
    if chars > MAX_BASE64_CHARS or (data is not None and len(data) > MAX_BASE64_CHARS):
        return Checked(problem=TOO_LARGE)
    if not data:
        return Checked(problem=BAD_BASE64)
    try:
        raw = base64.b64decode("".join(data.split()), validate=True)
    except (binascii.Error, ValueError):
        return Checked(problem=BAD_BASE64)
    found = sniff(raw)
    if found is None:
        return Checked(problem=NOT_AN_IMAGE)
    return Checked(raw=raw, format=found)


def fitted(width: int, height: int, box: QSize) -> QSize:
    """The size that fits ``width`` × ``height`` into ``box`` keeping its shape, never enlarged."""
    if width <= box.width() and height <= box.height():
        return QSize(width, height)
    scale = min(box.width() / width, box.height() / height)
    return QSize(max(1, round(width * scale)), max(1, round(height * scale)))


def decode(data: str | None, mime: str, chars: int = 0, fit: QSize | None = None) -> Decoded:
    """Decode one picture, scaled down into ``fit`` when given. Safe in any thread; never raises
    for bad data (every failure is a :class:`Decoded` with a ``problem``)."""
    checked = check(data, mime, chars)
    if checked.problem is not None or checked.raw is None or checked.format is None:
        return Decoded(None, problem=checked.problem or NOT_AN_IMAGE)
    found = checked.format
    declared = RASTER_TYPES.get(media_type(mime))
    mismatch = found if declared is not None and declared != found else None
    if found.encode() not in {bytes(name.data()) for name in QImageReader.supportedImageFormats()}:
        return Decoded(None, format=found, problem=NO_READER, mismatch=mismatch)
    buffer = QBuffer()
    buffer.setData(checked.raw)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer, found.encode())
    reader.setAutoDetectImageFormat(False)  # the signature chose the reader; Qt is not to guess
    size = reader.size()
    width, height = size.width(), size.height()
    if width <= 0 or height <= 0:
        return Decoded(None, format=found, problem=DAMAGED, mismatch=mismatch)
    if width * height > MAX_PIXELS:
        return Decoded(None, width, height, found, TOO_MANY_PIXELS, mismatch)
    target = fitted(width, height, fit) if fit is not None else size
    if found == "jpeg" and target != size:
        reader.setScaledSize(target)  # a JPEG decodes straight to the smaller size, much faster
    image = reader.read()
    if image.isNull():
        return Decoded(None, width, height, found, DAMAGED, mismatch)
    if image.size() != target:
        image = image.scaled(target, Qt.AspectRatioMode.IgnoreAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
    return Decoded(image, width, height, found, None, mismatch)


class _Courier(QObject):
    """Carries a finished decode from the worker thread to the GUI thread (a queued signal)."""

    done = Signal(int, object)


_executor: ThreadPoolExecutor | None = None
_courier: _Courier | None = None
_waiting: dict[int, tuple[Any, str]] = {}
_next_token = 0


def request_decode(owner: QObject, method: str, data: str | None, mime: str, chars: int = 0,
                   fit: QSize | None = None) -> Future[Decoded]:
    """Decode in a worker thread; then ``owner.<method>(decoded)`` runs in the GUI thread, unless
    the owner is gone by then. Call from the GUI thread. The future can be cancelled while waiting."""
    global _executor, _courier, _next_token
    if _courier is None or not shiboken6.isValid(_courier):
        _courier = _Courier()
        _courier.done.connect(_deliver, Qt.ConnectionType.QueuedConnection)
    if _executor is None:
        # Two workers: a large picture being decoded does not hold up every other one.
        _executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="run-inspector-images")
    _next_token += 1
    token, courier = _next_token, _courier
    _waiting[token] = (weakref.ref(owner), method)

    def work() -> None:
        try:
            result = decode(data, mime, chars, fit)
        except Exception:  # noqa: BLE001 - a reader's surprise is a damaged picture, never a crash
            result = Decoded(None, problem=DAMAGED)
        if shiboken6.isValid(courier):
            courier.done.emit(token, result)

    future = _executor.submit(work)
    future.add_done_callback(lambda done: _waiting.pop(token, None) if done.cancelled() else None)
    return future


def _deliver(token: int, result: Decoded) -> None:
    owner_ref, method = _waiting.pop(token, (None, ""))
    owner = owner_ref() if owner_ref is not None else None
    if owner is not None and shiboken6.isValid(owner):
        getattr(owner, method)(result)


__all__ = ["MAX_BASE64_CHARS", "MAX_PIXELS", "RASTER_TYPES", "Checked", "Decoded", "check", "decode", "fitted",
           "media_type", "request_decode", "sniff"]
