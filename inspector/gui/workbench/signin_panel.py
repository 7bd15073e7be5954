"""Sign-in in the window: the Servers panel's line on the selected server's sign-in (needs sign-in,
signed in as whom with which issuer until when, or not signed in) with Sign in and Sign out, and
the sign-in views (one per server) that open when a server asks or the user signs in."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from inspector.i18n import _
from inspector.i18n.entry_names import shown_label
from inspector.mcp import InvalidServerError, ServerEndpoint
from inspector.store import ServerRecord
from inspector.store.signin_vault import NOT_KEPT

from ..dialogs.signin_view import SignInView
from ..language import on_language_changed, translated
from ..widgets.frame_throttle import FrameThrottle
from ..widgets.snug_label import HeightFollowingLabel
from .demo_service import DemoService
from .listening import WindowListener
from .operation_task import OperationTask
from .server_admin import ServerAdmin
from .servers_panel import ServersPanel
from .signin_engine import SignInRequest, SignIns, SignInTask
from .signin_steps import server_signin_text, signed_in_text


class _WrappedLine(HeightFollowingLabel):
    """A word-wrapped label never squeezed below its text's height (the list above gives way):
    its minimum height follows its text and width (a splitter asks for minimum sizes only)."""

    def _fit(self) -> None:
        margins = self.contentsMargins()
        width = max(self.width() - margins.left() - margins.right(), 40)
        self.setMinimumHeight(0)  # QLabel's heightForWidth is never below it: wider, fewer lines
        self.setMinimumHeight(self.heightForWidth(width) if self.text() else 0)


class SignInStrip(QWidget):
    """The selected server's sign-in in a line, with Sign in and Sign out."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.line = _WrappedLine()
        self.line.setTextFormat(Qt.TextFormat.PlainText)
        self.line.setWordWrap(True)
        translated(self.line, "setAccessibleName", lambda: _("Sign-in"))
        self.sign_in_button = translated(QPushButton(), "setText", lambda: _("Sign in"))
        translated(self.sign_in_button, "setAccessibleName", lambda: _("Sign in to the server"))
        self.sign_out_button = translated(QPushButton(), "setText", lambda: _("Sign out"))
        translated(self.sign_out_button, "setAccessibleName", lambda: _("Sign out of the server"))
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.sign_in_button)
        buttons.addWidget(self.sign_out_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.addWidget(self.line)
        layout.addLayout(buttons)


class SignInRoom(QObject):
    """Connects the engine's sign-ins to the Servers panel and the sign-in views."""

    def __init__(self, signins: SignIns, admin: ServerAdmin, panel: ServersPanel, window: QWidget,
                 listener: WindowListener | None = None, demo: DemoService | None = None) -> None:
        super().__init__(window)
        self.signins = signins
        #: The window's demo server: its entry never asks for a sign-in, so none is offered there.
        self.demo = demo
        #: Servers (by key) that answered an operation here while not signed in.
        self.answered: set[str] = set()
        self.admin = admin
        self.panel = panel
        self.window = window
        #: The open sign-in views, by server key.
        self.views: dict[str, SignInView] = {}
        signins.ask_user = True  # the view asks before a browser opens
        self.strip = SignInStrip()
        panel.add_below_list(self.strip)
        self.strip.sign_in_button.clicked.connect(self.sign_in_current)
        self.strip.sign_out_button.clicked.connect(self.sign_out_current)
        admin.selected.connect(lambda _record: self.refresh())
        # A sign-in, a sign-out or tokens read: what an earlier operation showed says no more.
        signins.state_changed.connect(self.answered.discard)
        signins.state_changed.connect(lambda _key: self.refresh())
        if listener is not None:  # the listening session follows the sign-in (a new token, or none)
            signins.state_changed.connect(listener.signin_changed)
        signins.asked.connect(self.ask)
        signins.started.connect(self._started)
        engine = signins._engine
        engine.submitted.connect(self._submitted)
        # Said again at most once a frame for operations' ends: twenty may end together.
        self._ends_seen = FrameThrottle(self.refresh, self)
        self.refresh()
        on_language_changed(self, self.refresh)

    def _is_demo(self, url: str) -> bool:
        return self.demo is not None and self.demo.is_entry(url)

    def _endpoint(self, record: ServerRecord | None) -> ServerEndpoint | None:
        if record is None:
            return None
        try:
            return self.admin.endpoint_for(record)
        except (InvalidServerError, ValueError):
            return None

    def refresh(self) -> None:
        """Say the selected server's sign-in again (selection, a sign-in, a sign-out, an operation)."""
        if self.admin.closed:
            return  # the window shut down (its store is closed): a late language change says nothing
        self._mark_rows()
        record = self.admin.current()
        endpoint = self._endpoint(record)
        strip = self.strip
        strip.setVisible(record is not None)
        if endpoint is None:
            strip.line.setText("")
            strip.sign_in_button.setEnabled(False)
            strip.sign_out_button.setEnabled(False)
            return
        command = endpoint.is_command
        tokens = self.signins.tokens(endpoint)
        # Only said of tokens, which are read from the vault: a vault never read is not opened for this.
        kept = getattr(self.signins.vault, "persistent", True) if tokens is not None else True
        demo = not command and self._is_demo(record.url) and tokens is None
        needs = self.signins.needs(endpoint)
        strip.line.setText(server_signin_text(tokens, needs, command, kept, demo=demo,
                                              answered=endpoint.key in self.answered))
        strip.line.setToolTip("" if tokens is None else
                              signed_in_text(tokens) if kept else "\n".join((signed_in_text(tokens), _(NOT_KEPT))))
        strip.sign_in_button.setEnabled(not command and self.signins.running(endpoint) is None)
        strip.sign_out_button.setEnabled(not command and tokens is not None)
        for button in (strip.sign_in_button, strip.sign_out_button):
            button.setVisible(not demo)  # a sign-in there would only fail (it has no authorization server)

    def _mark_rows(self) -> None:
        """Each server's row says whether it needs a sign-in or is signed in (from what is known)."""
        model = self.panel.model
        marks = {}
        for row in range(model.rowCount()):
            record = model.record(row)
            endpoint = self._endpoint(record) if record is not None and record.transport != "stdio" else None
            if endpoint is None:
                continue
            if self.signins.needs(endpoint):
                marks[record.url] = _("needs sign-in")
            elif self.signins.tokens(endpoint) is not None:
                marks[record.url] = _("signed in")
        model.set_signin_marks(marks)

    # -- actions ----------------------------------------------------------------------------------

    def sign_in_current(self) -> SignInTask | None:
        record = self.admin.current()
        endpoint = self.admin.endpoint_or_say(record) if record is not None else None
        if endpoint is None or endpoint.is_command or self._is_demo(record.url):
            return None
        task = self.signins.sign_in(endpoint)
        self.refresh()
        return task

    def sign_out_current(self) -> None:
        endpoint = self._endpoint(self.admin.current())
        if endpoint is not None and not endpoint.is_command:
            self.signins.sign_out(endpoint)
            self.admin.say(_("Signed out of {server}: its tokens are forgotten.").format(server=shown_label(endpoint)))
        self.refresh()

    # -- the views ------------------------------------------------------------------------------------

    def ask(self, request: SignInRequest) -> SignInView:
        """A server asks for a sign-in: the view opens and asks first."""
        view = SignInView(self.signins, request.server, request=request, parent=self.window)
        self._open(request.server.key, view)
        return view

    def _started(self, task: SignInTask) -> None:
        view = self.views.get(task.server.key)
        if view is not None and (view.task is task or view.request is not None and view.task is None):
            if view.task is None:
                view.follow(task)
            return
        self._open(task.server.key, SignInView(self.signins, task.server, task=task, parent=self.window))

    def _open(self, key: str, view: SignInView) -> None:
        old = self.views.pop(key, None)
        if old is not None and old.isVisible() and (old.task is None or not old.task.running):
            old.close()
        self.views[key] = view
        view.finished.connect(lambda _code, key=key, view=view: self._closed(key, view))
        view.show()
        self.refresh()

    def _closed(self, key: str, view: SignInView) -> None:
        if self.views.get(key) is view:
            del self.views[key]

    def _submitted(self, task: OperationTask) -> None:
        task.finished.connect(lambda _outcome, task=task: self._ended(task))

    def _ended(self, task: OperationTask) -> None:
        self.signins.operation_ended(task)
        record = task.outcome.record if task.outcome is not None else None
        if (record is not None and record.health in ("ok", "tool_error") and not task.server.is_command
                and not task.signins_waited):
            if self.signins.tokens(task.server) is None and not self.signins.needs(task.server):
                self.answered.add(task.server.key)  # the panel says so before anyone presses Sign in
        self._ends_seen.request()


__all__ = ["SignInRoom", "SignInStrip"]
