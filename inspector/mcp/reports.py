"""What an operation tells its observer while it runs: the budget bar and the store read these."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from .server_requests import ServerRequestSeen
from .standalone import ServerNotification

#: How many notifications (log messages, list changes) an operation's recorder keeps.
MAX_RECORDED_NOTIFICATIONS = 1000


class LegOutcome(str, Enum):
    """How one leg (one HTTP request) ended."""

    OK = "ok"
    FAILED = "failed"
    NOT_SENT = "not_sent"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class LegStarted:
    method: str
    granted_s: int
    #: Seconds of the operation's budget already spent when the leg started.
    offset_s: float


@dataclass(frozen=True)
class LegFinished:
    method: str
    granted_s: int | None
    elapsed_ms: float | None
    http_status: int | None
    bytes_received: int
    outcome: LegOutcome
    error_kind: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "granted_s": self.granted_s,
            "elapsed_ms": None if self.elapsed_ms is None else round(self.elapsed_ms, 2),
            "http_status": self.http_status,
            "outcome": self.outcome.value,
        }


@dataclass(frozen=True)
class ProgressSeen:
    """A ``notifications/progress`` message read from an event stream."""

    method: str
    progress: float
    total: float | None
    message: str | None
    #: When it arrived: milliseconds since the operation started (on its monotonic clock).
    at_ms: float = 0.0
    #: Seconds of the operation's budget left when it arrived.
    remaining_s: float = 0.0


@dataclass(frozen=True)
class OperationStarted:
    operation: str
    server: str
    budget_s: float


@dataclass(frozen=True)
class OperationFinished:
    operation: str
    server: str
    budget_s: float
    elapsed_ms: float
    #: "ok", "failed" (transport failure) or "cancelled". A tool's ``isError`` is a transport
    #: success: the server answered, the tool said it failed.
    outcome: str
    error: Any = None  # McpTransportError | None
    #: For a work request torn down on the wire (cancel or time-out): could the server be told
    #: to stop (it gave a session id, so ``notifications/cancelled`` went out), or not (no
    #: session: it may run the request to its end)? ``None`` when nothing was torn down.
    server_told_to_stop: bool | None = None


@dataclass(frozen=True)
class LogLevelRefused:
    """The server answered ``logging/setLevel`` with an error (e.g. method not found): the
    operation went on, and the server sends log messages at the level it chooses."""

    level: str
    #: The JSON-RPC error, as a transport error (its sentence names the server and the code).
    error: Any  # McpTransportError


class OperationObserver(Protocol):
    """Receives the reports of one operation, on the thread that runs it."""

    def operation_started(self, report: OperationStarted) -> None: ...
    def leg_started(self, report: LegStarted) -> None: ...
    def leg_finished(self, report: LegFinished) -> None: ...
    def progress(self, report: ProgressSeen) -> None: ...
    def server_request(self, report: ServerRequestSeen) -> None: ...
    def notification(self, report: ServerNotification) -> None: ...
    def log_level_refused(self, report: LogLevelRefused) -> None: ...
    def operation_finished(self, report: OperationFinished) -> None: ...


class NullObserver:
    """Ignores every report."""

    def operation_started(self, report: OperationStarted) -> None:
        pass

    def leg_started(self, report: LegStarted) -> None:
        pass

    def leg_finished(self, report: LegFinished) -> None:
        pass

    def progress(self, report: ProgressSeen) -> None:
        pass

    def server_request(self, report: ServerRequestSeen) -> None:
        pass

    def notification(self, report: ServerNotification) -> None:
        pass

    def log_level_refused(self, report: LogLevelRefused) -> None:
        pass

    def operation_finished(self, report: OperationFinished) -> None:
        pass


@dataclass
class OperationRecorder(NullObserver):
    """Keeps every report, in order: for the command line, the store and tests."""

    started: OperationStarted | None = None
    legs_started: list[LegStarted] = field(default_factory=list)
    legs: list[LegFinished] = field(default_factory=list)
    progress_seen: list[ProgressSeen] = field(default_factory=list)
    server_requests: list[ServerRequestSeen] = field(default_factory=list)
    notifications: list[ServerNotification] = field(default_factory=list)
    notifications_dropped: int = 0
    log_level_refused_by: LogLevelRefused | None = None
    finished: OperationFinished | None = None

    def operation_started(self, report: OperationStarted) -> None:
        self.started = report

    def leg_started(self, report: LegStarted) -> None:
        self.legs_started.append(report)

    def leg_finished(self, report: LegFinished) -> None:
        self.legs.append(report)

    def progress(self, report: ProgressSeen) -> None:
        self.progress_seen.append(report)

    def server_request(self, report: ServerRequestSeen) -> None:
        self.server_requests.append(report)

    def notification(self, report: ServerNotification) -> None:
        # A server may send log messages without end: the first ones are kept, the rest counted.
        if len(self.notifications) < MAX_RECORDED_NOTIFICATIONS:
            self.notifications.append(report)
        else:
            self.notifications_dropped += 1

    def log_level_refused(self, report: LogLevelRefused) -> None:
        self.log_level_refused_by = report

    def operation_finished(self, report: OperationFinished) -> None:
        self.finished = report

    @property
    def grants(self) -> list[int]:
        return [leg.granted_s for leg in self.legs_started]


class FanOut(NullObserver):
    """Passes every report to several observers, in order."""

    def __init__(self, *observers: OperationObserver | None) -> None:
        self._observers = [observer for observer in observers if observer is not None]

    def operation_started(self, report: OperationStarted) -> None:
        for observer in self._observers:
            observer.operation_started(report)

    def leg_started(self, report: LegStarted) -> None:
        for observer in self._observers:
            observer.leg_started(report)

    def leg_finished(self, report: LegFinished) -> None:
        for observer in self._observers:
            observer.leg_finished(report)

    def progress(self, report: ProgressSeen) -> None:
        for observer in self._observers:
            observer.progress(report)

    def server_request(self, report: ServerRequestSeen) -> None:
        for observer in self._observers:
            observer.server_request(report)

    def notification(self, report: ServerNotification) -> None:
        for observer in self._observers:
            observer.notification(report)

    def log_level_refused(self, report: LogLevelRefused) -> None:
        for observer in self._observers:
            observer.log_level_refused(report)

    def operation_finished(self, report: OperationFinished) -> None:
        for observer in self._observers:
            observer.operation_finished(report)
