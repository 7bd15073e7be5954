"""The Resources tab's Subscribe / Unsubscribe, its marks in the list, and what an update shows.

**Subscribe** (enabled only when the listening session's server offers subscriptions: the
handshake era's ``resources.subscribe: true``; in the stateless era the acknowledgement says) is an
operation on the listening session (:mod:`.subscriptions`). A subscribed resource is marked in the
list ("subscribed", and "updated 14:03:21" once the server said it changed). An update of the
chosen resource offers **Read again**. **Re-read on update** (off by default: each read is an
operation stored as a run, and a resource that ticks every second would fill the run list) reads
an updated resource at once, one read at a time per resource: updates that arrive while it is read
are answered by one more read afterwards, never by a pile of them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QListWidget, QPushButton, QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_time

from ..language import on_language_changed, translated
from ..widgets.plain_text import cell_text
from ..widgets.wrapping_row import WrappingRow
from .operation_task import OperationTask
from .subscriptions import ResourceSubscriptions
from .suggesting_fields import Submit, when_done

_ITEM = Qt.ItemDataRole.UserRole
#: Where a list item keeps its text without marks.
BASE_TEXT = _ITEM + 2


class SubscribeControls(QWidget):
    """Subscribe / Unsubscribe for the URI chosen, Read again, and Re-read on update."""

    def __init__(self, submit: Submit, subscriptions: ResourceSubscriptions, items: QListWidget,
                 uri: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self.subscriptions = subscriptions
        self._items = items
        self._uri = uri
        self._busy: OperationTask | None = None
        #: Re-reads running, by URI, and the URIs updated meanwhile (read once more afterwards).
        self._reading: dict[str, OperationTask] = {}
        self._again: set[str] = set()
        #: The URIs updated since they were last read here.
        self.unread: set[str] = set()
        self.toggle = QPushButton()
        self.toggle.clicked.connect(self.toggle_subscription)
        self.read_again = QPushButton()
        self.read_again.clicked.connect(lambda: self.reread(self._uri()))
        self.auto = translated(QCheckBox(), "setText", lambda: _("Re-read on update"))
        translated(self.auto, "setAccessibleName", lambda: _("Read a subscribed resource again when it is updated"))
        row = WrappingRow(self)  # the check box goes under the buttons where the tab is narrow
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.toggle)
        row.addWidget(self.read_again)
        row.addStretch(1)
        row.addWidget(self.auto)
        subscriptions.changed.connect(self.refresh)
        subscriptions.updated.connect(self._updated)
        on_language_changed(self, self.refresh)
        self.refresh()

    # -- state --------------------------------------------------------------------------------------

    def refresh(self) -> None:
        """The buttons and the list's marks as the subscriptions and the chosen URI say."""
        uri = self._uri()
        subscribed = bool(uri) and self.subscriptions.is_subscribed(uri)
        offered = self.subscriptions.offered()
        self.toggle.setText(_("Unsubscribe") if subscribed else _("Subscribe"))
        self.toggle.setAccessibleName(_("Unsubscribe from the resource") if subscribed
                                      else _("Subscribe to the resource's updates"))
        busy = self._busy is not None and self._busy.running
        self.toggle.setEnabled(bool(uri) and not busy and (subscribed or offered is True) and "{" not in uri)
        self.toggle.setToolTip("" if offered is not False else _("The server does not offer subscriptions."))
        at = self.subscriptions.last_update(uri) if subscribed else None
        self.read_again.setVisible(at is not None and uri in self.unread)
        self.read_again.setAccessibleName(_("Read the updated resource again"))
        if at is not None:
            self.read_again.setText(_("Updated {time}: read again").format(time=format_time(at)))
        self._mark()

    def _mark(self) -> None:
        for row in range(self._items.count()):
            item = self._items.item(row)
            base = item.data(BASE_TEXT)
            address = str(item.data(_ITEM) or "")
            if base is None or not self.subscriptions.is_subscribed(address):
                if base is not None:
                    item.setText(base)
                continue
            at = self.subscriptions.last_update(address)
            mark = (_("subscribed, updated {time}").format(time=format_time(at)) if at is not None
                    else _("subscribed"))
            item.setText(cell_text(_("{resource} ({mark})").format(resource=base, mark=mark), 260))

    # -- actions ------------------------------------------------------------------------------------

    def toggle_subscription(self) -> OperationTask | None:
        uri = self._uri()
        if not uri:
            return None
        method = "resources/unsubscribe" if self.subscriptions.is_subscribed(uri) else "resources/subscribe"
        task = self._submit(method, {"uri": uri}, _("{method} {uri}").format(method=method, uri=cell_text(uri, 80)))
        self._busy = task
        if task is not None:
            when_done(task, self.subscriptions.finished)
            task.finished.connect(lambda _outcome: self.refresh())
        self.refresh()
        return task

    def reread(self, uri: str) -> OperationTask | None:
        if not uri:
            return None
        running = self._reading.get(uri)
        if running is not None and running.running:
            self._again.add(uri)
            return None
        self.unread.discard(uri)
        task = self._submit("resources/read", {"uri": uri}, _("resources/read {uri}").format(uri=cell_text(uri, 80)))
        if task is not None:
            self._reading[uri] = task
            task.finished.connect(lambda _outcome, address=uri: self._read(address))
        self.refresh()
        return task

    def _read(self, uri: str) -> None:
        self._reading.pop(uri, None)
        if uri in self._again:
            self._again.discard(uri)
            self.reread(uri)

    def _updated(self, uri: str, at: datetime) -> None:
        self.unread.add(uri)
        if self.auto.isChecked():
            self.reread(uri)
        self.refresh()


__all__ = ["BASE_TEXT", "SubscribeControls"]
