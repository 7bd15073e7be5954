"""What an operation leaves to do when it has ended, done in the background so that the user never
waits for it, each bounded by :data:`BACKGROUND_BOUND_S`: a cancelled task's ``tasks/cancel``, a
cancel notice for a request torn down on the wire, the session's DELETE, the older transport's event
stream closed, the operation's HTTP connection closed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import httpx

from .channels.http_requests import message_headers
from .channels.leg_messages import OutgoingMessage, Session
from .channels.lines import LineTransport
from .server import ServerEndpoint
from .tasks import send_parting

if TYPE_CHECKING:
    from .operation import _Operation

#: Housekeeping after an operation (cancel notice, session DELETE) never takes longer than this.
BACKGROUND_BOUND_S = 1.0


class Housekeeping:
    """The background work of a client's ended operations, kept until it is done (or drained)."""

    def __init__(self) -> None:
        self._background: set[asyncio.Task[None]] = set()

    def after(self, http: httpx.AsyncClient | None, op: _Operation) -> None:
        """Start the housekeeping in the background: the user never waits for it."""
        if op.routes is not None:
            op.routes.leave(op.transport)
        if http is None:
            if op.parting:  # a task's tasks/cancel on the shared line, which stays open
                self._in_background(_bounded(send_parting(op)))
            return
        transport = op.transport
        if isinstance(transport, LineTransport):
            self._in_background(_close_line(http, op.line_close, op))
            return
        self._in_background(_end_session(http, transport.server, op.session, transport.interrupted,
                                         transport.interrupted_because, op))

    async def drain(self, timeout: float) -> None:
        """Wait (bounded) for the housekeeping started so far."""
        pending = [task for task in self._background if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)

    def _in_background(self, work: Awaitable[None]) -> None:
        task = asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]
        self._background.add(task)
        task.add_done_callback(self._background.discard)


async def _bounded(work: Awaitable[None]) -> None:
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(BACKGROUND_BOUND_S):
            await work


async def _close_line(http: httpx.AsyncClient, close: Callable[[], Awaitable[None]] | None,
                      op: _Operation | None = None) -> None:
    """After an operation on the older transport: its event stream closes (the server's session ends)."""
    try:
        async with asyncio.timeout(BACKGROUND_BOUND_S):
            if op is not None and op.parting:
                await send_parting(op)
            if close is not None:
                await close()
    except TimeoutError:
        pass
    finally:
        with contextlib.suppress(Exception):
            await http.aclose()


async def _end_session(http: httpx.AsyncClient, server: ServerEndpoint, session: Session,
                       interrupted: OutgoingMessage | None, reason: str, op: _Operation | None = None) -> None:
    """After an operation: tell the server about a torn-down request, end the session, close."""
    headers = message_headers(server, session)
    try:
        async with asyncio.timeout(BACKGROUND_BOUND_S):
            if op is not None and op.parting:  # a task's tasks/cancel, before the session ends
                await send_parting(op, lambda message, own: http.post(server.url, json=message,
                                                                      headers={**headers, **own}))
            # Without a session the notice could not say whose request it means (every client
            # numbers its requests from 1), so it is not sent at all.
            if interrupted is not None and interrupted.request_id is not None and session.session_id:
                notice = OutgoingMessage("notifications/cancelled",
                             {"requestId": interrupted.request_id, "reason": reason})
                with contextlib.suppress(httpx.HTTPError):
                    await http.post(server.url, content=notice.body(), headers=headers)
            if session.session_id and not (op is not None and op.keep_session):
                with contextlib.suppress(httpx.HTTPError):
                    await http.delete(server.url, headers=message_headers(server, session, "DELETE"))
    except TimeoutError:
        pass
    finally:
        with contextlib.suppress(Exception):
            await http.aclose()
