"""The recording proxy: an agent's Streamable HTTP MCP traffic, forwarded unchanged and recorded as runs.

``run-inspector proxy --listen 127.0.0.1:PORT --to URL`` (and the window) start a
:class:`ProxyServer`: the agent speaks to its address as it would to the server. Each request is
passed on as it came (headers included) and each answer streamed back as it arrives; meanwhile
the exchange is captured (:mod:`.legs`), grouped into operations (:mod:`.book`) and written as
runs (:mod:`.steps`, :mod:`.writer`).
"""

from .server import ProxyAddressError, ProxyServer

__all__ = ["ProxyAddressError", "ProxyServer"]
