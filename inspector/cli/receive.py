"""``run-inspector receive``: the OTLP/HTTP trace receiver, headless, until Ctrl-C or SIGTERM.

One line per run received or updated (with ``--json``: one JSON object per line, see
``docs/cli-json.md``): the run's number, title, status and steps. A database another program holds
locked for longer than ``--lock-wait`` (a minute; the spans received meanwhile are refused, 503) is said on
stderr, and again when it is free.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

from inspector.i18n import N_, _, ngettext
from inspector.i18n.formatting import format_number, format_seconds
from inspector.i18n.messages import Message, translate

from .common import EXIT_OK, UsageError, database_path, wait_until_stopped
from .safe_text import one_line
from .typed_secrets import typed_start
from .words import outcome_word


def run(args: argparse.Namespace) -> int:
    from inspector.capture import ReceiverError, ReceiverOptions, RunReceived, TraceReceiver, is_loopback

    port = _number("--port", args.port, 0, 65535)
    quiet = _seconds("--quiet-after", args.quiet_after)
    lock_wait = _seconds("--lock-wait", args.lock_wait)
    host = args.host.strip()
    as_json = bool(args.json)
    lock = threading.Lock()

    def say(received: RunReceived) -> None:
        with lock:
            if as_json:
                _line({"run_id": received.run_id, "uid": received.uid, "title": received.title,
                       "status": received.status, "steps": received.steps,
                       "event": "new" if received.created else "updated"})
                return
            template = (_("run #{id} received: {title} ({status}, {steps})") if received.created
                        else _("run #{id} updated: {title} ({status}, {steps})"))
            steps = ngettext("{count} step", "{count} steps", received.steps).format(
                count=format_number(received.steps))
            print(template.format(id=received.run_id, title=one_line(received.title),
                                  status=outcome_word(received.status), steps=steps), flush=True)

    def warn(sentence: Message) -> None:  # the database locked by another program (then free again), spans refused
        with lock:
            print(translate(sentence), file=sys.stderr, flush=True)

    db = database_path(args.db)
    receiver = TraceReceiver(db, ReceiverOptions(host=host, port=port, quiet_s=quiet), on_run=say, on_problem=warn,
                               on_refused=warn)
    receiver.lock_wait_s = lock_wait
    try:
        url = receiver.start()
    except ReceiverError as error:
        raise UsageError(error.sentence) from None
    if as_json:
        _line({"url": url, "database": str(db), "token": receiver.token, "quiet_after_s": quiet})
    else:
        print(_("Receiving OTLP traces at {url} (protobuf or JSON) into {database}.").format(
            url=url, database=db), flush=True)
        if not is_loopback(host):
            print(_("This address is reachable from other machines: exporters must send the header "
                    "Authorization: Bearer {token} (shown only now).").format(token=receiver.token), flush=True)
        print(_("A trace counts as finished {seconds} s after its last span. Press Ctrl-C to stop.").format(
            seconds=format_seconds(quiet)), flush=True)
    stop = threading.Event()
    try:
        wait_until_stopped(stop)
    finally:
        receiver.stop()  # the traces still growing are settled and written
    if as_json:
        _line({"stopped": True})
    else:
        print(_("The trace receiver stopped."), flush=True)
    return EXIT_OK


def _line(document: dict[str, Any]) -> None:
    from .ending import json_text, mark_json_emitted

    mark_json_emitted()
    sys.stdout.write(json_text(document) + "\n")
    sys.stdout.flush()


def _number(option: str, raw: str, lowest: int, highest: int) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise UsageError(Message(N_("{option} must be a whole number (got {raw})."),
                                 {"option": option, "raw": repr(typed_start(raw, 40))})) from None
    if not lowest <= value <= highest:
        raise UsageError(Message(N_("{option} must be from {lowest} to {highest} (got {value})."),
                                 {"option": option, "lowest": lowest, "highest": highest, "value": value}))
    return value


def _seconds(option: str, raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise UsageError(Message(N_("{option} must be a number of seconds above 0 and at most 3600 (got {raw})."),
                                 {"option": option, "raw": repr(typed_start(raw, 40))}))
    return value
