"""``serve-demo``, ``scenario`` and ``agent``: the demo server and agent runs from the command line."""

from __future__ import annotations

import argparse
import logging
import math
import sys
import threading

from inspector.i18n import N_, _, current_language
from inspector.i18n.messages import Message
from inspector.i18n.os_reasons import os_reason
from inspector.mcp.messages import Number

from .common import EXIT_OK, UsageError, wait_until_stopped
from .typed_secrets import typed_start


def run(args: argparse.Namespace) -> int:
    if args.command == "serve-demo":
        return serve_demo(args)
    from . import agent_runs  # the agent loop and the store: only for the commands that use them

    return agent_runs.run(args)


def _whole_number(option: str, raw: str, minimum: int) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise UsageError(Message(N_("{option} must be a whole number (got {raw})."),
                                 {"option": option, "raw": repr(typed_start(raw, 40))})) from None
    if value < minimum:
        raise UsageError(Message(N_("{option} must be at least {minimum} (got {value})."),
                                 {"option": option, "minimum": minimum, "value": value}))
    return value


def _catalogue_size(raw: str) -> int:
    from inspector.demo.options import MAX_CATALOGUE_SIZE

    size = _whole_number("--catalogue-size", raw, 0)
    if size > MAX_CATALOGUE_SIZE:
        raise UsageError(Message(N_("{option} must be from {lowest} to {highest} (got {value})."),
                                 {"option": "--catalogue-size", "lowest": 0,
                                  "highest": Number(MAX_CATALOGUE_SIZE, f"{MAX_CATALOGUE_SIZE:,}"), "value": size}))
    return size


def _seconds(option: str, raw: str | None, *, allow_zero: bool = False) -> float | None:
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise UsageError(Message(N_("{option} must be a number of seconds (got {raw})."),
                                 {"option": option, "raw": repr(typed_start(raw, 40))})) from None
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        template = (N_("{option} must be zero or a positive number of seconds (got {raw}).") if allow_zero
                    else N_("{option} must be a positive number of seconds (got {raw})."))
        raise UsageError(Message(template, {"option": option, "raw": repr(typed_start(raw, 40))}))
    return value


def demo_start_failure(error: Exception, option: str | None = None) -> Message | Exception:
    """Why the demo server did not start, in the reader's language: a port it cannot listen on (with
    what to give ``option`` instead), or the reason it gave; ``error`` itself when it says neither."""
    port, os_error = getattr(error, "port", None), getattr(error, "os_error", None)
    if port is not None and os_error is not None:
        if option is None:
            return Message(N_("The demo server cannot listen on 127.0.0.1:{port} ({reason})."),
                           {"port": port, "reason": os_reason(os_error)})
        return Message(N_("The demo server cannot listen on 127.0.0.1:{port} ({reason}); choose another port "
                          "with {option}, or 0 for any free one."),
                       {"port": port, "reason": os_reason(os_error), "option": option})
    if port is not None:
        reason = getattr(error, "reason", None)
        if reason:
            return Message(N_("The demo server did not start on port {port}: {reason}."),
                           {"port": port, "reason": reason})
        return Message(N_("The demo server did not start on port {port}; it gave no reason."), {"port": port})
    return error


def serve_demo(args: argparse.Namespace) -> int:
    """Run the demo server in the foreground until Ctrl-C."""
    from inspector.demo import DemoOptions, DemoServer, DemoServerError

    port = _whole_number("--port", args.port, 0)
    if port > 65535:
        raise UsageError(Message(N_("--port must be at most 65535 (got {port})."), {"port": port}))
    options = DemoOptions(
        port=port,
        handshake_delay_s=_seconds("--handshake-delay", args.handshake_delay, allow_zero=True) or 0.0,
        page_size=None if args.page_size is None else _whole_number("--page-size", args.page_size, 1),
        json_response=args.json_response, stateless=args.stateless,
        language=current_language(),  # its own texts speak the command's language (--lang, else as every command)
        **({} if args.catalogue_size is None else {"catalogue_size": _catalogue_size(args.catalogue_size)}))
    # The server's own log (e.g. "hang: ... saw the cancel") is part of what a demo shows.
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    logger = logging.getLogger("inspector.demo")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    server = DemoServer(options)
    try:
        url = server.start()
    except DemoServerError as exc:
        logger.removeHandler(handler)  # the command ends here: its stderr is not the next one's
        raise UsageError(demo_start_failure(exc, "--port")) from None
    as_json = bool(getattr(args, "json", False))
    if as_json:
        from .ending import emit_json

        emit_json({"url": url})  # the one object: where it listens (a parent process waits for this line)
    else:
        print(_("The demo MCP server is listening at {url}").format(url=url), flush=True)
        # What to type next, from another terminal (the first line stays the address alone: scripts read it).
        print(_("Its tools, from another terminal: run-inspector tools {url}").format(url=url), flush=True)
        print(_("Press Ctrl-C to stop it."), flush=True)
    stop = threading.Event()
    if getattr(args, "stop_with_stdin", False):
        from .parent_watch import stop_with_parent

        stop_with_parent(stop)
    try:
        wait_until_stopped(stop)
    finally:
        server.stop()
        logger.removeHandler(handler)
    if not as_json:
        print(_("The demo server stopped."), flush=True)
    return EXIT_OK
