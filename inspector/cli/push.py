"""``export --otlp-endpoint URL``: runs sent to an OpenTelemetry collector through the outbox.

The selected runs (the same selectors as a file export) are queued in the database's outbox for
that collector, then everything queued for it is sent; a collector that is unavailable is retried
with backoff for ``--wait`` seconds, and what is not sent by then stays queued for the next push
(this command again, or the window with pushing on). Headers (``--header``) and a query in the address
(``?api_key=…``) are sent, never stored.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from inspector.capture.pusher import DrainReport, Pusher, drain
from inspector.capture.sending import EndpointError, collector_address, reason_said, traces_url
from inspector.i18n import N_, _, ngettext
from inspector.i18n.messages import Message
from inspector.mcp.server import two_servers
from inspector.store import RunStore
from inspector.store.outbox import Outbox

from .common import EXIT_FAILED, EXIT_OK, BadInputError, CancelledCommand, UsageError, open_existing_store
from .ending import emit_json
from .run_choice import resolve_run
from .stopping import Terminated, stoppable_until_stored

#: The longest --wait accepted (an hour): beyond that, leave it to the next push.
MAX_WAIT_S = 3600.0


def collector_headers(raw: list[str]) -> dict[str, str]:
    """``--header 'Name: value'`` items; nothing of a malformed one is repeated (it may be a credential)."""
    headers: dict[str, str] = {}
    for item in raw:
        name, sep, value = item.partition(":")
        name = name.strip()
        if not sep or not name or any(char in name for char in " \t\r\n") or any(c in value for c in "\r\n"):
            raise UsageError(Message(N_("--header needs the form 'Name: value', e.g. 'Authorization: Bearer ...' "
                                        "(what was given is not repeated here, as it may be a credential)")))
        headers[name] = value.strip()
    return headers


def _wait_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MAX_WAIT_S:
        raise UsageError(Message(N_("--wait needs a number of seconds from 0 to {most}"), {"most": int(MAX_WAIT_S)}))
    return seconds


def push(args: argparse.Namespace) -> int:
    if args.output is not None:
        raise UsageError(Message(N_("give -o FILE or --otlp-endpoint URL, not both")))
    if args.run_ids and args.all:
        raise UsageError(Message(N_("give RUN ... or --all, not both")))
    if (two := two_servers(args.otlp_endpoint)) is not None:  # its password may hold "@" and "/" as typed
        raise UsageError(two)
    try:
        traces_url(args.otlp_endpoint)
    except EndpointError:
        raise UsageError(Message(N_("--otlp-endpoint needs the http:// or https:// address of an OpenTelemetry "
                                    "collector, e.g. http://127.0.0.1:4318"))) from None
    # The outbox keys the collector, and the messages name it, without a password or query its address may carry.
    endpoint, headers, query = collector_address(args.otlp_endpoint, collector_headers(args.header))
    wait = _wait_seconds(args.wait)
    selecting = bool(args.run_ids or args.all or args.outcome)
    store = open_existing_store(args.db)  # pushing never creates a database
    if store is None:
        if selecting:
            raise BadInputError(Message(N_("There are no runs to send: the run database does not exist yet.")))
        return _report(args, endpoint, 0, DrainReport(0, 0, 0, ""), [])
    with store:
        selected = _selected(store, args) if selecting else []
        try:
            with stoppable_until_stored():  # each run sent is marked so as it goes
                with Pusher(store, endpoint, headers, query=query) as pusher:  # first: it adopts rows kept before
                    queued = Outbox(store.db.conn).enqueue(selected, endpoint)
                    report = drain(pusher, wait)
        except KeyboardInterrupt as stop:  # the run being sent went back to the queue (Pusher.push_due)
            raise CancelledCommand(Message(
                N_("Ended by a signal (SIGTERM) before the push was done: what was not sent to {endpoint} stays "
                   "queued for the next push.") if isinstance(stop, Terminated) else
                N_("Cancelled (Ctrl-C) before the push was done: what was not sent to {endpoint} stays queued for "
                   "the next push."), {"endpoint": endpoint})) from None
        states = Outbox(store.db.conn).of_runs(selected)
        runs = [{"id": run_id, **_state(states.get(run_id))} for run_id in selected]
    return _report(args, endpoint, queued, report, runs)


def _selected(store: RunStore, args: argparse.Namespace) -> list[int]:
    run_ids = list(dict.fromkeys(resolve_run(store, given).id for given in args.run_ids)) or None
    found = store.list_runs(outcome=args.outcome, run_ids=run_ids, limit=None)
    if run_ids is not None:
        missing = [run_id for run_id in run_ids if run_id not in {run.id for run in found}]
        if missing:
            raise BadInputError(Message(N_("There is no run {id}; nothing was sent. `runs list` shows the runs "
                                           "that are stored."), {"id": missing[0]}))
    return [run.id for run in reversed(found)]


def _state(entry: Any) -> dict[str, Any]:
    if entry is None:  # still running: not queued
        return {"state": None, "reason": ""}
    return {"state": entry.state, "reason": entry.reason}


def _report(args: argparse.Namespace, endpoint: str, queued: int, report: DrainReport,
            runs: list[dict[str, Any]]) -> int:
    status = EXIT_OK if not report.waiting and not report.failed else EXIT_FAILED
    _say_pushed(args, endpoint, queued, report, runs)
    return status


def _say_pushed(args: argparse.Namespace, endpoint: str, queued: int, report: DrainReport,
                runs: list[dict[str, Any]]) -> None:
    """What a push sent, saw refused, and left queued."""
    if args.json:
        emit_json({"endpoint": endpoint, "queued": queued, "sent": report.sent, "failed": report.failed,
                   "waiting": report.waiting, "last_reason": report.last_reason, "runs": runs})
        return
    lines = [ngettext("Sent {count} run to {endpoint}.", "Sent {count} runs to {endpoint}.", report.sent).format(
        count=report.sent, endpoint=endpoint)]
    if report.failed:
        lines.append(ngettext("{count} run was refused by the collector and will not be sent again (`runs list "
                              "--json` says why).", "{count} runs were refused by the collector and will not be "
                              "sent again (`runs list --json` says why).", report.failed).format(count=report.failed))
    if report.waiting:
        lines.append(ngettext("{count} run is still queued ({reason}); the next push sends it.",
                              "{count} runs are still queued ({reason}); the next push sends them.",
                              report.waiting).format(count=report.waiting,
                                                     reason=reason_said(report.last_reason) if report.last_reason
                                                     else _("not due yet")))
    print(" ".join(lines))
