"""The Play tab's fresh demo server in a thread of the test process, for the window tests that are not
about its process.

The Play worker starts "a fresh demo server" for a scenario as ``serve-demo`` in a process of its own
(``inspector.gui.workbench.demo_process.DemoProcess``): 1-2 s of a process start and the MCP SDK's
import, most of a played scenario's time in a test. :class:`ThreadedDemo` takes that class's place
there (see ``tests/gui/conftest.py``): the same calls and callbacks, the demo server the same real HTTP
server, started with the options the worker's command line gives (read by the command line's own
parser: its modes and its language), in a thread. The tests that keep the process ask for the
fixture ``play_demo_process``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from inspector.demo import DemoOptions, DemoServer, DemoServerError
from inspector.gui.workbench.demo_process import demo_command


def demo_options(words: list[str]) -> DemoOptions:
    """The options ``serve-demo`` would start with, from its command line (``python -m inspector serve-demo ...``)."""
    from inspector.cli.parser import build_parser

    at = words.index("serve-demo")
    words = words[at:]
    language = "en"
    if "--lang" in words:  # the program's own option, taken before the sub-command's
        spot = words.index("--lang")
        language = words[spot + 1]
        words = words[:spot] + words[spot + 2:]
    args = build_parser().parse_args(words)
    assert args.command == "serve-demo", words
    extra = {} if args.catalogue_size is None else {"catalogue_size": int(args.catalogue_size)}
    return DemoOptions(port=int(args.port), handshake_delay_s=float(args.handshake_delay or 0.0),
                       page_size=None if args.page_size is None else int(args.page_size),
                       json_response=args.json_response, stateless=args.stateless, language=language, **extra)


class ThreadedDemo:
    """:class:`~inspector.gui.workbench.demo_process.DemoProcess`'s part, played in a thread: ``start()``
    returns at once, ``ready(url)`` once it listens (or ``ended(reason)`` when it could not), ``stop()``
    ends it and then says ``ended(None)``, as the process's end would."""

    def __init__(self, port: int, *, ready: Callable[[str], None], ended: Callable[[str | None], None],
                 line: Callable[[str], None], command: Callable[[int, str | None], list[str]] = demo_command,
                 language: str | None = None) -> None:
        del line  # the server's log goes to this process's logging
        self.port = port
        self._ready, self._ended = ready, ended
        self._options = demo_options(command(port, language))
        self._server: DemoServer | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._ended_said = False
        self.status: int | None = None
        self.url: str | None = None
        self.pid: int | None = None

    @property
    def alive(self) -> bool:
        return self._server is not None and self.status is None

    def start(self) -> None:
        self._server = DemoServer(self._options)
        self._thread = threading.Thread(target=self._serve, name="threaded-demo-start", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        assert self._server is not None
        try:
            url = self._server.start()
        except DemoServerError as exc:
            self.status = 1
            self._end(str(exc))
            return
        self.url = url
        self._ready(url)

    def stop(self, *, at_once: bool = False) -> None:
        del at_once
        if self._thread is not None:
            self._thread.join(30)
        if self._server is not None:
            self._server.stop()
        if self.status is None:
            self.status = 0
        self._end(None)

    def _end(self, reason: str | None) -> None:
        with self._lock:
            if self._ended_said:
                return
            self._ended_said = True
        self._ended(reason)


__all__ = ["ThreadedDemo", "demo_options"]
