"""What an operation tells its observer while it runs: the budget bar and the store read these."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from .server_requests import ServerRequestSeen
from .standalone import LINE_PROBLEM, STDERR, ServerNotification

#: How many notifications (log messages, list changes) an operation's recorder keeps.
MAX_RECORDED_NOTIFICATIONS = 1000
#: How many of the server's stderr lines an operation's recorder keeps: the last ones, which
#: say why a process failed (a flood of lines before them is counted, not kept).
MAX_RECORDED_STDERR = 200
#: Of an operation's progress notes the recorder keeps the first and the last ones, and counts the
#: others: a call may report progress for hours. A step keeps as many (``inspector.runs.progress``).
KEEP_FIRST_PROGRESS = 10
KEEP_LAST_PROGRESS = 40
#: How many faults of the line (not JSON on stdout, a line over the limit) a recorder keeps: the first.
MAX_RECORDED_LINE_PROBLEMS = 20


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
    #: What travelled, redacted and bounded (:mod:`.wire`); ``None`` when not kept.
    exchange: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The leg as ``call --json`` reports it: without its exchange (the stored step has it)."""
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
    #: How the server was reached: "http" (Streamable HTTP), "sse" (the older HTTP+SSE transport,
    #: also when the client found it by itself) or "stdio" (a command's stdin and stdout).
    transport: str | None = None
    #: The protocol revision the operation spoke (``None`` when none was agreed).
    protocol_version: str | None = None
    #: The era it spoke in: "handshake" or "stateless" (``None`` when it never got that far).
    era: str | None = None


@dataclass(frozen=True)
class LogLevelRefused:
    """The server answered ``logging/setLevel`` with an error (e.g. method not found): the
    operation went on, and the server sends log messages at the level it chooses."""

    level: str
    #: The JSON-RPC error, as a transport error (its sentence names the server and the code).
    error: Any  # McpTransportError


@dataclass(frozen=True)
class TaskHandle:
    """What names a task on its server, kept with the step so the task can be looked up again."""

    task_id: str
    #: The server's label (its configured name, or its address): what ``run-inspector task`` takes.
    server: str
    #: Which shape made it: ``2025-11-25`` or ``2026-07-28``.
    shape: str
    #: The session it was made in, kept open when the task outlived the budget: a server of the
    #: handshake era may know a task only in the session that made it.
    session_id: str | None = None

    def to_dict(self, status: str | None = None, polls: int | None = None) -> dict[str, Any]:
        entry: dict[str, Any] = {"taskId": self.task_id, "server": self.server, "shape": self.shape}
        if self.session_id is not None:
            entry["sessionId"] = self.session_id
        if status is not None:
            entry["status"] = status
        if polls is not None:
            entry["polls"] = polls
        return entry


@dataclass(frozen=True)
class TaskSeen:
    """A report: the task's state after its creation or a poll (``polls`` counts ``tasks/get``)."""

    handle: TaskHandle
    status: str
    polls: int
    status_message: str | None = None

    def to_dict(self) -> dict[str, Any]:
        entry = self.handle.to_dict(self.status, self.polls)
        if self.status_message:
            entry["statusMessage"] = self.status_message
        return entry


class OperationObserver(Protocol):
    """Receives the reports of one operation, on the thread that runs it."""

    def operation_started(self, report: OperationStarted) -> None: ...
    def leg_started(self, report: LegStarted) -> None: ...
    def leg_finished(self, report: LegFinished) -> None: ...
    def progress(self, report: ProgressSeen) -> None: ...
    def server_request(self, report: ServerRequestSeen) -> None: ...
    def notification(self, report: ServerNotification) -> None: ...
    def log_level_refused(self, report: LogLevelRefused) -> None: ...
    def task_seen(self, report: TaskSeen) -> None: ...
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

    def task_seen(self, report: TaskSeen) -> None:
        pass

    def operation_finished(self, report: OperationFinished) -> None:
        pass


@dataclass
class OperationRecorder(NullObserver):
    """Keeps every report, in order: for the command line, the store and tests."""

    started: OperationStarted | None = None
    legs_started: list[LegStarted] = field(default_factory=list)
    legs: list[LegFinished] = field(default_factory=list)
    #: The progress notes, in order: the first :data:`KEEP_FIRST_PROGRESS` and the last
    #: :data:`KEEP_LAST_PROGRESS`; ``progress_dropped`` counts the ones between them.
    progress_seen: list[ProgressSeen] = field(default_factory=list)
    progress_dropped: int = 0
    server_requests: list[ServerRequestSeen] = field(default_factory=list)
    notifications: list[ServerNotification] = field(default_factory=list)
    notifications_dropped: int = 0
    #: The server's stderr lines written during the operation (the last ones), apart from its
    #: notifications: a process that writes thousands of them must not crowd its log messages out.
    stderr: deque[str] = field(default_factory=lambda: deque(maxlen=MAX_RECORDED_STDERR))
    stderr_dropped: int = 0
    #: Faults of the line seen during the operation (the first ones), which often explain a failure.
    line_problems: list[str] = field(default_factory=list)
    line_problems_dropped: int = 0
    log_level_refused_by: LogLevelRefused | None = None
    #: The task the operation ran as, as last seen (its handle, status and polls so far).
    task: TaskSeen | None = None
    finished: OperationFinished | None = None

    def operation_started(self, report: OperationStarted) -> None:
        self.started = report

    def leg_started(self, report: LegStarted) -> None:
        self.legs_started.append(report)

    def leg_finished(self, report: LegFinished) -> None:
        self.legs.append(report)

    def progress(self, report: ProgressSeen) -> None:
        self.progress_seen.append(report)
        if len(self.progress_seen) > KEEP_FIRST_PROGRESS + KEEP_LAST_PROGRESS:
            del self.progress_seen[KEEP_FIRST_PROGRESS]  # the oldest of the last ones goes to make room
            self.progress_dropped += 1

    def server_request(self, report: ServerRequestSeen) -> None:
        self.server_requests.append(report)

    def notification(self, report: ServerNotification) -> None:
        if report.method == STDERR:
            self._stderr_line(report.params.get("data"))
            return
        if report.method == LINE_PROBLEM:
            if len(self.line_problems) < MAX_RECORDED_LINE_PROBLEMS:
                self.line_problems.append(str(report.params.get("data", "")))
            else:
                self.line_problems_dropped += 1
            return
        # A server may send log messages without end: the first ones are kept, the rest counted.
        if len(self.notifications) < MAX_RECORDED_NOTIFICATIONS:
            self.notifications.append(report)
        else:
            self.notifications_dropped += 1

    def _stderr_line(self, line: object) -> None:
        if len(self.stderr) == MAX_RECORDED_STDERR:
            self.stderr_dropped += 1  # the oldest line goes to make room
        self.stderr.append(line if isinstance(line, str) else str(line))

    def log_level_refused(self, report: LogLevelRefused) -> None:
        self.log_level_refused_by = report

    def task_seen(self, report: TaskSeen) -> None:
        self.task = report

    def operation_finished(self, report: OperationFinished) -> None:
        self.finished = report

    @property
    def grants(self) -> list[int]:
        return [leg.granted_s for leg in self.legs_started]


class FanOut(NullObserver):
    """Passes every report to several observers, in order."""

    def __init__(self, *observers: OperationObserver | None) -> None:
        self._observers = [observer for observer in observers if observer is not None]

    def signin_step(self, report: Any) -> None:
        """A sign-in's step done (``signin.flow.SignInStep``), to the observers that listen for it."""
        for observer in self._observers:
            hear = getattr(observer, "signin_step", None)
            if callable(hear):
                hear(report)

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

    def task_seen(self, report: TaskSeen) -> None:
        for observer in self._observers:
            observer.task_seen(report)

    def operation_finished(self, report: OperationFinished) -> None:
        for observer in self._observers:
            observer.operation_finished(report)
