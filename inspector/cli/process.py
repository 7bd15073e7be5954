"""How the ``run-inspector`` process starts and ends, for a command that lives a fraction of a second.

Measured (``benchmarks/cli_call_start.py``; issue 22): of a stored ``call`` of about 0.37 s, the
interpreter's own teardown took 55–80 ms (collecting and clearing every module it loaded, for a
process about to vanish), cyclic garbage collection while the modules loaded took about 25 ms
(loading allocates much and frees almost nothing), and httpx's own command line (click, pygments,
rich: imported by ``import httpx`` whenever they are installed) about 12 ms. So the process entry
point (:func:`inspector.cli.run`, never :func:`inspector.cli.main`, which tests call in-process):

* :func:`starting`: collection off while the command's modules load, and httpx's command line
  kept out (``import httpx`` then defines its placeholder, as when click is not installed);
* :func:`loaded`: once they have loaded, what they made is set aside from collection
  (``gc.freeze``) and collection is on again for the command's work, as in any Python program;
* :func:`ending`: a command that has ended (its store closed, its servers stopped, its output
  written) leaves by ``os._exit`` after flushing its output and running the ``atexit`` handlers
  (the log file's among them): nothing is lost that the teardown would have kept. The window,
  or a command that left a thread running, ends the ordinary way.
"""

from __future__ import annotations

import gc
import os
import sys
import threading

#: Set by :func:`starting`: only the process entry point tunes collection (tests call ``main``).
_tuned = False


def starting() -> None:
    """Called first by the process entry point, before any module of the command loads."""
    global _tuned
    _tuned = True
    gc.disable()
    # ``import httpx`` tries ``from ._main import main`` (its command line) and falls back to a
    # placeholder on ImportError; a None entry makes that import fail without looking for it.
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]


def loaded() -> None:
    """The command's modules have loaded: collection runs again, over what the command makes."""
    global _tuned
    if _tuned:
        _tuned = False
        gc.freeze()
        gc.enable()


def ending(status: int) -> None:
    """End the process with ``status``; never returns."""
    loaded()  # a command that ended before its modules loaded (usage, --version)
    if "PySide6.QtCore" in sys.modules or threading.active_count() > 1:
        sys.exit(status)  # Qt's objects and a running thread are owed the ordinary ending
    import atexit

    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_handlers is None:  # not CPython: the ordinary ending
        sys.exit(status)
    run_handlers()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # the reader went away (a closed pipe), the stream is
            # closed, or there is none (started with `>&-`)
            pass
    os._exit(status)
