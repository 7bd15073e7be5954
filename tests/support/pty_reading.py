"""What a process wrote to a pseudo-terminal, read from its main side until the process closed it."""

from __future__ import annotations

import os
import select


def read_until_closed(main: int, timeout: float, chunk_size: int = 65536) -> bytes:
    """Everything readable on ``main`` until the other side is closed, or until nothing came for
    ``timeout`` seconds."""
    seen = b""
    while True:
        ready, _, _ = select.select([main], [], [], timeout)
        if not ready:
            return seen
        try:
            chunk = os.read(main, chunk_size)
        except OSError:  # the other end closed: the process is gone
            return seen
        if not chunk:
            return seen
        seen += chunk
