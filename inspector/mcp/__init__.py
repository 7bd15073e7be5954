"""The MCP client: clock, deadline, cancel signal, legs, channels, client. Depends on nothing of ours."""

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
    "BudgetExhausted", "BudgetReading", "BudgetVerdict", "CancelSignal", "FanOut", "Clock", "DEFAULT_BUDGET_SECONDS",
    "ERROR_CODES", "ErrorKind",
    "FakeClock", "HANDSHAKE_VERSIONS", "InvalidServerError", "LegFinished", "LegOutcome", "LegStarted",
    "LogLevelRefused", "MAX_BODY_BYTES", "MAX_PAGES", "MAXIMUM_BUDGET_SECONDS", "MINIMUM_LEG_SECONDS", "McpClient",
    "McpTransportError",
    "MonotonicClock", "NullObserver", "OperationDeadline", "OperationFinished", "OperationObserver",
    "OperationRecorder", "OperationStarted", "PingResult", "ProgressSeen", "REDACTED", "Secrets", "ServerEndpoint",
    "ServerRequestSeen",
    "ElicitationRequest", "FormField", "LOG_LEVELS", "RequestRefused", "Root", "ServerRequestHandler",
    "ToolArgument", "ToolCallResult", "ToolCatalogue", "defaults_content", "form_fields", "parse_budget", "public_url",
    "read_budget", "tool_arguments",
]
