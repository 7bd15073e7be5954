"""Pushing the outbox of one collector: each due run sent once, retried with backoff, or given up.

A round (:meth:`Pusher.push_due`) takes the due rows one by one (each claimed in the database, so
two processes never send the same run), sends each run as one request and records the answer.
A failure that says the collector is unavailable (no connection, 429, 5xx) ends the round: the
other runs would meet the same, so they wait for the same moment rather than hammer it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

import httpx

from inspector.mcp.address_query import with_query
from inspector.runs.times import utc_now
from inspector.store import RunStore, UnknownRunError
from inspector.store.outbox import Outbox, OutboxEntry

from .backoff import backoff_s, due_after, retry_after_s
from .run_body import UnpushableRunError, run_body
from .sending import REMOVED, REQUEST_TIMEOUT_S, Delivery, send, traces_url


@dataclass(frozen=True)
class PushRound:
    """What one round did, and when the next one is due (None: nothing is queued)."""

    sent: int
    retried: int
    failed: int
    next_due: datetime | None
    #: Why the last retried attempt did not deliver ('' when none was retried).
    last_reason: str = ""


class Pusher:
    """Sends the outbox of ``endpoint`` through ``store``'s connection (one thread uses it), to that
    address with ``query`` (a secret the outbox does not keep: :func:`.sending.collector_address`)."""

    def __init__(self, store: RunStore, endpoint: str, headers: Mapping[str, str] | None = None, *,
                 query: str | None = None, timeout_s: float = REQUEST_TIMEOUT_S, rng: random.Random | None = None,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.endpoint = endpoint
        self.url = with_query(traces_url(endpoint), query)  # EndpointError before anything is sent
        self._store = store
        self.outbox = Outbox(store.db.conn)
        self._headers = dict(headers or {})
        self._rng = rng or random.Random()
        self._clock = clock
        self._timeout_s = timeout_s
        self._client = httpx.Client(timeout=timeout_s, follow_redirects=False, trust_env=False)
        self._held_until: datetime | None = None
        #: Attempts since the last delivery that found the collector unavailable: the backoff grows with
        #: them, not with one run's attempts (each queued run in turn would start it again at 1 s).
        self._unavailable = 0
        self.outbox.release_stale()
        if query:  # runs an earlier version queued under the address with its query (the key stored in clear)
            self.outbox.rekey(self.url, endpoint)

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Pusher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def push_due(self, should_stop: Callable[[], bool] = lambda: False) -> PushRound:
        """Send every run that is due now (until one says the collector is unavailable)."""
        sent = retried = failed = 0
        reason = ""
        now = self._clock()
        if self._held_until is None or self._held_until <= now:
            self._held_until = None
            while not should_stop():
                entry = self.outbox.claim_due(self.endpoint, self._clock())
                if entry is None:
                    break
                try:
                    delivery = self._deliver(entry)
                except BaseException:
                    self.outbox.release(entry.id)  # interrupted (Ctrl-C, a bug): the row goes back untouched
                    raise
                if delivery.state == "sent":
                    self._unavailable = 0
                    sent += self.outbox.mark_sent(entry.id, self._clock(), delivery.reason)
                elif delivery.state == "failed":
                    failed += self.outbox.mark_failed(entry.id, delivery.reason)
                else:
                    retried += 1
                    reason = delivery.reason
                    self._held_until = self._retry(entry, delivery)
                    break
        return PushRound(sent, retried, failed, self._next_due(), reason)

    def _deliver(self, entry: OutboxEntry) -> Delivery:
        try:
            body = run_body(self._store, self._store.get_run(entry.run_id))
        except UnknownRunError:
            return Delivery("failed", REMOVED)
        except UnpushableRunError as error:
            return Delivery("failed", str(error))
        return send(self._client, self.url, body, self._headers, self._timeout_s)

    def _retry(self, entry: OutboxEntry, delivery: Delivery) -> datetime:
        now = self._clock()
        self._unavailable += 1
        asked = retry_after_s(delivery.retry_after, now)
        # A Retry-After asking for no wait (0, a date past) is read as none: trying again at once
        # would meet the same answer at once, as fast as the loopback allows.
        wait = asked if asked else backoff_s(max(entry.attempts + 1, self._unavailable), self._rng)
        due = due_after(now, wait)
        self.outbox.mark_retry(entry.id, due, delivery.reason)
        return due

    def _next_due(self) -> datetime | None:
        due = self.outbox.next_due(self.endpoint)
        if due is None:
            return None
        return max(due, self._held_until) if self._held_until else due


@dataclass(frozen=True)
class DrainReport:
    """What pushing until done (or until the time given ran out) achieved."""

    sent: int
    failed: int
    waiting: int
    last_reason: str


def drain(pusher: Pusher, wait_s: float, sleep: Callable[[float], None] = time.sleep) -> DrainReport:
    """Push rounds until nothing of ``pusher``'s collector is queued, or until the next retry would
    come later than ``wait_s`` seconds from now (what is left stays queued for a later push)."""
    deadline = time.monotonic() + wait_s
    sent = failed = 0
    reason = ""
    while True:
        done = pusher.push_due()
        sent, failed = sent + done.sent, failed + done.failed
        reason = done.last_reason or reason
        if done.next_due is None:
            break
        wait = max(0.0, (done.next_due - utc_now()).total_seconds())
        if time.monotonic() + wait > deadline:
            break
        sleep(wait)
    return DrainReport(sent, failed, pusher.outbox.counts(pusher.endpoint).waiting, reason)
