"""The MCP client: clock, deadline, cancel signal, legs, channels, client. Depends on nothing of ours.

The names below are loaded when first used: a command that needs a sentence or a server's address
does not pay for the HTTP library and the client (``from inspector.mcp import McpClient`` works as
ever).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Which module of this package holds each public name.
_WHERE = {
    "BudgetExhausted": "deadline",
    "BudgetReading": "deadline",
    "BudgetVerdict": "deadline",
    "CancelSignal": "cancel",
    "Clock": "clock",
    "DEFAULT_BUDGET_SECONDS": "deadline",
    "ERROR_CODES": "errors",
    "ElicitationRequest": "server_requests",
    "ErrorKind": "errors",
    "FakeClock": "clock",
    "FanOut": "reports",
    "FormField": "elicitation",
    "HANDSHAKE_VERSIONS": "client",
    "InvalidServerError": "server",
    "LOG_LEVELS": "server_requests",
    "LegFinished": "reports",
    "LegOutcome": "reports",
    "LegStarted": "reports",
    "LogLevelRefused": "reports",
    "MAXIMUM_BUDGET_SECONDS": "deadline",
    "MAX_BODY_BYTES": "channels.http",
    "MAX_PAGES": "client",
    "MINIMUM_LEG_SECONDS": "deadline",
    "McpClient": "client",
    "McpTransportError": "errors",
    "MonotonicClock": "clock",
    "NullObserver": "reports",
    "OperationDeadline": "deadline",
    "OperationFinished": "reports",
    "OperationObserver": "reports",
    "OperationRecorder": "reports",
    "OperationStarted": "reports",
    "PingResult": "results",
    "ProgressSeen": "reports",
    "REDACTED": "secrets",
    "RequestRefused": "server_requests",
    "Root": "server_requests",
    "Secrets": "secrets",
    "ServerEndpoint": "server",
    "ServerRequestHandler": "server_requests",
    "ServerRequestSeen": "server_requests",
    "ToolArgument": "results",
    "ToolCallResult": "results",
    "ToolCatalogue": "results",
    "bounded_budget": "deadline",
    "defaults_content": "elicitation",
    "form_fields": "elicitation",
    "parse_budget": "deadline",
    "public_url": "server",
    "read_budget": "deadline",
    "tool_arguments": "results",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


if TYPE_CHECKING:
    from .cancel import CancelSignal
    from .channels.http import MAX_BODY_BYTES
    from .client import HANDSHAKE_VERSIONS, MAX_PAGES, McpClient
    from .clock import Clock, FakeClock, MonotonicClock
    from .deadline import (
                           DEFAULT_BUDGET_SECONDS,
                           MAXIMUM_BUDGET_SECONDS,
                           MINIMUM_LEG_SECONDS,
                           BudgetExhausted,
                           BudgetReading,
                           BudgetVerdict,
                           OperationDeadline,
                           bounded_budget,
                           parse_budget,
                           read_budget,
    )
    from .elicitation import FormField, defaults_content, form_fields
    from .errors import ERROR_CODES, ErrorKind, McpTransportError
    from .reports import (
                           FanOut,
                           LegFinished,
                           LegOutcome,
                           LegStarted,
                           LogLevelRefused,
                           NullObserver,
                           OperationFinished,
                           OperationObserver,
                           OperationRecorder,
                           OperationStarted,
                           ProgressSeen,
    )
    from .results import PingResult, ToolArgument, ToolCallResult, ToolCatalogue, tool_arguments
    from .secrets import REDACTED, Secrets
    from .server import InvalidServerError, ServerEndpoint, public_url
    from .server_requests import (
                           LOG_LEVELS,
                           ElicitationRequest,
                           RequestRefused,
                           Root,
                           ServerRequestHandler,
                           ServerRequestSeen,
    )

__all__ = [
    "BudgetExhausted", "BudgetReading", "BudgetVerdict", "CancelSignal", "Clock", "DEFAULT_BUDGET_SECONDS",
    "ERROR_CODES", "ElicitationRequest", "ErrorKind", "FakeClock", "FanOut", "FormField", "HANDSHAKE_VERSIONS",
    "InvalidServerError", "LOG_LEVELS", "LegFinished", "LegOutcome", "LegStarted", "LogLevelRefused",
    "MAXIMUM_BUDGET_SECONDS", "MAX_BODY_BYTES", "MAX_PAGES", "MINIMUM_LEG_SECONDS", "McpClient",
    "McpTransportError", "MonotonicClock", "NullObserver", "OperationDeadline", "OperationFinished",
    "OperationObserver", "OperationRecorder", "OperationStarted", "PingResult", "ProgressSeen", "REDACTED",
    "RequestRefused", "Root", "Secrets", "ServerEndpoint", "ServerRequestHandler", "ServerRequestSeen",
    "ToolArgument", "ToolCallResult", "ToolCatalogue", "bounded_budget", "defaults_content", "form_fields",
    "parse_budget", "public_url", "read_budget", "tool_arguments",
]
