"""Reading the run database on a thread of its own, for the window's live updates.

Issue 27: nothing on the GUI thread touches the database for a live update (twenty operations
ending together had the GUI thread read while their bars moved). A :class:`BackgroundReads` owns
one reader thread with its own connection; the GUI thread asks a question, the reader answers it
with the read function it was given, and the answer arrives on the GUI thread by a queued signal.
Questions asked while a read is under way are one more read after it, for the newest question
(twenty endings are at most two reads).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.store import RunStore

_NOTHING = object()
#: How often a read broken off is interrupted again until it ends (:meth:`BackgroundReads.break_off`).
BREAK_OFF_S = 0.005


def database_file(store: RunStore) -> Path:
    """The file of ``store``'s main database (a reader opens its own connection to it)."""
    row = store.db.conn.execute("PRAGMA database_list").fetchone()
    return Path(row[2])


class BackgroundReads(QObject):
    """Answers questions with ``read(store, question)`` on a reader thread with its own connection."""

    #: (the question, its answer or None when the database could not be read, the problem in words
    #: or "") — delivered on the thread this object lives on (the GUI thread).
    answered = Signal(object, object, str)
    #: (the question, the error its read raised) — before its ``answered``, on the same thread.
    refused = Signal(object, object)

    def __init__(self, db_path: Path, read: Callable[[RunStore, Any], Any], name: str,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._db_path = db_path
        self._read_one = read
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"run-inspector-{name}")
        self._lock = threading.Lock()
        self._busy = False
        self._stopped = False
        self._again: Any = _NOTHING
        self._store: RunStore | None = None  # the reader thread's own connection
        #: Reads made (tests count them).
        self.reads = 0

    @property
    def busy(self) -> bool:
        """A read is under way or asked for."""
        return self._busy

    def request(self, question: Any) -> None:
        """Answer ``question`` soon; any thread (the GUI thread)."""
        with self._lock:
            if self._stopped:
                return
            if self._busy:
                self._again = question  # one more read after this one, for the newest question
                return
            self._busy = True
        self._pool.submit(self._read, question)

    def interrupt(self) -> None:
        """Break off the read under way (its SQLite statement fails; its answer is None); any thread."""
        store = self._store
        if store is not None:
            store.db.conn.interrupt()

    def break_off(self) -> None:
        """The window closes: no read after this one, the read under way is broken off (not waited for to its
        end), the reader's connection is closed and the reader ends."""
        with self._lock:
            self._again = _NOTHING
        while self._busy:  # interrupted again until it ends: one ending as it is interrupted clears the interrupt,
            self.interrupt()  # and the read's next statement would run to its end
            time.sleep(BREAK_OFF_S)
        self.stop()

    def stop(self) -> None:
        """Finish the read under way, close the reader's connection (in its thread) and end it."""
        with self._lock:
            if self._stopped:
                return  # stopped already (a window shut down twice)
            self._again = _NOTHING
            self._stopped = True
        self._pool.submit(self._close)
        self._pool.shutdown(wait=True)

    # -- on the reader thread ------------------------------------------------------------------------

    def _read(self, question: Any) -> None:
        while True:
            self.reads += 1
            answer: Any = None
            problem = ""
            try:
                if self._store is None:
                    self._store = RunStore.open(self._db_path)
                answer = self._read_one(self._store, question)
            except Exception as exc:  # noqa: BLE001 - a damaged or locked database is said, never a crash
                problem = str(exc) or type(exc).__name__
                self.refused.emit(question, exc)
            self.answered.emit(question, answer, problem)
            with self._lock:
                again, self._again = self._again, _NOTHING
                if again is _NOTHING:
                    self._busy = False
                    return
            question = again

    def _close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


__all__ = ["BackgroundReads", "database_file"]
