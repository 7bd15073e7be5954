"""Multi round-trip requests (the stateless era): a server that needs input answers
``input_required`` with the requests it would have sent; the client answers them and sends the
original request again, under a new id, with ``inputResponses`` and the server's ``requestState``.

Each round is a leg of the one operation, on its deadline; the time the person takes to answer is
a leg of its own (``input: elicitation/create``), so the budget bar shows the wait as a segment of
its own kind. That wait counts against the budget: an operation has one deadline, whoever spends
it. A server that keeps asking is stopped after :data:`MAX_INPUT_ROUNDS` rounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .leg_names import INPUT_LEG, ROUND_LEG
from .legs import LegWire

if TYPE_CHECKING:
    from .client import _Operation

#: The requests a server may answer with ``input_required``.
INPUT_METHODS = ("tools/call", "prompts/get", "resources/read")
#: What an ``input_required`` result may ask for.
INPUT_KINDS = ("elicitation/create", "sampling/createMessage", "roots/list")
#: Rounds of one request before the client gives up on a server that keeps asking.
MAX_INPUT_ROUNDS = 8


def round_leg(method: str, round_number: int) -> str:
    return method if round_number <= 1 else ROUND_LEG.format(method=method, round=round_number)


async def fulfil(op: _Operation, method: str, input_requests: Any) -> dict[str, Any]:
    """Answer every embedded request of an ``input_required`` result, in one leg; the responses by key.

    A request the client cannot answer (a kind it does not support, one the user declined with
    an error) gets no response: the server decides what that means, and may ask again."""
    if not isinstance(input_requests, dict) or not input_requests:
        return {}
    kinds = sorted({str(request.get("method")) for request in input_requests.values() if isinstance(request, dict)})
    transport = op.transport

    async def answer_all(wire: LegWire) -> dict[str, Any]:
        responses: dict[str, Any] = {}
        for key, embedded in input_requests.items():
            if not isinstance(embedded, dict):
                continue
            request = {"jsonrpc": "2.0", "id": str(key), "method": embedded.get("method"),
                       "params": embedded.get("params") if isinstance(embedded.get("params"), dict) else {}}
            replies: list[dict[str, Any]] = []

            async def deliver(reply: dict[str, Any], replies: list[dict[str, Any]] = replies) -> int | None:
                replies.append(reply)
                return None

            await transport.answer_request(method, request, deliver)
            if replies and isinstance(replies[0].get("result"), dict):
                responses[str(key)] = replies[0]["result"]
        return responses

    return await transport.frame.run(None, INPUT_LEG.format(kinds=", ".join(kinds)), answer_all)
