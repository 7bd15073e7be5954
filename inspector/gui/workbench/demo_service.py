"""The demo server of the "Demo server" entry: started with the window, stopped with it.

This is the one place that starts and stops it. The entry it serves is remembered in the
settings (``demo/last_url``), so that every launch finds it again:

- first launch, no server configured, autostart on: the demo server starts and the entry is added;
- the entry exists and autostart is on: the demo server starts, on the entry's port when that
  port is free (the URL, and with it the entry's health, stays), else on a free one, and the
  entry is moved to the new URL with its name, budget, headers and roots;
- the entry exists but the demo server is not running (autostart off, or it could not start):
  the Servers panel marks the entry "not running" and offers Start (see ``demo_controls``);
- the entry was removed by the user (remembered, but no longer configured): it stays removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from inspector.demo import DemoOptions, DemoServer, DemoServerError
from inspector.i18n import _
from inspector.store import ServerRegistry

if TYPE_CHECKING:
    from ..settings import AppSettings

DEMO_NAME = "Demo server"
#: Where the settings remember the URL of the demo entry.
ENTRY_KEY = "demo/last_url"


class DemoService:
    """Starts the in-process demo server and keeps the "Demo server" entry pointing at it."""

    def __init__(self, settings: AppSettings | None = None) -> None:
        self.settings = settings
        self.server: DemoServer | None = None
        #: The URL the demo server answers on, while it runs.
        self.url: str | None = None
        self.problem: str | None = None

    @classmethod
    def at_launch(cls, registry: ServerRegistry, settings: AppSettings) -> DemoService | None:
        """What a launch does with the demo (see the module doc); ``None`` when there is no demo entry."""
        service = cls(settings)
        entry = service.entry_url
        if entry:
            if registry.settings(entry) is None:
                return None  # the user removed it: not brought back against their will
            if settings.demo_autostart:
                service.start(registry)
            return service
        if settings.demo_autostart and not registry.all():
            service.start(registry)  # the first launch: something to try at once
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
        """Is ``url`` the demo entry while its server does not run here (nothing would answer)?"""
        return not self.running and self.is_entry(url)

    def start(self, registry: ServerRegistry) -> str | None:
        """Start it and point the entry at it; return its URL, or ``None`` (see :attr:`problem`)."""
        if self.server is not None:
            return self.url
        entry = self.entry_url
        port = _port_of(entry)
        server: DemoServer | None = None
        try:
            if port:
                try:
                    server = _started(port)
                except DemoServerError:
                    server = None  # the old port is taken: any free one will do
            if server is None:
                server = _started(0)
        except DemoServerError as exc:
            self.problem = _("The demo server did not start: {reason}").format(reason=exc)
            return None
        self.server, self.url, self.problem = server, server.url, None
        url = server.url or ""
        if entry and entry != url and registry.settings(entry) is not None:
            _move_entry(registry, entry, url)
        elif registry.settings(url) is None:
            # The stored name is data, the same in every language of the window.
            registry.save_server(url, name=DEMO_NAME)
        if self.settings is not None:
            self.settings.qsettings.setValue(ENTRY_KEY, url)
            self.settings.sync()
        return url

    @property
    def running(self) -> bool:
        return self.server is not None

    def stop(self) -> None:
        """Stop it and wait for its thread (bounded by the demo server itself)."""
        server, self.server = self.server, None
        if server is not None:
            server.stop()


def _started(port: int) -> DemoServer:
    server = DemoServer(DemoOptions(port=port))
    server.start()
    return server


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
