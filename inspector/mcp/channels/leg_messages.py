"""What a leg sends and what it gets back, whatever carries it (Streamable HTTP or a line to a
command server): the session the handshake established, the outgoing message, the answer."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..eras import STATELESS_VERSIONS
from ..errors import McpTransportError
from ..jsonrpc import RpcAnswer
from ..trace_context import with_traceparent


@dataclass
class Session:
    """What the handshake of one operation established (or, in the stateless era, the revision
    every request names). Never shared between operations."""

    session_id: str | None = None
    protocol_version: str | None = None

    @property
    def stateless(self) -> bool:
        """True in the stateless era: no session, every request carries its version."""
        return self.protocol_version in STATELESS_VERSIONS


@dataclass
class OutgoingMessage:
    """One message a leg sends: a request (with an id) or a notification (without).

    Not to be confused with :class:`inspector.runs.Leg`, the recorded leg of a step.
    """

    method: str
    params: dict[str, Any] | None
    request_id: int | None = None
    #: True for the request that carries the work (``tools/call``, ``tools/list``).
    is_work: bool = False
    #: Headers of this message only (the stateless era's ``Mcp-Method``, ``Mcp-Name``, ``Mcp-Param-*``).
    headers: dict[str, str] = field(default_factory=dict)
    #: The leg's name where it differs from the method (``tools/call (round 2)``).
    shown: str | None = None
    #: A probe: the server refusing it is an answer (the leg is reported as it went well).
    refusal_answers: bool = False

    @property
    def leg_name(self) -> str:
        return self.shown or self.method
    _on_wire: bool = field(default=False, repr=False)

    @property
    def is_notification(self) -> bool:
        return self.request_id is None

    def body(self) -> bytes:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": self.method}
        if self.request_id is not None:
            message["id"] = self.request_id
        if self.params is not None:
            message["params"] = self.params
        return json.dumps(with_traceparent(message), separators=(",", ":")).encode()


@dataclass(frozen=True)
class LegAnswer:
    """A leg that succeeded: the JSON-RPC result (``None`` for a notification) and headers."""

    result: dict[str, Any] | None
    http_status: int
    session_id: str | None


def leg_answer(label: str, leg: OutgoingMessage, answer: RpcAnswer, status: int, session_id: str | None) -> LegAnswer:
    """The leg's answer; a JSON-RPC error answer is the leg's failure."""
    if answer.is_error:
        raise McpTransportError.rpc_error(label, leg.method, answer.error_code or 0,
                                          answer.error_message or "no message", data=answer.error_data,
                                          http_status=status or None, code_sent=answer.error_code_sent)
    return LegAnswer(answer.result, status, session_id)
