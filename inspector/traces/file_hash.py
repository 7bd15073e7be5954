"""The SHA-256 of a file's bytes as they are read, computed on a thread of its own.

An import hashes every byte it reads (a file that changes between its two reads is refused). hashlib
lets go of the interpreter lock while it hashes a chunk, so on a thread of its own the hashing does
not hold up the importing thread, which is busy reading the chunk before (about 4% of that thread's
work for a large file). A file no longer than one chunk is hashed where it is read: a thread would
cost more than it saves. No other I/O.
"""

from __future__ import annotations

import hashlib
import threading
from queue import Queue

__all__ = ["FileHash"]

_WAITING = 4
"""Chunks handed over and not yet hashed, at most (hashing is far quicker than reading them)."""


class FileHash:
    """``update(chunk)`` for each chunk in order, then :meth:`hexdigest`; use it in a ``with``
    (leaving it ends the thread, also when the reading stopped half-way)."""

    def __init__(self, size: int, chunk: int) -> None:
        self._digest = hashlib.sha256()
        self._chunks: Queue[bytes | None] | None = None
        self._thread: threading.Thread | None = None
        if size > chunk:
            self._chunks = Queue(_WAITING)
            self._thread = threading.Thread(target=self._hash_chunks, name="import-hash", daemon=True)
            self._thread.start()

    def _hash_chunks(self) -> None:
        chunks, update = self._chunks, self._digest.update
        assert chunks is not None
        while (chunk := chunks.get()) is not None:
            update(chunk)

    def update(self, chunk: bytes) -> None:
        if self._chunks is None:
            self._digest.update(chunk)
        else:
            self._chunks.put(chunk)

    def hexdigest(self) -> str:
        """The hash of all the chunks (the thread ends once it has hashed them)."""
        self.close()
        return self._digest.hexdigest()

    def close(self) -> None:
        if self._thread is not None:
            assert self._chunks is not None
            self._chunks.put(None)
            self._thread.join()
            self._thread = None

    def __enter__(self) -> FileHash:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
