"""The Server log dock: the selected server's listening session and what it (and operations) hear.

The dock is as high as what it shows until the user sizes it: an empty log its state line and column
heads, a log in use a row per line up to :data:`FITTED_MOST_PX` (and :data:`FITTED_SHARE` of the
window). A fixed 150 px for an empty log left the Runs tab's timeline four rows at 1,024 by 700 pixels.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from inspector.i18n import _
from inspector.i18n.entry_names import shown_label
from inspector.i18n.formatting import format_seconds
from inspector.i18n.messages import translate
from inspector.mcp import ServerEndpoint
from inspector.mcp.listening import ListenerState, ListenerStatus
from inspector.mcp.roots import roots_from_uris
from inspector.store import ServerRecord

from ..language import translated
from .listening import LogEntry, WindowListener
from .server_log import ServerLogView

#: The most height the log takes by itself (the user may drag it higher), and its greatest share of the window's.
FITTED_MOST_PX = 150
FITTED_SHARE = 1 / 5
_SIDES = (Qt.DockWidgetArea.BottomDockWidgetArea, Qt.DockWidgetArea.TopDockWidgetArea)


class ServerLogDock(QDockWidget):
    """Holds one listening session (for the selected server) and shows its log and state."""

    def __init__(self, listener: WindowListener, parent: QWidget) -> None:
        super().__init__(parent)
        self.listener = listener
        self.view = ServerLogView()
        translated(self, "setWindowTitle", lambda: _("Server log"))
        self.setObjectName("dock-server-log")
        translated(self, "setAccessibleName", lambda: _("Server log"))
        self.setWidget(self.view)
        self.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                         | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self._listened: tuple[ServerEndpoint, tuple[str, ...]] | None = None
        #: The listener's last state (its sentence is said again in a new language).
        self._said: tuple[str, ListenerStatus] | None = None
        #: The selected server has no stream to listen to: (its label, whether it is a command).
        self._no_stream: tuple[str, bool] | None = None
        #: Why the selected server cannot be listened to yet (its secrets still being read from the
        #: keyring, an address that cannot be used), said in the current language.
        self._unusable: Callable[[], str] | None = None
        self.closed = False
        listener.status_changed.connect(self._status)
        #: The height the dock was last fitted to, and the window's then; another height in a window of
        #: the same height means the user sized it (kept from then on).
        self._fitted: int | None = None
        self._window_height: int | None = None
        self._fitting = False
        self.sized_by_user = False
        self._fit_soon = QTimer(self)
        self._fit_soon.setSingleShot(True)
        self._fit_soon.setInterval(0)  # once a turn, however many batches and changes
        self._fit_soon.timeout.connect(self.fit)
        model = self.view.model
        for changed in (model.rowsInserted, model.rowsRemoved, model.modelReset):
            changed.connect(lambda *_args: self._fit_soon.start())
        self.visibilityChanged.connect(lambda shown: shown and self._fit_soon.start())
        parent.installEventFilter(self)  # a window of another height: the dock's share of it is fitted anew

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize and isinstance(event, QResizeEvent) \
                and event.size().height() != event.oldSize().height():
            self._fit_soon.start()
        return False

    def fit(self) -> None:
        """Make the dock as high as what it shows (:meth:`ServerLogView.fitted_height`), up to
        :data:`FITTED_MOST_PX` and :data:`FITTED_SHARE` of the window; never once the user has sized it."""
        window = self.parentWidget()
        if self.sized_by_user or self.closed or not isinstance(window, QMainWindow) \
                or window.dockWidgetArea(self) not in _SIDES:
            return
        if self._sized_by_user_now():
            self.sized_by_user = True
            return
        # The view's least height (grown or shrunk with its lines) given to the dock now, not in the layouts'
        # next turns: the dock kept its old least, and Qt gave it the fit's height a turn late, which was
        # taken for a height the user gave it (a log of two lines cleared, then: it no longer grew).
        self.view.layout().activate()
        self.layout().activate()
        least = self.minimumSizeHint().height()
        wanted = least - self.view.minimumSizeHint().height() + self.view.fitted_height()
        wanted = max(least, min(wanted, FITTED_MOST_PX, int(window.height() * FITTED_SHARE)))
        if wanted != self.height():
            self._fitting = True
            try:
                window.resizeDocks([self], [wanted], Qt.Orientation.Vertical)
                window.layout().activate()  # now: the next fit tells the user's height from this one
            finally:
                self._fitting = False
        if self.isVisible():
            self._fitted, self._window_height = self.height(), window.height()

    def _sized_by_user_now(self) -> bool:
        """Another height than the last fit's while the window kept its height: the separator was dragged."""
        window = self.parentWidget()
        return (not self._fitting and self._fitted is not None and self.isVisible() and self.height() != self._fitted
                and not self._raised_to_least() and window is not None and window.height() == self._window_height)

    def _raised_to_least(self) -> bool:
        """Qt gave the dock its least height, grown past the last fit's: the log's first lines raise it (to two
        of them, :meth:`ServerLogView._fit_least`), which Qt may lay out before the next fit (on a busy machine)."""
        return self._fitted is not None and self._fitted < self.height() == self.minimumSizeHint().height()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        # Told now, before a change of the window's height would make the user's height look like Qt's.
        if not self.sized_by_user and event.size().height() != event.oldSize().height():
            if self._sized_by_user_now():
                self.sized_by_user = True
            elif not self._fitting and self._raised_to_least():
                self._fit_soon.start()  # as high as its lines want, now that its least is known
        if event.size().width() != event.oldSize().width():
            self._fit_soon.start()  # the state line wraps anew

    def retranslate(self) -> None:
        self._fit_soon.start()
        if self._no_stream is not None:
            self._say_no_stream()
        elif self._unusable is not None:
            self._say_unusable()
        elif self._said is not None:  # the server named anew: the demo entry's name is the language's
            self._status(self.listener.shown_label(), self._said[1])

    def _say_unusable(self) -> None:
        assert self._unusable is not None
        self.view.show_state(self._unusable())
        self._fit_soon.start()

    def _say_no_stream(self) -> None:
        assert self._no_stream is not None
        server, command = self._no_stream
        if command:
            text = _("Not listening to {server}: a command server has no stream to listen to; what it writes "
                     "on stderr is shown here (marked stderr).").format(server=server)
            why = _("Listening opens an HTTP stream of the server's own. A server started as a command speaks "
                    "over its stdin and stdout only: its log is its stderr, shown here and in "
                    "Server › Console (stderr).")
        else:
            text = _("Not listening to {server}: the older HTTP+SSE transport has no stream apart from an "
                     "operation's; its log messages arrive during operations.").format(server=server)
            why = _("Listening opens a stream of the server's own, which the older HTTP+SSE transport does not offer.")
        self.view.show_state(text)
        self.view.state.set_note(why)
        self._fit_soon.start()

    def listen_to(self, record: ServerRecord | None, endpoint: ServerEndpoint | None,
                  unusable: Callable[[], str] | None = None) -> None:
        """Hold a listening session for the selected server (a new one when its settings changed);
        ``unusable``: why a selected server has no endpoint, said instead of "no server selected"."""
        if self.closed:
            return
        self._no_stream = None
        self._unusable = None
        self.view.state.set_note("")
        if record is None or endpoint is None:
            self.listener.stop()
            if record is not None and unusable is not None:
                self._unusable = unusable
                self._say_unusable()
            return
        if endpoint.is_command or endpoint.transport == "sse":
            # A command server has no HTTP stream to open: its log is its stderr, which arrives here
            # as it writes it. The older transport's stream is the session of an operation itself.
            self.listener.stop()
            self._listened = None
            self._no_stream = (shown_label(endpoint), endpoint.is_command)
            self._say_no_stream()
            return
        wanted = (endpoint, record.roots)
        if self.listener.listening_to == record.url and self._listened == wanted:
            return
        self._listened = wanted
        self.listener.listen(endpoint, roots_from_uris(record.roots))

    def server_changing(self, url: str) -> None:
        """A server's settings change or it goes: a session held for it ends (the selection restarts it)."""
        if self.listener.listening_to == url:
            self.listener.stop()

    def add_entries(self, entries: list[LogEntry], dropped: int = 0) -> None:
        """A batch from the log feed (:attr:`OperationsEngine.log`: the listening session's lines
        and the operations' own sessions'), and how many lines were dropped before it."""
        if not self.closed:
            self.view.add_many(entries, dropped)

    def _status(self, server: str, status: ListenerStatus) -> None:
        self._said = (server, status)
        if status.older_transport and not self.closed and self._no_stream is None:
            # Found by the session itself (the address refused its POST as that transport's servers do).
            self._no_stream = (server, False)
            self._say_no_stream()
            return
        if not self.closed and self._no_stream is None and self._unusable is None:
            self.view.show_state(listener_sentence(server, status, level_asked=self.listener.log_level is not None))
            self._fit_soon.start()

    def stop(self) -> None:
        self.closed = True
        self.listener.stop()


def listener_sentence(server: str, status: ListenerStatus, *, level_asked: bool = True) -> str:
    """The listener's state in words, for the log view's header (``level_asked``: a log level is set)."""
    state = status.state
    if state is ListenerState.CONNECTING:
        return _("Connecting to {server}…").format(server=server)
    if state is ListenerState.LISTENING and status.stateless and not level_asked:
        # Without a level such a server logs nothing at all: an empty log would look like a silent server.
        return _("Listening to {server}. It sends log lines only once a level is chosen: File › Settings… "
                 "(Server log level).").format(server=server)
    if state is ListenerState.LISTENING:
        return _("Listening to {server}.").format(server=server)
    if state is ListenerState.NO_STREAM:
        return _("{server} offers no stream of its own (HTTP {status}): its log messages and list changes "
                 "arrive only during operations.").format(server=server, status=status.http_status)
    if state is ListenerState.RECONNECTING and not status.listened:  # never reached: nothing broke
        if status.retry_in_s is None:
            return _("{server} did not answer yet; trying again…").format(server=server)
        return _("{server} did not answer yet; trying again in {seconds} s…").format(
            server=server, seconds=format_seconds(status.retry_in_s))
    if state is ListenerState.RECONNECTING:
        if status.retry_in_s is None:
            return _("The stream of {server} broke; reconnecting…").format(server=server)
        return _("The stream of {server} broke; reconnecting in {seconds} s…").format(
            server=server, seconds=format_seconds(status.retry_in_s))
    if status.error:
        return _("Stopped listening to {server}: {reason}").format(server=server, reason=translate(status.error))
    return _("Not listening.")
