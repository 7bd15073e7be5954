"""The window's one line to the system keyring: a thread of its own that makes the keyring calls
handed to it, one at a time, in the order they came (:class:`~.window_secrets.WindowSecrets`).

Not the engine's loop nor ``asyncio.to_thread``: a keyring call can wait on an unlock prompt for as
long as nobody answers it. On the worker's loop such a call outlived the window's close (the loop
ended under it: "Task was destroyed but it is pending!"), and ``to_thread``'s pool thread is joined
when the interpreter exits, so a keyring that never answered held the quit forever. This thread is
a daemon: closing waits for it (:meth:`KeyringLine.finish`, bounded) and then lets it be.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Protocol

#: How long closing waits for the keyring to make the saves and deletes still queued (each call of a
#: keyring that answers takes milliseconds; one showing its unlock prompt waits for the user).
CLOSE_BOUND_S = 5.0


def _END() -> None:
    """Sent last by :meth:`KeyringLine.finish`: the thread ends there."""


class KeyringLine:
    """Jobs run on the line's thread (started when first needed), in order."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    def send(self, job: Callable[[], None]) -> None:
        """Run ``job()`` on the line's thread after what was sent before it."""
        with self._starting:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="run-inspector-keyring", daemon=True)
                self._thread.start()
        self._jobs.put(job)

    def finish(self, bound_s: float = CLOSE_BOUND_S) -> bool:
        """Wait until everything sent so far is done, at most ``bound_s``; True when it is. The thread
        then ends (one still waiting on the keyring ends when it answers, or with the process)."""
        if self._thread is None:
            return True
        done = threading.Event()
        self.send(done.set)
        self._jobs.put(_END)
        return done.wait(bound_s)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is _END:
                return
            try:
                job()
            except Exception as exc:  # noqa: BLE001 - one job's failure must not end the line for the rest
                from inspector.logfile import log_unexpected

                log_unexpected("a keyring call", exc)


class Closing(Protocol):
    """A secret keeper whose writes go through the line (:class:`~.window_secrets.WindowSecrets`)."""

    def close(self) -> None: ...
    def unwritten(self) -> list[tuple[str, list[str], str | None]]: ...


def finish_secrets(line: KeyringLine, keepers: Iterable[Closing], bound_s: float = CLOSE_BOUND_S) -> str | None:
    """The window closes: the keepers' saves and deletes still queued are made, waited for at most
    ``bound_s``; what the keyring refused or had not answered by then is said on stderr and in the
    log file (the window is gone) and returned."""
    from inspector.i18n.formatting import format_seconds
    from inspector.i18n.messages import Message, translate
    from inspector.store.keyring_words import NO_ANSWER, unwritten_message

    keepers = list(keepers)
    for keeper in keepers:
        keeper.close()
    line.finish(bound_s)
    silent = Message(NO_ANSWER, {"seconds": format_seconds(bound_s)})
    sentences = [translate(unwritten_message(name, accounts, answer if answer is not None else silent))
                 for keeper in keepers for name, accounts, answer in keeper.unwritten()]
    if not sentences:
        return None
    said = " ".join(sentences)
    print(f"run-inspector: {said}", file=sys.stderr)
    from inspector.logfile import log_message

    log_message("warning", said)
    return said


__all__ = ["CLOSE_BOUND_S", "KeyringLine", "finish_secrets"]
