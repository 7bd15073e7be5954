"""The Servers panel's Test connection: a ping of a server, its outcome said on the panel's line and
to a screen reader (shown again in a new language, not said again)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.i18n import _
from inspector.i18n.formatting import format_duration
from inspector.i18n.messages import translate
from inspector.store import ServerRecord

from ..widgets.accessibility import announce
from .operation_task import OperationOutcome, OperationTask

if TYPE_CHECKING:
    from .server_admin import ServerAdmin


class ConnectionTest:
    """Pings a server and says how it answered, while it is still the one selected."""

    def __init__(self, admin: ServerAdmin) -> None:
        self._admin = admin
        #: The last test's server and outcome (its sentence is said again in a new language).
        self._last: tuple[str, OperationOutcome] | None = None

    def run(self, record: ServerRecord) -> OperationTask | None:
        admin = self._admin
        endpoint = admin.endpoint_or_say(record)
        if endpoint is None:
            return None
        task = admin.engine.ping(endpoint, admin.budget_for(record))
        self._last = None
        admin.panel.test_result.setText(_("Testing the connection…"))
        task.finished.connect(lambda outcome: self._tested(record.url, outcome, said=True))
        return task

    def retranslate(self) -> None:
        if self._last is not None:
            self._tested(*self._last)

    def _tested(self, url: str, outcome: OperationOutcome, *, said: bool = False) -> None:
        """Show how the server answered; ``said``: to a screen reader too (it heard "ping (failed)" from
        the status line, never why)."""
        current = self._admin.current()
        if current is None or current.url != url:
            return
        self._last = (url, outcome)
        record = outcome.record
        if record is not None and record.status == "ok":
            text = _("Answered in {duration}; speaks MCP {version}.").format(
                duration=format_duration(record.latency_ms / 1000), version=record.result.protocol_version)
        elif record is not None and record.status == "cancelled":
            text = _("The connection test was cancelled.")
        else:
            text = _("No answer: {reason}").format(reason=translate(record.error) if record and record.error
                                                    else outcome.internal_error or "")
        self._admin.panel.test_result.setText(text)
        if said:
            announce(self._admin.panel.test_result, text)


__all__ = ["ConnectionTest"]
