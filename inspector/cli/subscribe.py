"""``resources subscribe SERVER URI``: subscribe to a resource and print each update until stopped.

The command holds a listening session with the server (:class:`~inspector.mcp.listening.
ServerListener`, as the window does), subscribes on it (an operation with its budget, stored as a
run: ``resources/subscribe`` in the handshake era, the ``subscriptions/listen`` request in the
stateless era) and prints every ``notifications/resources/updated`` for the URI with the time it
arrived. It ends after ``--count N`` updates, after ``--for SECONDS``, at Ctrl-C (SIGINT) or
SIGTERM, or when the reader of its output goes away (``| head -1``); in the handshake era it then
unsubscribes (an operation and a run of its own) and ends the session. Exit status: 0 when it ended
so (Ctrl-C included: it is how a watch is ended; a reader gone too), 1 when the subscription failed
or the session was lost, 130 for a Ctrl-C during the subscribe itself (cancelled). ``--json``: one
JSON object a line (docs/cli-json.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import time
from typing import Any

from inspector.agent import OperationRecord
from inspector.agent.offerings import offering_step
from inspector.i18n import N_, _, ngettext
from inspector.i18n.entry_names import shown_label
from inspector.i18n.formatting import format_number, format_time
from inspector.i18n.messages import Message, translate
from inspector.mcp import CancelSignal, FanOut, OperationRecorder, ServerEndpoint, ServerRequestHandler, public_url
from inspector.mcp.listening import ListenerState, ListenerStatus, ServerListener
from inspector.mcp.resource_subscriptions import SUBSCRIBE, UNSUBSCRIBE, ResourceUpdate
from inspector.mcp.standalone import ServerNotification

from .common import EXIT_CANCELLED, EXIT_FAILED, EXIT_OK, UsageError, database_path
from .ending import json_text, mark_json_emitted
from .reader_gone import reader_went_away
from .safe_text import one_line

#: Unsubscribing when the watch ends gets at most this budget (the user is waiting for the prompt).
UNSUBSCRIBE_BUDGET_S = 5.0
#: The most updates waiting to be printed; more (a flooding server) are counted, not kept.
MAX_QUEUED = 1000


def parse_watch_options(args: argparse.Namespace) -> tuple[int | None, float | None]:
    """``--count`` and ``--for``, checked."""
    count, seconds = getattr(args, "count", None), getattr(args, "for_s", None)
    if count is not None and count < 1:
        raise UsageError(Message(N_("--count must be a whole number of at least 1, got {value}"), {"value": count}))
    if seconds is not None and not 0 < seconds <= 7 * 24 * 3600:
        raise UsageError(Message(N_("--for must be a positive number of seconds (at most a week), got {value}"),
                                 {"value": seconds}))
    return count, seconds


def _line(document: dict[str, Any]) -> None:
    mark_json_emitted()
    sys.stdout.write(json_text(document) + "\n")
    sys.stdout.flush()


class _Watch:
    """The updates heard, queued for printing (bounded), and why the watch ends."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[ResourceUpdate] = asyncio.Queue(MAX_QUEUED)
        self.dropped = 0
        self.ending: asyncio.Event = asyncio.Event()
        self.reason = ""
        self.status: ListenerStatus | None = None
        self.status_changed = asyncio.Event()

    def end(self, reason: str) -> None:
        if not self.ending.is_set():
            self.reason = reason
            self.ending.set()


async def watch(args: argparse.Namespace, server: ServerEndpoint, budget: float | None, store: Any,
                handler: ServerRequestHandler, early: Any) -> int:
    """Subscribe, print the updates, unsubscribe; the exit status."""
    from .operations import _add_budget_left, _finish_run, _start_run, build_report, print_report

    count, for_s = parse_watch_options(args)
    uri = args.tool
    eras = None
    if store is not None:
        from inspector.store import StoredEras

        eras = StoredEras(store)
    state = _Watch()
    loop = asyncio.get_running_loop()
    listener: ServerListener | None = None

    def heard(note: ServerNotification) -> None:
        update = listener.subscriptions.update_of(note) if listener is not None else None
        if update is not None:
            try:
                state.queue.put_nowait(update)
            except asyncio.QueueFull:
                state.dropped += 1

    def status(seen: ListenerStatus) -> None:
        state.status = seen
        state.status_changed.set()

    listener = ServerListener(server, roots=handler.roots, eras=eras, on_notification=heard, on_status=status)
    cancel = CancelSignal()
    subscribing = True

    def interrupted(reason: str) -> None:
        if subscribing:
            cancel.fire()
        state.end(reason)

    for signum, reason in ((signal.SIGINT, "interrupted"), (signal.SIGTERM, "terminated")):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, interrupted, reason)
    if early.seen:
        interrupted("interrupted")
    listening = loop.create_task(listener.run())
    try:
        problem = await _until_listening(listener, state, budget)
        if problem is not None:
            print(_("run-inspector: {sentence}").format(sentence=problem), file=sys.stderr)
            return EXIT_CANCELLED if state.reason else EXIT_FAILED
        record, report = await _operate(SUBSCRIBE, args, server, listener, budget, cancel, store,
                                        _start_run, _finish_run, build_report, _add_budget_left)
        subscribing = False
        _say_operation(args, report, record, print_report)
        if reader_went_away():  # `resources subscribe … | head -1`: no one reads the updates, the watch ends
            state.end("reader_gone")
        if record.status != "ok":
            return EXIT_CANCELLED if record.error is not None and record.error.is_cancellation else EXIT_FAILED
        if not args.json and not state.ending.is_set():
            print(one_line(_("Waiting for updates of {uri} (Ctrl-C ends).").format(uri=uri)), file=sys.stderr)
        updates = await _print_updates(args, state, count, for_s, listening)
        if not listener.stateless and state.reason != "session_lost":
            record, report = await _operate(UNSUBSCRIBE, args, server, listener, UNSUBSCRIBE_BUDGET_S,
                                            CancelSignal(), store, _start_run, _finish_run, build_report,
                                            _add_budget_left)
            _say_operation(args, report, record, print_report)
        _say_end(args, state, updates)
        return EXIT_FAILED if state.reason == "session_lost" else EXIT_OK
    finally:
        try:
            await listener.stop(listening)  # a Ctrl-C meanwhile ends nothing more (the watch is ending)
        finally:
            early.after_end()  # then, until the command ends (its store closed), one changes nothing


async def _until_listening(listener: ServerListener, state: _Watch, budget: float | None) -> str | None:
    """Wait (within the budget) until the session listens; a sentence when it cannot."""
    limit = time.monotonic() + (budget or 20.0)
    while True:
        seen = state.status
        if seen is not None and seen.state is ListenerState.LISTENING:
            return None
        if seen is not None and seen.state is ListenerState.NO_STREAM:
            return translate(Message(N_("The server {server} offers no stream of its own (HTTP {status}), so it "
                                        "cannot send updates."), {"server": shown_label(listener.server),
                                                                  "status": seen.http_status or "-"}))
        if seen is not None and seen.state is ListenerState.STOPPED:
            return translate(seen.error) if seen.error is not None else _("The listening session ended.")
        if state.ending.is_set():
            return _("Stopped before the session with the server was open.")
        left = limit - time.monotonic()
        if left <= 0:
            return translate(Message(N_("The server {server} did not open a listening session within the "
                                        "budget."), {"server": shown_label(listener.server)}))
        state.status_changed.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(min(left, 0.5)):
                waits = (asyncio.ensure_future(state.status_changed.wait()), asyncio.ensure_future(state.ending.wait()))
                try:
                    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for waiting in waits:
                        waiting.cancel()


async def _operate(method: str, args: argparse.Namespace, server: ServerEndpoint, listener: ServerListener,
                   budget: float | None, cancel: CancelSignal, store: Any, start_run: Any, finish_run: Any,
                   build_report: Any, add_budget_left: Any) -> tuple[OperationRecord, dict[str, Any]]:
    recorder = OperationRecorder()
    recording = start_run(store, database_path(args.db), f"{method} {args.tool}", public_url(server.url))
    record = await offering_step(None, server, method, {"uri": args.tool}, budget_s=budget, cancel=cancel,
                                 observer=FanOut(recorder), wire=getattr(args, "wire", None),
                                 session=listener.subscriptions)
    fate = finish_run(recording, record)
    report = build_report(method, server, args, recorder, record, fate.run_id if fate else None)
    report["uri"] = args.tool
    add_budget_left(report, recorder)
    if record.result is not None:
        report["era"] = record.result.era
    return record, report


def _say_operation(args: argparse.Namespace, report: dict[str, Any], record: OperationRecord,
                   print_report: Any) -> None:
    if args.json:
        _line({"event": "subscribed" if report["operation"] == SUBSCRIBE else "unsubscribed", **report})
    else:
        print_report(report, False, record.error)
    sys.stdout.flush()


async def _print_updates(args: argparse.Namespace, state: _Watch, count: int | None, for_s: float | None,
                         listening: asyncio.Task[None]) -> int:
    loop = asyncio.get_running_loop()
    if for_s is not None:
        loop.call_later(for_s, state.end, "for")
    listening.add_done_callback(lambda _task: state.end("session_lost"))
    printed = 0
    while not state.ending.is_set():
        getting = asyncio.ensure_future(state.queue.get())
        ending = asyncio.ensure_future(state.ending.wait())
        await asyncio.wait((getting, ending), return_when=asyncio.FIRST_COMPLETED)
        ending.cancel()
        if not getting.done():
            getting.cancel()
            break
        update = getting.result()
        printed += 1
        if args.json:
            _line({"event": "updated", "uri": update.uri, "at": update.at.isoformat().replace("+00:00", "Z"),
                   "via": update.via, "number": printed})
        else:
            print(one_line(_("{time}  updated  {uri}").format(time=format_time(update.at), uri=update.uri)))
            sys.stdout.flush()
        if reader_went_away():
            state.end("reader_gone")
        if count is not None and printed >= count:
            state.end("count")
    return printed


def _say_end(args: argparse.Namespace, state: _Watch, updates: int) -> None:
    if args.json:
        _line({"event": "ended", "reason": state.reason, "updates": updates, "dropped": state.dropped})
        return
    words = {"count": _("the count was reached"), "for": _("the time given (--for) is over"),
             "interrupted": _("interrupted (Ctrl-C)"), "terminated": _("terminated"),
             "session_lost": _("the listening session ended"),
             "reader_gone": _("the reader of its output went away")}
    print(one_line(ngettext("Ended after {count} update: {reason}.", "Ended after {count} updates: {reason}.",
                            updates).format(
        count=format_number(updates), reason=words.get(state.reason, state.reason))), file=sys.stderr)
    if state.dropped:
        print(_("run-inspector: {count} updates came faster than they could be printed and were dropped.").format(
            count=format_number(state.dropped)), file=sys.stderr)


__all__ = ["watch"]
