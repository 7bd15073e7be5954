"""The window's answers to a server's requests: questions go to a dialog, sampling to a confirmation.

The client runs on the engine's worker thread; its handler (:meth:`WindowAnswers.handler`)
hands each question to the GUI thread as a :class:`PendingQuestion` (a queued signal) and waits
for the user's answer, within the operation's deadline. When the deadline cuts the wait off,
the question is withdrawn and the dialog closes.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.mcp import ElicitationRequest, RequestRefused, ServerRequestHandler
from inspector.mcp.client_reasons import USER_REFUSED_MODEL, USER_STOPPED_ASKING
from inspector.mcp.server_requests import USER_REFUSED, Sampler

from ..settings import AppSettings
from .asking import Asker, current_asker


class PendingQuestion:
    """A question (or a sampling request) waiting for the user; answered from the GUI thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], remaining_s: float,
                 message: str = "", schema: dict[str, Any] | None = None,
                 params: dict[str, Any] | None = None, asker: Asker | None = None) -> None:
        self._loop = loop
        self._future = future
        self.message = message
        self.schema = schema or {}
        #: A sampling request's params (``None`` for a question).
        self.params = params
        #: The operation (and server) whose session carried the request; ``None``: not known.
        self.asker = asker
        #: When it reached the client (monotonic) and how much of the budget was left then.
        self.received_at = time.monotonic()
        self.remaining_s = remaining_s
        self.withdrawn = False

    def answered_on_close(self) -> bool:
        """Whether a dialog closed unanswered answers (cancel, refuse): not once the question is gone
        (the deadline cut it off, or its operation ended without waiting), but always when the
        operation's cancel closed it. That answer is the record of what the user did; the worker
        drops it, as the cancel, handed over first, has torn the call down."""
        return not self.withdrawn or (self.asker is not None and self.asker.cancel_asked)

    def remaining_now(self) -> float:
        """Seconds of the operation's budget left now."""
        return max(self.remaining_s - (time.monotonic() - self.received_at), 0.0)

    def answer(self, value: Any) -> None:
        """Give the answer (thread-safe); an answer after the question was withdrawn is dropped."""
        def settle() -> None:
            if not self._future.done():
                self._future.set_result(value)

        try:
            self._loop.call_soon_threadsafe(settle)
        except RuntimeError:  # the worker's loop has ended
            pass


class WindowAnswers(QObject):
    """Builds the client's handler for the window and carries its questions to the GUI thread."""

    #: A question for the user (a :class:`PendingQuestion`); emitted on the worker thread.
    question = Signal(object)
    #: A sampling request to confirm (a :class:`PendingQuestion` with ``params``).
    sampling = Signal(object)
    #: The deadline cut a pending question off: its dialog closes.
    withdrawn = Signal(object)

    def __init__(self, sampler: Sampler | None = None) -> None:
        super().__init__()
        #: The configured chat model's sampler; without one, sampling is not offered.
        self.sampler = sampler
        self._handler = ServerRequestHandler(elicit=self._elicit)
        self.set_sampler(sampler)

    def handler(self) -> ServerRequestHandler:
        """The client's handler; it follows :meth:`set_sampler` (capabilities are read per handshake)."""
        return self._handler

    def set_sampler(self, sampler: Sampler | None) -> None:
        """Offer sampling with this model from the next operation on (``None``: no longer)."""
        self.sampler = sampler
        self._handler.sample = self._sample if sampler is not None else None

    async def _wait(self, pending: PendingQuestion, signal: Signal) -> Any:
        signal.emit(pending)
        try:
            return await pending._future
        finally:
            # A cancelled wait (the operation was cancelled or ended) cancels the future too.
            if not pending._future.done() or pending._future.cancelled():
                pending.withdrawn = True
                self.withdrawn.emit(pending)

    async def _elicit(self, request: ElicitationRequest) -> dict[str, Any]:
        asker = current_asker()
        if asker is not None and asker.stopped:  # the user told this operation to stop asking
            asker.declined_unasked("elicitation/create")
            return {"action": "decline"}
        loop = asyncio.get_running_loop()
        pending = PendingQuestion(loop, loop.create_future(), request.remaining_s, request.message, request.schema,
                                  asker=asker)
        return await self._wait(pending, self.question)

    async def _sample(self, params: dict[str, Any], remaining_s: float) -> dict[str, Any]:
        asker = current_asker()
        if asker is not None and asker.stopped:
            asker.declined_unasked("sampling/createMessage")
            raise RequestRefused(USER_REFUSED, USER_STOPPED_ASKING)
        loop = asyncio.get_running_loop()
        pending = PendingQuestion(loop, loop.create_future(), remaining_s, params=params, asker=asker)
        allowed = await self._wait(pending, self.sampling)
        if not allowed:
            raise RequestRefused(USER_REFUSED, USER_REFUSED_MODEL)
        assert self.sampler is not None
        return await self.sampler(params, remaining_s)


def sampler_from_settings(settings: AppSettings):  # -> Sampler | None
    """The configured model as a sampler, when the user allows servers to use it."""
    if not (settings.allow_sampling and settings.sampling_model_url and settings.sampling_model):
        return None
    from inspector.agent.chat_model import OpenAIChatModel
    from inspector.agent.sampling import ChatModelSampler
    from inspector.mcp import Secrets
    from inspector.traces.redact import redact_text

    secrets = Secrets(patterns=redact_text)  # the model's own (a password in its URL) are added by it
    try:
        model = OpenAIChatModel(settings.sampling_model_url, settings.sampling_model, secrets=secrets)
    except ValueError:
        return None
    return ChatModelSampler(model, settings.sampling_model, secrets=secrets, max_tokens=settings.sampling_max_tokens)
