"""Opening an operation in its era: the handshake, the stateless era, or a ``server/discover`` probe.

``auto`` asks the server with ``server/discover`` (a leg of the operation, shown like every leg)
what it speaks; anything that is not positive evidence of the stateless era (a result naming a
revision this client speaks, or an error only that era has) falls back to the handshake, never
keyed on one error code. A transport failure (unreachable, the budget, a cancel) is no verdict and
fails the operation. What was found is remembered per server once the server spoke it; a server that
later answers against what was remembered is probed again, once per operation.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .eras import AUTO, HANDSHAKE, STATELESS, STATELESS_VERSIONS
from .errors import STATELESS_ERRORS, UNSUPPORTED_PROTOCOL_VERSION, ErrorKind, McpTransportError
from .stateless import SERVER_INFO_KEY

if TYPE_CHECKING:
    from .client import _Operation

#: How long a command server may stay silent on the probe before it is taken for one of the
#: handshake era (some of those ignore methods they do not know); at most half of what is left
#: of the budget. The wait includes the program's own start (a Python server takes seconds to
#: import on a busy machine); a late answer is caught when ``initialize`` is refused for it.
STDIO_PROBE_WAIT_S = 10.0


@dataclass
class Discovered:
    """What ``server/discover`` said: the revision to speak, the server's capabilities and name, and
    how long the request that said it took (ms)."""

    version: str
    capabilities: dict[str, Any] = field(default_factory=dict)
    server_info: dict[str, Any] = field(default_factory=dict)
    instructions: str | None = None
    took_ms: float = 0.0


def mutual_version(supported: Any) -> str | None:
    """The newest stateless revision both sides speak, from a list the server sent."""
    if not isinstance(supported, list):
        return None
    for version in STATELESS_VERSIONS:
        if version in supported:
            return version
    return None


def supported_in(error: McpTransportError) -> Any:
    """The ``supported`` list of an unsupported-version error, as the server sent it."""
    data = error.rpc_data
    return data.get("supported") if isinstance(data, dict) else None


def is_stateless_evidence(error: McpTransportError) -> bool:
    """An error only a server of the stateless era sends."""
    return error.kind is ErrorKind.RPC_ERROR and error.rpc_code in STATELESS_ERRORS


def discovered_from(result: dict[str, Any]) -> Discovered | None:
    """The stateless era from a ``server/discover`` result, or ``None`` when it names no revision
    this client speaks (a server of the handshake era that answers the method)."""
    version = mutual_version(result.get("supportedVersions"))
    if version is None:
        return None
    capabilities = result.get("capabilities")
    meta = result.get("_meta")
    info = meta.get(SERVER_INFO_KEY) if isinstance(meta, dict) else None
    if not isinstance(info, dict):
        info = result.get("serverInfo")  # where some servers still put it
    instructions = result.get("instructions")
    return Discovered(version, capabilities if isinstance(capabilities, dict) else {},
                      info if isinstance(info, dict) else {}, instructions if isinstance(instructions, str) else None)


async def probe(op: _Operation) -> Discovered | None:
    """``server/discover`` as a leg of ``op``: what the server speaks (``None``: the handshake era)."""
    from .stateless_requests import stateless_request  # the two modules use each other

    version = STATELESS_VERSIONS[0]
    clock = op.transport.frame.clock
    for _attempt in range(2):
        op.speak_stateless(version)
        started = clock.now_ns()
        try:
            if op.transport.server.is_command:
                async with asyncio.timeout(min(STDIO_PROBE_WAIT_S, max(op.deadline_remaining() / 2, 0.0))):
                    result = await stateless_request(op, "server/discover", {}, is_work=False, probe=True)
            else:
                result = await stateless_request(op, "server/discover", {}, is_work=False, probe=True)
        except TimeoutError:
            if op.deadline_remaining() <= 0:
                raise
            return None  # a command server silent on a method it does not know
        except McpTransportError as refused:
            if refused.is_cancellation or refused.kind in _NO_VERDICT or refused.is_redirect:
                raise  # a redirect is about the address (a FastMCP server's /mcp/ to /mcp), not the era
            if refused.kind is ErrorKind.RPC_ERROR and refused.rpc_code == UNSUPPORTED_PROTOCOL_VERSION:
                mutual = mutual_version(supported_in(refused))
                if mutual is not None and mutual != version:
                    version = mutual
                    continue
            return None  # anything else: not evidence of the stateless era
        found = discovered_from(result)
        if found is not None:
            found.took_ms = (clock.now_ns() - started) / 1e6
        return found
    return None


#: Failures that say nothing about the era: the operation fails with them.
_NO_VERDICT = (ErrorKind.UNREACHABLE, ErrorKind.TIMED_OUT, ErrorKind.EXHAUSTED_BUDGET, ErrorKind.CANCELLED,
               ErrorKind.TOO_LARGE, ErrorKind.SIGNIN_REQUIRED)


async def open_in_era(op: _Operation, era: str) -> None:
    """Open ``op`` in the server's configured ``era`` (``auto`` uses and keeps the era memory)."""
    server = op.transport.server
    memory = op.eras
    if era == AUTO:
        remembered = memory.recall(server.key)
        if remembered == STATELESS:
            op.speak_stateless(STATELESS_VERSIONS[0])
            op.recheck_era = True
            return
        if remembered == HANDSHAKE:
            op.recheck_era = True
            await op.handshake()
            return
        await _probe_then_open(op)
        return
    if era == STATELESS:
        op.speak_stateless(STATELESS_VERSIONS[0])
        return
    await op.handshake()


async def _probe_then_open(op: _Operation) -> None:
    """Probe, then open in the era found; remembered once the server spoke it (``server/discover``
    answered in the stateless era, ``initialize`` in the handshake era): an address where no MCP server
    answers (HTTP 404 to both) fails without anything remembered, so the next operation probes again."""
    if await _found_stateless(op):
        return
    try:
        await op.handshake()
    finally:
        keep_handshake(op)


async def _found_stateless(op: _Operation) -> bool:
    """Probe; True when the server speaks the stateless era (remembered, and ``op`` speaks it), else
    ``op`` is left to speak the handshake era."""
    found = await probe(op)
    if found is None:
        op.speak_handshake()
        return False
    op.eras.remember(op.transport.server.key, STATELESS)
    op.adopt_discovered(found)
    return True


def keep_handshake(op: _Operation) -> None:
    """Remember the handshake era for ``op``'s server once it spoke it: answered ``initialize`` in a
    revision spoken here (on its address, or on the older transport's event stream after a 404)."""
    if op.era == HANDSHAKE:
        op.eras.remember(op.transport.server.key, HANDSHAKE)


async def reprobe(op: _Operation) -> None:
    """The server answered against the remembered era: forget it and find out again (once)."""
    _forget(op)
    await _probe_then_open(op)


async def reprobed_after_no_stream(op: _Operation) -> bool:
    """``initialize`` was refused with HTTP 404 and no event stream of the older transport stands at the
    address either: a server remembered in the handshake era may speak only the stateless era now (one
    that sends no JSON-RPC error with the 404). Probed once, on what is left of the budget; True when it
    speaks the stateless era and ``op`` goes on in it. Whatever the probe finds, the memory is not kept
    for a server that no longer answers in the era remembered. Not probed when the wait for the event
    stream spent the budget: the 404 is the answer then, as where no era was remembered (not a probe
    that could not be sent)."""
    if not op.recheck_era:
        return False
    _forget(op)
    if op.deadline_remaining() <= 0:
        return False
    return await _found_stateless(op)


def _forget(op: _Operation) -> None:
    op.recheck_era = False
    op.eras.remember(op.transport.server.key, None)


def answered_against_stateless(error: McpTransportError) -> bool:
    """A request of the stateless era refused the way a server of the handshake era refuses it
    (no session, method unknown, a plain HTTP refusal): the remembered era may be out of date."""
    if error.is_cancellation or error.kind in _NO_VERDICT or is_stateless_evidence(error):
        return False
    if error.kind is ErrorKind.HTTP_STATUS:
        return error.http_status in (400, 404, 405)
    return error.kind is ErrorKind.RPC_ERROR and error.rpc_code in (-32600, -32601, -32602, -32000)


def answered_against_handshake(error: McpTransportError) -> bool:
    """``initialize`` refused the way a server of the stateless era refuses it."""
    return error.method == "initialize" and (
        is_stateless_evidence(error)
        or (error.kind is ErrorKind.RPC_ERROR and error.rpc_code == -32601))
