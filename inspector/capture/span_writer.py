"""The OTLP receiver's one writer thread: it owns the store and the live traces (:mod:`.live_traces`);
each request hands it its spans and waits until they are written.

A request answered 503 has nothing of it stored, now or later, so the exporter that sends it again
is the only one to send it. Its spans wait in the writer's queue; when the writer has not begun them
within the request's wait they are *withdrawn* and never written (the writer, behind already, does
not do that work twice). Withdrawn or begun is decided once, under the job's own lock: the request
calls :meth:`~concurrent.futures.Future.cancel`, the writer
:meth:`~concurrent.futures.Future.set_running_or_notify_cancel`, and whichever comes first wins. A
request whose spans the writer began in the meantime waits for them and is answered as they were
written.

A write the database refuses because another program holds it locked for longer than the receiver's
lock wait raises :class:`DatabaseLocked` in the request (answered 503 too: the spans are kept
neither in the database nor in memory, see :meth:`.LiveTraces.add`), and ``on_problem`` is told once
while the database stays locked, and once when a write succeeds again.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future
from pathlib import Path
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import Message

from .live_traces import LiveTraces, RunReceived, Taken

TICK_S = 0.2
"""How often the writer looks for traces that have gone quiet."""
SLICE_SPANS = 5_000
"""The most spans of one request the writer takes at once (about a second of its work): a request of
200,000 tiny spans would otherwise keep every other exporter waiting for a minute. A trace's spans of one
request stay in one slice, however many (at most a trace's limit, 20,000): each slice maps its traces again
whole, so a trace cut over slices was mapped and written once per slice (a 15,000-span request of one trace:
5,000, 10,000, then 15,000 spans, twice the work of mapping it once, 11 s instead of 5)."""

_log = logging.getLogger(__name__)
#: What ``on_problem`` is told when another program holds the database locked (once while it lasts) ...
LOCKED = N_("The run database {path} is locked by another program (a sqlite3 shell or another tool holding a "
            "transaction open): the spans received meanwhile are not stored, and their exporters are told to send "
            "them again later (503). Close that program to go on receiving.")
#: ... and when a write succeeds again (a display tells the two apart by their template).
UNLOCKED = N_("The run database {path} is no longer locked: the spans received are stored again.")


def slices(spans: list[Any]) -> list[list[Any]]:
    """A request's spans in slices of about :data:`SLICE_SPANS`, each trace's spans of it in one slice, in the
    order they came (a request within the size is one slice, as it came)."""
    if len(spans) <= SLICE_SPANS:
        return [spans]
    by_trace: dict[object, list[Any]] = {}
    for held in spans:
        trace_id = held.span.get("traceId")
        by_trace.setdefault(trace_id if isinstance(trace_id, str | bytes) else repr(trace_id), []).append(held)
    out: list[list[Any]] = [[]]
    for trace in by_trace.values():
        if out[-1] and len(out[-1]) + len(trace) > SLICE_SPANS:
            out.append([])
        out[-1].extend(trace)
    return out


class ReceiverBusy(Exception):
    """The writer did not begin a request's spans within its wait; they were withdrawn, nothing is stored."""


class DatabaseLocked(Exception):
    """Another program held the database for longer than the lock wait; nothing of the request is stored."""


class SpanWriter:
    """The writer thread of a receiver storing into ``db_path``."""

    def __init__(self, db_path: Path, quiet_s: float, on_run: Callable[[RunReceived], None] | None,
                 on_problem: Callable[[Message], None] | None, lock_wait_s: float | None) -> None:
        self.db_path = db_path
        self._quiet_s = quiet_s
        self._on_run = on_run
        self._on_problem = on_problem
        self._lock_wait_s = lock_wait_s
        self._jobs: queue.Queue[tuple[list[Any], Future[Taken]] | None] = queue.Queue()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._locked = False  # the last write was refused for another program's lock
        #: How many hands of spans (a request, or one slice of a large one) the writer has begun writing:
        #: a request counted here is waited for, however long its write takes (read from any thread).
        self.begun = 0
        #: Why the store could not be opened (a :class:`~inspector.store.StoreError`), after :meth:`start`.
        self.failure: BaseException | None = None

    def start(self) -> bool:
        """Open the store and start the thread; False (with :attr:`failure`) when the store cannot be opened."""
        self._thread = threading.Thread(target=self._loop, name="otlp-receiver-writer", daemon=True)
        self._thread.start()
        self._ready.wait()
        return self.failure is None

    def stop(self, timeout: float) -> None:
        """Settle every trace still growing, close the store, end the thread; a request still waiting
        for its turn is answered as withdrawn."""
        self._jobs.put(None)
        if self._thread is not None:
            self._thread.join(timeout=timeout)

    # -- a request's side -------------------------------------------------------------------------

    def submit(self, spans: list[Any], wait_s: float) -> Taken:
        """Hand spans to the writer and wait until they are written (from a request's thread), in
        slices of :data:`SLICE_SPANS`: the other exporters' requests are written between two slices
        of a large one, rather than after all of it. Only the first slice may be withdrawn
        (:class:`ReceiverBusy`): once the writer has begun a request, the rest of it is waited for. (A
        later slice refused for a lock leaves the slices before it stored; the exporter's resend replaces
        their spans, it does not add to them.)"""
        rejected, reason = 0, None
        for number, piece in enumerate(slices(spans)):
            taken = self._slice(piece, wait_s if number == 0 else None)
            rejected, reason = rejected + taken.rejected, reason or taken.reason
        return Taken(rejected, reason)

    def _slice(self, spans: list[Any], wait_s: float | None) -> Taken:
        """One slice, waited for ``wait_s`` (None: as long as the writer runs) before it is withdrawn."""
        done: Future[Taken] = Future()
        self._jobs.put((spans, done))
        try:
            while True:
                try:
                    return done.result(timeout=wait_s if wait_s is not None else 1.0)
                except TimeoutError:
                    if wait_s is None and self._thread is not None and self._thread.is_alive():
                        continue
                    if done.cancel():  # not begun: withdrawn, the writer skips it
                        raise ReceiverBusy from None
                    return done.result()  # begun meanwhile (a write waits at most the lock wait)
        except CancelledError:  # the writer stopped before it came to them
            raise ReceiverBusy from None

    # -- the writer thread ------------------------------------------------------------------------

    def _loop(self) -> None:
        from inspector.store import RunStore, StoreError

        try:
            store = (RunStore.open(self.db_path) if self._lock_wait_s is None
                     else RunStore.open(self.db_path, self._lock_wait_s))
        except StoreError as error:
            self.failure = error
            self._ready.set()
            return
        live = LiveTraces(store, self._on_run, self._quiet_s)
        self._ready.set()
        try:
            while True:
                try:
                    job = self._jobs.get(timeout=TICK_S)
                except queue.Empty:
                    self._settle(live)
                    continue
                if job is None:
                    break
                spans, done = job
                if not done.set_running_or_notify_cancel():
                    continue  # withdrawn: its request was answered 503
                self.begun += 1
                writes = live.writes
                try:
                    done.set_result(live.add(spans))
                except Exception as error:  # noqa: BLE001 - the request is answered with it (500, or 503 if locked)
                    done.set_exception(self._fault(error))
                if live.writes != writes:
                    self._wrote()
                self._settle(live)
        finally:
            self._withdraw_waiting()
            self._settle(live, everything=True)
            store.close()

    def _withdraw_waiting(self) -> None:
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                return
            if job is not None:
                job[1].cancel()

    def _settle(self, live: LiveTraces, everything: bool = False) -> None:
        """Settle what has gone quiet; a failure (the database locked by another program for longer than
        its wait) is logged and tried again at the next tick, and never ends the writer."""
        writes = live.writes
        try:
            live.settle(everything)
        except Exception as error:  # noqa: BLE001 - see above
            if self._is_lock(error):
                self._say_locked()  # once; each try meanwhile only in the log's details
                _log.info("settling received traces failed: the database is locked by another program; trying again")
            else:
                _log.warning("settling received traces failed; trying again", exc_info=True)
        if live.writes != writes:
            self._wrote()

    # -- the database locked by another program ---------------------------------------------------

    def _fault(self, error: Exception) -> Exception:
        if not self._is_lock(error):
            return error
        self._say_locked()
        return DatabaseLocked()

    @staticmethod
    def _is_lock(error: BaseException) -> bool:
        from inspector.store.faults import LockedDatabaseError, is_lock

        return is_lock(error) or isinstance(error, LockedDatabaseError)

    def _say_locked(self) -> None:
        if self._locked:
            return
        self._locked = True
        self._say(Message(LOCKED, {"path": self.db_path}))

    def _wrote(self) -> None:
        if not self._locked:
            return
        self._locked = False
        self._say(Message(UNLOCKED, {"path": self.db_path}))

    def _say(self, sentence: Message) -> None:
        """To ``on_problem`` (the command's stderr), or else to the log as a warning."""
        if self._on_problem is None:
            _log.warning("%s", sentence)
        else:
            _log.info("%s", sentence)
            self._on_problem(sentence)
