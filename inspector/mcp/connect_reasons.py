"""Why a connection could not be made or broke, in words of ours.

An HTTP library words it its own way, in English only: httpx says "All connection attempts failed"
for a port where nothing listens, and "[Errno -2] Name or service not known" for a host name no
name server knows, OpenSSL "[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)" for an
https:// address answered in plain HTTP. The reason is in the chain of exceptions under it (an
``OSError`` with its error number, a ``socket.gaierror``, an ``ssl.SSLError``):
:func:`connection_reason` says that one as a translatable sentence part. Anything it does not know
is left to the caller (the library's text, as before). No I/O.
"""

from __future__ import annotations

import errno
import socket
import ssl

from .messages import N_, Message

_BY_ERRNO: dict[int, str] = {
    # No brackets in these: callers put a reason in brackets or after a colon of their own.
    errno.ECONNREFUSED: N_("the connection was refused, which means nothing listens at that address and port"),
    errno.ETIMEDOUT: N_("the connection timed out"),
    errno.EHOSTUNREACH: N_("there is no route to the host"),
    errno.ENETUNREACH: N_("the network cannot be reached"),
    errno.ECONNRESET: N_("the connection was reset by the other side"),
    errno.ECONNABORTED: N_("the connection was aborted"),
    errno.EADDRNOTAVAIL: N_("the address cannot be used from this machine"),
}
_NO_SUCH_HOST = N_("the host name could not be resolved, because there is no such host or no name server answered")
#: An https:// address whose server answers in plain HTTP (OpenSSL's "wrong version number", or
#: "record layer failure" from OpenSSL 3.2 on).
_NOT_TLS = N_("the other side answered without TLS, which an https:// address needs: perhaps the address is http://")
_NOT_TLS_REASONS = frozenset({"WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE"})
#: Every sentence :func:`connection_reason` may give (a reader of a stored English reason finds it here).
CONNECTION_REASONS: tuple[str, ...] = (*_BY_ERRNO.values(), _NO_SUCH_HOST, _NOT_TLS)
#: Exceptions are chained a few levels deep (httpx, httpcore, anyio, the socket): a longer chain is not searched.
_DEPTH = 16


def connection_reason(exc: BaseException) -> Message | None:
    """Our words for the first operating-system reason in ``exc``'s chain (its causes and contexts,
    and the members of an exception group); ``None`` when it holds none of those we word."""
    pending: list[BaseException] = [exc]
    seen: set[int] = set()
    while pending and len(seen) < _DEPTH:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, socket.gaierror):
            return Message(_NO_SUCH_HOST)
        if isinstance(current, ssl.SSLError) and current.reason in _NOT_TLS_REASONS:
            return Message(_NOT_TLS)
        if isinstance(current, OSError) and current.errno in _BY_ERRNO:
            return Message(_BY_ERRNO[current.errno])
        if isinstance(current, BaseExceptionGroup):
            pending.extend(current.exceptions)
        pending.extend(found for found in (current.__cause__, current.__context__) if found is not None)
    return None


__all__ = ["CONNECTION_REASONS", "connection_reason"]
