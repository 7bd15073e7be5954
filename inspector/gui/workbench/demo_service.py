"""The demo server of the "Demo server" entry: started with the window, stopped with it.

This is the one place that starts and stops it. It runs in a process of its own
(:mod:`.demo_process`), which ends with the window however the window ends. The entry it serves is
remembered in the settings (``demo/last_url``), so that every launch finds it again:

- first launch, no server configured, autostart on: the entry is added at once (on a free port)
  and the demo server starts for it;
- the entry exists and autostart is on: the demo server starts, on the entry's port when that
  port is free (the URL, and with it the entry's health, stays), else on a free one, and the
  entry is moved to the new URL with its name, budget, headers and roots;
- the entry exists but the demo server is not running (autostart off, or it could not start):
  the Servers panel marks the entry "not running" and offers Start (see ``demo_controls``);
- the entry was removed by the user (remembered, but no longer configured): it stays removed.

Starting never blocks the GUI thread: the child is spawned and the window goes on; while the
child gets ready the entry says "starting", and :attr:`DemoService.changed` tells when it runs
(or why it does not).
"""

from __future__ import annotations

import socket
import threading
from collections import deque
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from inspector.i18n import _, current_language
from inspector.i18n.entry_names import DEMO_ENTRY_NAME, know_window_entry, shown_name
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import translate
from inspector.i18n.os_reasons import os_reason

from .demo_process import DemoProcess, demo_command
from .log_entry import LogEntry, kept_data

if TYPE_CHECKING:
    from inspector.store import ServerRegistry

    from ..settings import AppSettings
    from .log_feed import LogFeed

DEMO_NAME = DEMO_ENTRY_NAME
#: Where the settings remember the URL of the demo entry.
ENTRY_KEY = "demo/last_url"
HOST = "127.0.0.1"
#: How long the child may take to listen (a cold start of a loaded machine included).
START_TIMEOUT_S = 30.0
#: Lines of the child's log kept until the window's Server log takes them.
EARLY_LINES = 500

STOPPED, STARTING, RUNNING = "stopped", "starting", "running"


class DemoService(QObject):
    """Starts the demo server's process and keeps the "Demo server" entry pointing at it."""

    #: The state changed on the GUI thread: it runs (:attr:`url`), or it stopped or failed (:attr:`problem`).
    changed = Signal()
    _heard_ready = Signal(object, str)
    _heard_end = Signal(object, object)

    def __init__(self, settings: AppSettings | None = None, *,
                 command: Callable[[int, str | None], list[str]] | None = None) -> None:
        super().__init__()
        self.settings = settings
        #: The child's command line for a port (and a language): ``serve-demo`` of this program.
        self.command = command or demo_command
        self.process: DemoProcess | None = None
        self.state = STOPPED
        #: The URL the demo server answers on, while it runs.
        self.url: str | None = None
        #: The entry's URL before the demo server moved it to a free port (else ``None``).
        self.moved_from: str | None = None
        self.problem: str | None = None
        self._registry: ServerRegistry | None = None
        self._tries: list[int] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(int(START_TIMEOUT_S * 1000))
        self._timer.timeout.connect(self._too_slow)
        self._heard_ready.connect(self._ready, Qt.ConnectionType.QueuedConnection)
        self._heard_end.connect(self._ended, Qt.ConnectionType.QueuedConnection)
        self._lines_lock = threading.Lock()
        self._early: deque[str] = deque(maxlen=EARLY_LINES)
        self._log: LogFeed | None = None
        self._name = DEMO_NAME
        #: Held: a start waits for :meth:`release` to spawn the process (the window's first paint).
        self._held = False

    @classmethod
    def at_launch(cls, registry: ServerRegistry, settings: AppSettings, *, held: bool = False,
                  autostart: bool = True) -> DemoService | None:
        """What a launch does with the demo (see the module doc); ``None`` when there is no demo entry.

        ``held``: the process is spawned by :meth:`release` (the window spawns it once it has painted,
        so that the child's start does not compete with the window's). ``autostart=False`` (a window
        opened on a trace file): nothing starts and no entry is added; an existing entry is kept, not
        running, with its Start button."""
        service = cls(settings)
        service._held = held
        entry = service.entry_url
        if entry:
            if registry.settings(entry) is None:
                return None  # the user removed it: not brought back against their will
            if settings.demo_autostart and autostart:
                service.start(registry)
            return service
        if settings.demo_autostart and autostart and not registry.any_configured():
            # The first launch: something to try at once, listed before its server listens. Servers the
            # command line spoke to are listed by their health only: none of them is configured.
            service.remember(registry, f"http://{HOST}:{_free_port()}/mcp")
            service.start(registry)
            return service
        return None

    @property
    def entry_url(self) -> str:
        """The URL of the "Demo server" entry ("" when there never was one)."""
        if self.settings is None:
            return self.url or ""
        return str(self.settings.qsettings.value(ENTRY_KEY, "") or "")

    def is_entry(self, url: str | None) -> bool:
        return bool(url) and url == self.entry_url

    def stopped_entry(self, url: str | None) -> bool:
        """Is ``url`` the demo entry while its server does not run here (nothing would answer yet)?"""
        return not self.running and self.is_entry(url)

    def tools_note(self) -> str:
        """What the Tools list says while the entry's server does not run here."""
        if self.starting:
            return _("The demo server is starting; its tools load once it listens.")
        return _("The demo server is not running: start it under the list of servers.")

    @property
    def running(self) -> bool:
        return self.state == RUNNING

    @property
    def starting(self) -> bool:
        return self.state == STARTING

    # -- starting -----------------------------------------------------------------------------------

    def start(self, registry: ServerRegistry) -> bool:
        """Begin starting it (returns at once); ``False`` when it could not even begin (see :attr:`problem`).

        The entry's port is tried first (its URL and health stay), then any free port."""
        if self.state != STOPPED:
            return True
        self._registry = registry
        record = registry.settings(self.entry_url) if self.entry_url else None
        self._name = shown_name(record.name if record is not None and record.name else DEMO_NAME, self.entry_url)
        port = _port_of(self.entry_url)
        self._tries = [port, 0] if port else [0]
        self.problem, self.moved_from = None, None
        self.state = STARTING
        self._timer.start()
        return self._next_try(None)

    def release(self) -> None:
        """Spawn the process a held start waits for (see :meth:`at_launch`)."""
        self._held = False
        if self.state == STARTING and self.process is None:
            self._next_try(None)

    def _next_try(self, reason: str | None) -> bool:
        if self._held:
            return True
        if not self._tries:
            self._failed(reason)
            return False
        port = self._tries.pop(0)
        process = DemoProcess(port, command=self.command, language=current_language(),
                              ready=lambda url: self._heard_ready.emit(process, url),
                              ended=lambda why: self._heard_end.emit(process, why), line=self._heard_line)
        self.process = process
        try:
            process.start()
        except OSError as exc:
            self.process = None
            return self._next_try(translate(os_reason(exc)))
        return True

    def _ready(self, process: DemoProcess, url: str) -> None:
        if process is not self.process or self.state != STARTING:
            return  # a child given up on (too slow) that got ready after all: it is being stopped
        self._timer.stop()
        self.state, self.url = RUNNING, url
        if self._registry is not None:
            entry = self.entry_url
            if entry and entry != url and self._registry.settings(entry) is not None:
                _move_entry(self._registry, entry, url)
                self.moved_from = entry
            self.remember(self._registry, url)
        self.changed.emit()

    def _ended(self, process: DemoProcess, reason: str | None) -> None:
        if process is not self.process:
            return
        if reason is None and process.status:
            reason = _("it ended with exit status {status}").format(status=process.status)
        if self.state == STARTING:
            self.process = None
            self._next_try(reason or _("it ended before it listened"))
        elif self.state == RUNNING:
            self.process, self.state, self.url = None, STOPPED, None
            self.problem = _("The demo server stopped: {reason}").format(
                reason=reason or _("it ended with exit status {status}").format(status=process.status))
            self.changed.emit()

    def _too_slow(self) -> None:
        if self.state != STARTING:
            return
        process, self.process, self._tries = self.process, None, []
        if process is not None:
            threading.Thread(target=lambda: process.stop(at_once=True), name="demo-process-stop", daemon=True).start()
        self._failed(_("it did not listen within {seconds} seconds").format(seconds=format_number(START_TIMEOUT_S)))

    def _failed(self, reason: str | None) -> None:
        self._timer.stop()
        self.state, self.url = STOPPED, None
        self.problem = _("The demo server did not start: {reason}").format(
            reason=reason or _("it gave no reason"))
        self.changed.emit()

    def remember(self, registry: ServerRegistry, url: str) -> None:
        """Make ``url`` the demo entry (added under :data:`DEMO_NAME` when not configured)."""
        if registry.settings(url) is None:
            # The stored name is data, the same in every language of the window.
            registry.save_server(url, name=DEMO_NAME)
        know_window_entry(url)
        if self.settings is not None:
            self.settings.qsettings.setValue(ENTRY_KEY, url)
            self.settings.sync()

    # -- its log ------------------------------------------------------------------------------------

    def send_output_to(self, log: LogFeed) -> None:
        """Hand the child's log lines (those so far, then each as it comes) to the Server log's feed."""
        with self._lines_lock:
            self._log = log
            early, self._early = list(self._early), deque(maxlen=EARLY_LINES)
        for text in early:
            log.add(self._entry(text))

    def _heard_line(self, text: str) -> None:
        """A line the child wrote (on a reader thread)."""
        with self._lines_lock:
            log = self._log
            if log is None:
                self._early.append(text)
                return
        log.add(self._entry(text))

    def _entry(self, text: str) -> LogEntry:
        return LogEntry(datetime.now(timezone.utc), None, None, kept_data(text), self._name, stderr=True)

    # -- stopping -----------------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop it and wait for its process to end (bounded by :meth:`DemoProcess.stop`)."""
        self._timer.stop()
        self._held = False
        process, self.process, listening = self.process, None, self.running
        self.state, self.url, self._tries = STOPPED, None, []
        if process is not None:
            process.stop(at_once=not listening)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _port_of(url: str) -> int:
    try:
        return urlsplit(url).port or 0 if url else 0
    except ValueError:
        return 0


def _move_entry(registry: ServerRegistry, old: str, new: str) -> None:
    """Give the entry a new URL and keep what the user set: name, budget, headers, roots."""
    settings = registry.settings(old)
    if settings is None:
        return
    headers = registry.headers_for(old)
    secret = {header.name for header in settings.headers if header.secret}
    registry.save_server(new, name=settings.name, budget_s=settings.budget_s, headers=headers, secret=secret,
                         replace=True, roots=settings.roots)
    registry.remove_server(old)


__all__ = ["DEMO_NAME", "ENTRY_KEY", "DemoService"]
