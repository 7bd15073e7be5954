"""Whether an address whose ``initialize`` POST the listening session was refused speaks the older
HTTP+SSE transport (MCP 2024-11-05): its servers take no POST at their address and answer 404 or
405, as operations find too (:mod:`.line_opening`), which then open the event stream instead.

That transport has no stream apart from an operation's own, so there is nothing to listen to: the
listening session asks the address once (opens its event stream, waits for the ``endpoint`` event,
closes it), remembers it in the set it shares with the operations, and says so instead of failing.
"""

from __future__ import annotations

import httpx

from .channels.sse_legacy import LegacySseChannel
from .channels.stdio import ChannelError
from .errors import ErrorKind, McpTransportError
from .line_opening import LEGACY_STATUSES
from .server import ServerEndpoint


def refused_as_older(error: McpTransportError) -> bool:
    """Whether ``error`` is the ``initialize`` POST refused as a server of the older transport refuses it."""
    return (error.method == "initialize" and error.http_status in LEGACY_STATUSES
            and error.kind is not ErrorKind.RPC_ERROR)


async def speaks_older_transport(http: httpx.AsyncClient, server: ServerEndpoint, wait_s: float) -> bool:
    """Whether ``server``'s address opens an event stream that names where to post (within ``wait_s``)."""
    if server.is_command or server.era == "stateless":
        return False
    try:
        channel = await LegacySseChannel.open(http, server, wait_s=wait_s)
    except (ChannelError, McpTransportError, httpx.HTTPError):
        return False
    await channel.close()
    return True
