"""What the servers log during operations, on each operation's own session, for the Server log.

A server sends its log messages (``notifications/message``) on the streams of the session they
belong to: the answer stream of an operation's ``tools/call``, or that operation's standalone
``GET`` stream. The window's listening session never sees them. Each operation's observer hands
them to one :class:`OperationLog` on the worker thread; it turns them into :class:`LogEntry`
rows tagged with the operation and the server, and passes them to the GUI thread through its
:class:`~.log_feed.LogFeed`: bounded, and in batches paced to at most one per tick, so a server
that logs thousands of lines a second costs the GUI thread one update per tick, not one per
message. The listening session hands its lines to the same feed.
"""

from __future__ import annotations

from datetime import datetime, timezone

from inspector.i18n import _
from inspector.mcp import LogLevelRefused, ServerRequestSeen
from inspector.mcp.messages import Message
from inspector.mcp.sampling_limits import limit_reached
from inspector.mcp.standalone import ServerNotification

from .log_entry import LogEntry, message_entry
from .log_feed import LogFeed


class OperationLog(LogFeed):
    """The Server log's feed, with the operations' own way in (on the worker thread)."""

    def heard(self, operation: str, server: str, note: ServerNotification) -> None:
        """A notification on the operation's session: log messages become entries."""
        if note.method == "notifications/message":
            self.add(message_entry(note, server, operation))

    def refused(self, operation: str, server: str, report: LogLevelRefused) -> None:
        """The server refused ``logging/setLevel``; the operation went on without a level."""
        self.add(LogEntry(datetime.now(timezone.utc), None, None, report.error, server,
                          request="logging/setLevel", operation=operation, refused=True))

    def declined(self, operation: str, server: str, method: str, reason: Message) -> None:
        """The window declined a request of the server without asking the user (``reason`` says why)."""
        self.add(LogEntry(datetime.now(timezone.utc), None, None, reason, server,
                          request=method, declined=True, operation=operation))

    def asked(self, operation: str, server: str, report: ServerRequestSeen) -> None:
        """A request of the server's: one that a sampling limit refused gets a line saying so."""
        sentence = limit_reached(report.answered) if report.declined else None
        if sentence is not None:
            self.add(LogEntry(datetime.now(timezone.utc), None, None, sentence, server,
                              request=report.method, declined=True, operation=operation))


def operation_tag(run_id: int | None, title: str) -> str:
    """How the Server log names an operation: the number of its run (as the Runs tab, the result
    and the status bar show it) and its title; the title alone while, or if, it has no run."""
    if run_id is None:
        return title
    return _("#{run_id} {title}").format(run_id=run_id, title=title)
