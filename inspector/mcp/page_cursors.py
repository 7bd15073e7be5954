"""The cursors of a listing walked page by page (``tools/list``, ``resources/list``, ``skills/list``...):
a cursor given again would ask for a page already read, so the listing would go round in a loop until
the page limit; it is stopped at once and said so. No I/O."""

from __future__ import annotations

from .errors import McpTransportError
from .messages import N_, Message


class CursorTrail:
    """The next cursors one listing gave, and the page that gave each."""

    def __init__(self, server: str, method: str) -> None:
        self._server = server
        self._method = method
        self._pages: dict[str, int] = {}

    def follow(self, cursor: str, page: int) -> str:
        """``cursor``, given by ``page``, if no earlier page gave it; else the malformed-answer error."""
        earlier = self._pages.setdefault(cursor, page)
        if earlier != page:
            raise McpTransportError.malformed(self._server, self._method, Message(
                N_("page {page} gave the same next cursor as page {earlier}, so its pages would go round in a loop"),
                {"page": page, "earlier": earlier}))
        return cursor
