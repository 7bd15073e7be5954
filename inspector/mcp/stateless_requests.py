"""One request of the stateless era, with everything that may take more than one leg: an
unsupported version (sent again in one the server names), an answer stream that broke (sent again
under a new id: this era does not resume), a server that needs input (the rounds of
:mod:`.input_rounds`), and a server that answers against the era remembered for it (probed anew).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .channels.http_answers import StreamBroken
from .channels.leg_messages import OutgoingMessage
from .era_opening import answered_against_stateless, mutual_version, reprobe, supported_in
from .eras import STATELESS
from .errors import UNSUPPORTED_PROTOCOL_VERSION, ErrorKind, McpTransportError
from .input_rounds import INPUT_METHODS, MAX_INPUT_ROUNDS, fulfil, round_leg
from .leg_names import RESENT_LEG
from .messages import N_, Message
from .stateless import standard_headers

if TYPE_CHECKING:
    from .client import _Operation

#: How often a request whose answer stream broke is sent again (each time under a new id).
MAX_RESENDS = 3
#: The result types of this era this client acts on (tasks are followed by the caller).
KNOWN_RESULT_TYPES = ("complete", "input_required", "task")
#: Said after the refusal of an operation's first request in the stateless era chosen for the server
#: (no probe: nothing was found out), refused as a server of the handshake era refuses a request that came
#: without ``initialize`` (server-everything: HTTP 400, -32000 "Server not initialized"); not after a
#: refusal of the method or its params, which a server of this era sends too.
CHOSEN_ERA_REFUSED = Message(N_(
    "The stateless era (2026-07-28) was chosen for this server, and a server of the handshake era refuses "
    "a request so when no initialize came first: if this one speaks the handshake era, choose the era "
    "automatic or handshake for it."))
#: JSON-RPC errors about the method or its params: no sign of the other era in the first request's refusal.
_ABOUT_THE_REQUEST = (-32601, -32602)


async def stateless_request(op: _Operation, method: str, params: dict[str, Any], *, is_work: bool,
                            headers: dict[str, str] | None = None, probe: bool = False) -> dict[str, Any]:
    """Send ``method`` in the stateless era until it is complete (or fails); its result."""
    label = op.transport.server.label
    extra: dict[str, Any] = {}
    round_number, resends, version_retried = 1, 0, False
    while True:
        sent = {**params, **extra, "_meta": {**params.get("_meta", {}), **op.request_meta(is_work)}}
        name = round_leg(method, round_number) if not resends else RESENT_LEG.format(method=method)
        leg = OutgoingMessage(method, sent, op.next_id(), is_work=is_work, shown=name, refusal_answers=probe,
                              headers={**standard_headers(op.session.protocol_version or "", method, sent),
                                       **(headers or {})})
        try:
            answer = await op.transport.send(leg, op.session)
        except StreamBroken as broken:
            resends += 1
            if resends > MAX_RESENDS and broken.lost is not None:
                raise McpTransportError.connection_lost(label, method, Message(
                    N_("{reason}, {count} times in a row (sent again under a new id each time)"),
                    {"reason": broken.lost, "count": resends})) from None
            if resends > MAX_RESENDS:
                raise McpTransportError.malformed(label, method, Message(
                    N_("its answer stream broke off {count} times in a row before the answer"),
                    {"count": resends})) from None
            continue
        except McpTransportError as refused:
            if refused.kind is ErrorKind.RPC_ERROR and refused.rpc_code == UNSUPPORTED_PROTOCOL_VERSION \
                    and not version_retried:
                mutual = mutual_version(supported_in(refused))
                if mutual is not None:
                    version_retried = True
                    op.speak_stateless(mutual)
                    continue
            if op.recheck_era and round_number == 1 and answered_against_stateless(refused):
                await reprobe(op)
                if op.session.stateless:
                    # The probe found the era remembered: the refusal was the server's answer to this
                    # request (wrong arguments, say), not a sign of another era. Sent once, not again.
                    raise
                return await op.request(method, params, is_work=is_work, headers=headers)
            if (op.transport.server.era == STATELESS and leg.request_id == 1 and not probe
                    and answered_against_stateless(refused) and refused.rpc_code not in _ABOUT_THE_REQUEST):
                refused.add_sentence(CHOSEN_ERA_REFUSED)
            raise
        op.recheck_era = False
        result = answer.result or {}
        kind = result.get("resultType", "complete")
        if kind not in KNOWN_RESULT_TYPES:
            raise McpTransportError.malformed(label, method, Message(
                N_("its result type {type} is not one this client knows"), {"type": str(kind)[:40]}))
        if kind != "input_required":
            return result
        if method not in INPUT_METHODS:
            raise McpTransportError.malformed(label, method, Message(
                N_("it asked for input on a request that cannot take any")))
        if round_number >= MAX_INPUT_ROUNDS:
            raise McpTransportError.input_rounds(label, method, round_number)
        responses = await fulfil(op, method, result.get("inputRequests"))
        extra = {}
        if responses:
            extra["inputResponses"] = responses
        if "requestState" in result:
            extra["requestState"] = result["requestState"]  # echoed exactly, never read
        round_number += 1
        resends = 0
