"""The one exception type for every way an MCP operation can fail or be stopped.

Each kind has a stable numeric code (stored, exported, printed by the command line) and a
sentence that names the server and says what happened in words a user understands.
"""

from __future__ import annotations

from enum import Enum

from .sanitize import sanitize_remote_text


class ErrorKind(str, Enum):
    """What went wrong. The string values travel to JSON output, the store and exports."""

    UNREACHABLE = "unreachable"
    HTTP_STATUS = "http_status"
    MALFORMED = "malformed"
    RPC_ERROR = "rpc_error"
    CONTENT_TYPE = "content_type"
    TOO_LARGE = "too_large"
    PROTOCOL_VERSION = "protocol_version"
    SESSION_EXPIRED = "session_expired"
    EXHAUSTED_BUDGET = "exhausted_budget"
    TIMED_OUT = "timed_out"
    CANCELLED = "cancelled"


#: Stable codes; never renumber, only append.
ERROR_CODES: dict[ErrorKind, int] = {
    ErrorKind.UNREACHABLE: 1001,
    ErrorKind.HTTP_STATUS: 1002,
    ErrorKind.MALFORMED: 1003,
    ErrorKind.RPC_ERROR: 1004,
    ErrorKind.CONTENT_TYPE: 1005,
    ErrorKind.TOO_LARGE: 1006,
    ErrorKind.PROTOCOL_VERSION: 1007,
    ErrorKind.SESSION_EXPIRED: 1008,
    ErrorKind.EXHAUSTED_BUDGET: 1009,
    ErrorKind.TIMED_OUT: 1010,
    ErrorKind.CANCELLED: 1011,
}


def _seconds(value: float) -> str:
    return f"{value:g}"


def _decimals(value: float) -> str:
    """At most two decimals, no trailing zeros: 0.4, 1.25, 2."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


class McpTransportError(Exception):
    """A failed or stopped MCP operation. Build it through the class-method factories only."""

    def __init__(self, kind: ErrorKind, server: str, message: str, *, method: str | None = None,
                 http_status: int | None = None, rpc_code: int | None = None,
                 budget_s: float | None = None, in_flight: bool | None = None,
                 _cancellation: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        self.code = ERROR_CODES[kind]
        self.server = server
        self.message = message
        self.method = method
        self.http_status = http_status
        self.rpc_code = rpc_code
        self.budget_s = budget_s
        #: For a cancellation: had the work request gone out? (``None`` for other kinds.)
        self.in_flight = in_flight
        self._cancellation = _cancellation

    @property
    def is_cancellation(self) -> bool:
        """True only for errors made by :meth:`cancelled`; callers never compare codes."""
        return self._cancellation

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind.value, "code": self.code, "message": self.message}

    # -- factories ---------------------------------------------------------------------------

    @classmethod
    def unreachable(cls, server: str, method: str, detail: str) -> McpTransportError:
        return cls(ErrorKind.UNREACHABLE, server,
                   f"Could not reach the server {server} while sending {method}: "
                   f"{sanitize_remote_text(detail) or 'the connection failed'}. "
                   "Check that the server is running and the address is right.",
                   method=method)

    @classmethod
    def connection_lost(cls, server: str, method: str, detail: str) -> McpTransportError:
        return cls(ErrorKind.UNREACHABLE, server,
                   f"The connection to the server {server} broke during {method}: "
                   f"{sanitize_remote_text(detail) or 'the server closed it'}.",
                   method=method)

    @classmethod
    def http_status(cls, server: str, method: str, status: int, reason: str = "",
                    location: str | None = None) -> McpTransportError:
        text = f"The server {server} answered {method} with HTTP status {status}"
        if reason:
            text += f" ({sanitize_remote_text(reason, 80)})"
        if 300 <= status < 400:
            text += ". Redirects are not followed, so that credentials never reach another host"
            if location:
                text += f"; it pointed to {sanitize_remote_text(location, 120)}"
        elif status in (401, 403):
            text += ". The server refused the credentials; check the headers configured for it"
        return cls(ErrorKind.HTTP_STATUS, server, text + ".", method=method, http_status=status)

    @classmethod
    def malformed(cls, server: str, method: str, what: str) -> McpTransportError:
        return cls(ErrorKind.MALFORMED, server,
                   f"The server {server} sent a malformed answer to {method}: {what}.",
                   method=method)

    @classmethod
    def rpc_error(cls, server: str, method: str, code: int, message: str) -> McpTransportError:
        return cls(ErrorKind.RPC_ERROR, server,
                   f"The server {server} rejected {method} with JSON-RPC error {code}: "
                   f"{sanitize_remote_text(message) or 'no message'}.",
                   method=method, rpc_code=code)

    @classmethod
    def content_type(cls, server: str, method: str, media_type: str) -> McpTransportError:
        shown = sanitize_remote_text(media_type, 80) or "an unknown type"
        return cls(ErrorKind.CONTENT_TYPE, server,
                   f"The server {server} answered {method} with content of type {shown}; "
                   "an MCP server must answer with application/json or text/event-stream.",
                   method=method)

    @classmethod
    def too_large(cls, server: str, method: str, cap_bytes: int) -> McpTransportError:
        return cls(ErrorKind.TOO_LARGE, server,
                   f"The answer of the server {server} to {method} is larger than the "
                   f"{cap_bytes // (1024 * 1024)} MiB limit ({cap_bytes} bytes); it was refused, "
                   "not cut.",
                   method=method)

    @classmethod
    def protocol_version(cls, server: str, offered: str, supported: tuple[str, ...]) -> McpTransportError:
        return cls(ErrorKind.PROTOCOL_VERSION, server,
                   f"The server {server} speaks MCP protocol version "
                   f"{sanitize_remote_text(offered, 40) or '(none)'}, which this client does not "
                   f"support (supported: {', '.join(supported)}).",
                   method="initialize")

    @classmethod
    def resume_too_late(cls, server: str, method: str, budget_s: float, delay_s: float,
                        remaining_s: float) -> McpTransportError:
        delay = ("1 second" if delay_s == 1 else "{seconds:g} seconds".format(seconds=delay_s))
        left = ("{seconds:.1f} second was" if round(remaining_s, 1) == 1 else "{seconds:.1f} seconds were").format(
            seconds=remaining_s)
        return cls(ErrorKind.TIMED_OUT, server,
                   "The server {server} closed the answer stream of {method} before answering and asked the "
                   "client to come back in {delay}, but only {left} left of the {budget}-second budget, so the "
                   "client stopped waiting.".format(server=server, method=method, delay=delay, left=left,
                                                    budget=_seconds(budget_s)),
                   method=method, budget_s=budget_s)

    @classmethod
    def session_expired(cls, server: str, method: str) -> McpTransportError:
        return cls(ErrorKind.SESSION_EXPIRED, server,
                   f"The server {server} no longer knows the session of this operation "
                   f"(HTTP 404 on {method}), also after one fresh start.",
                   method=method, http_status=404)

    @classmethod
    def exhausted_budget(cls, server: str, method: str, budget_s: float) -> McpTransportError:
        return cls(ErrorKind.EXHAUSTED_BUDGET, server,
                   f"{method} was not sent to the server {server}: the {_seconds(budget_s)}-second "
                   "budget of this operation was used up by its earlier steps. The server was not "
                   "asked; this is the configured operation budget (a setting you can raise), "
                   "not a server that failed to answer.",
                   method=method, budget_s=budget_s)

    @classmethod
    def timed_out(cls, server: str, method: str, budget_s: float, granted_s: int,
                  remaining_s: float | None = None) -> McpTransportError:
        """The leg's grant ran out. ``remaining_s``: what was left of the budget when it was granted.

        A grant is whole seconds, so it can be longer than what remained; the message then says so
        instead of claiming the budget held.
        """
        text = f"The server {server} did not finish answering {method} "
        if remaining_s is None or granted_s - remaining_s < 0.005:
            text += (f"within the {granted_s} s left of the {_seconds(budget_s)}-second budget of this "
                     "operation, so the request was stopped.")
        else:
            if budget_s - remaining_s < 0.005:
                why = f"The budget of this operation is {_seconds(budget_s)} s"
            else:
                why = (f"Only {_decimals(remaining_s)} s of the {_seconds(budget_s)}-second budget of this "
                       "operation were left when it was sent")
            text += (f"within the {granted_s} s granted to it, so the request was stopped. {why}, but a "
                     f"step is always granted whole seconds (at least one), so it was given {granted_s} s "
                     "and the operation ran past its budget.")
        text += " The budget is a setting you can raise if this server is slow but healthy."
        return cls(ErrorKind.TIMED_OUT, server, text, method=method, budget_s=budget_s)

    @classmethod
    def cancelled(cls, server: str, method: str, in_flight: bool) -> McpTransportError:
        if in_flight:
            # Sent but unanswered: the server may have been working on it for a while (progress
            # notes prove it), so "on its way" would understate what may have happened.
            text = (f"You cancelled the operation after {method} had been sent to the server {server}, "
                    "before its answer arrived. Whether the server acted on it is unknown.")
        else:
            text = (f"You cancelled the operation before its request reached the server {server} "
                    f"(during {method}); the work was not sent.")
        return cls(ErrorKind.CANCELLED, server, text, method=method, in_flight=in_flight,
                   _cancellation=True)
