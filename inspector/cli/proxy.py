"""``run-inspector proxy``: the recording proxy in the foreground, until Ctrl-C."""

from __future__ import annotations

import argparse
import sys
import threading

from inspector.i18n import N_, _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import Message, translate

from .common import EXIT_OK, UsageError, database_path, wait_until_stopped
from .operations import parse_budget_option


def run(args: argparse.Namespace) -> int:
    """Forward an agent's MCP traffic to ``--to`` and record each operation as a run."""
    from inspector.capture.proxy import ProxyAddressError, ProxyServer
    from inspector.capture.proxy.server import is_loopback, parse_listen

    if not args.to:
        raise UsageError(Message(N_("proxy needs the server to forward to: proxy --to URL, its MCP address, e.g. "
                                    "proxy --to http://127.0.0.1:8000/mcp")))
    # Read as every command reads --budget: one of more than a week is refused (1e308 s recorded no run).
    reading = parse_budget_option(args.budget)
    budget = reading.seconds if reading else None
    as_json = bool(getattr(args, "json", False))
    try:
        host, port = parse_listen(args.listen)
    except ProxyAddressError as exc:
        raise UsageError(exc.message) from None

    def recorded(run_id: int, run: object) -> None:
        if not as_json:
            print(_("recorded run {id}: {title} ({status})").format(
                id=run_id, title=getattr(run, "title", ""), status=getattr(run, "status", "")), flush=True)

    def problem(message: Message) -> None:
        print(_("run-inspector: {sentence}").format(sentence=translate(message)), file=sys.stderr, flush=True)

    db = database_path(args.db)
    try:
        proxy = ProxyServer(args.to, db, host=host, port=port, budget_s=budget, recorded=recorded, problem=problem)
        url = proxy.start()
    except ProxyAddressError as exc:
        raise UsageError(exc.message) from None
    if not is_loopback(host):
        print(translate(Message(N_("run-inspector: the proxy listens on {host}, not only on this computer: anyone who "
                                   "reaches it can use the server through it."), {"host": host})), file=sys.stderr)
    if as_json:
        from .ending import emit_json

        # "database", as `receive` names it; "db" as well, since docs/cli-json.md promised it.
        emit_json({"url": url, "to": proxy.server_url, "database": str(db), "db": str(db), "budget_s": budget})
    else:
        # The server's address as runs name it: a password or key in --to is not printed (logs keep stdout).
        print(_("The recording proxy is listening at {url} and forwards to {to}.").format(url=url, to=proxy.server_url),
              flush=True)
        print(_("Give your agent this address; each operation is stored as a run in {db}. Press Ctrl-C to stop.")
              .format(db=db), flush=True)
    stop = threading.Event()
    if getattr(args, "stop_with_stdin", False):
        from .parent_watch import stop_with_parent

        stop_with_parent(stop)
    try:
        wait_until_stopped(stop)
    finally:
        proxy.stop()
    if not as_json:
        count = proxy.recorded_count
        print(ngettext("The proxy stopped; it recorded {count} run.", "The proxy stopped; it recorded {count} runs.",
                       count).format(count=format_number(count)), flush=True)
    return EXIT_OK
