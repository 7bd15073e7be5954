"""Opening the system browser at the authorization address.

Through Python's :mod:`webbrowser`, so the ``BROWSER`` environment variable replaces the browser
(a test, or the conformance adapter, passes a program that follows the redirect). A browser
given by ``BROWSER`` is run to its end by :mod:`webbrowser`, and it may come back to our own
loopback listener first: so it runs in a thread of its own, never on the event loop, and nobody
waits for that thread (a browser that never returns holds nothing up).
"""

from __future__ import annotations

import asyncio
import threading
import webbrowser

_CHOOSING = threading.Lock()


def open_in_browser(url: str) -> asyncio.Future[bool]:
    """Start opening ``url``; the future says whether a browser could be started (when known)."""
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[bool] = loop.create_future()

    def settle(result: bool) -> None:
        if not opened.done():
            opened.set_result(result)

    def run() -> None:
        try:
            with _CHOOSING:
                # webbrowser reads BROWSER once per process; read it (and the browsers there are)
                # again, so a BROWSER set after the first sign-in is honoured too.
                webbrowser.register_standard_browsers()
                browser = webbrowser.get()
            result = bool(browser.open(url))
        except Exception:  # noqa: BLE001 - any failure to start one means "no browser"
            result = False
        try:
            loop.call_soon_threadsafe(settle, result)
        except RuntimeError:
            pass  # the loop is gone: nobody waits any more

    threading.Thread(target=run, name="signin-browser", daemon=True).start()
    return opened
