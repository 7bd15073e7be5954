"""The demo server started with the window when no server is configured, and stopped with it."""

from __future__ import annotations

from inspector.demo import DemoServer, DemoServerError
from inspector.i18n import _
from inspector.store import ServerRegistry

DEMO_NAME = "Demo server"


class DemoService:
    """Starts the in-process demo server on a free port and registers it as "Demo server"."""

    def __init__(self) -> None:
        self.server: DemoServer | None = None
        self.url: str | None = None
        self.problem: str | None = None

    def start(self, registry: ServerRegistry) -> str | None:
        """Start it and register it; return its URL, or ``None`` (see :attr:`problem`)."""
        server = DemoServer()
        try:
            url = server.start()
        except DemoServerError as exc:
            self.problem = _("The demo server did not start: {reason}").format(reason=exc)
            return None
        self.server, self.url = server, url
        # The stored name is data, the same in every language of the window.
        registry.save_server(url, name=DEMO_NAME)
        return url

    @property
    def running(self) -> bool:
        return self.server is not None

    def stop(self) -> None:
        """Stop it and wait for its thread (bounded by the demo server itself)."""
        server, self.server = self.server, None
        if server is not None:
            server.stop()
