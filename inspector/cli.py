"""The command line: every headless feature of Run Inspector is reachable from here."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from inspector.mcp import (CancelSignal, McpClient, McpTransportError, OperationRecorder, ServerEndpoint,
                           parse_budget)
from inspector.mcp.server import InvalidServerError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_CANCELLED = 130
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_TERMINAL_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class UsageError(Exception):
    """Bad input on the command line: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, our exit status
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="run-inspector",
                     description="Make, cancel and inspect MCP tool calls. Without a subcommand "
                                 "the window opens (once the desktop interface is built).")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    def server_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("url", help="the server's Streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp")
        sub.add_argument("--budget", metavar="SECONDS",
                         help="time budget for the whole operation (default 20; minimum 1)")
        sub.add_argument("--header", action="append", default=[], metavar='"Name: value"',
                         help="extra HTTP header, e.g. an Authorization token (never printed)")
        sub.add_argument("--json", action="store_true", help="print exactly one JSON object")

    call = commands.add_parser("call", help="call a tool")
    server_options(call)
    call.add_argument("tool", help="the tool's name")
    call.add_argument("--args", default="{}", metavar="JSON", help="the tool's arguments as a JSON object")
    server_options(commands.add_parser("tools", help="list the tools a server offers"))
    server_options(commands.add_parser("ping", help="check that a server answers the handshake"))
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            build_parser().print_help()
            return EXIT_OK
        server = ServerEndpoint(args.url, headers=_parse_headers(args.header))
        budget = _parse_budget_option(args.budget)
        arguments = _parse_arguments(args.args) if args.command == "call" else None
    except (UsageError, InvalidServerError) as exc:
        print(f"run-inspector: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return _run_operation(args, server, budget, arguments)


def _parse_headers(raw: list[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for item in raw:
        name, sep, value = item.partition(":")
        name = name.strip()
        if not sep or not _HEADER_NAME.match(name):
            # Never echo the value: it may be a credential.
            raise UsageError(f"--header needs the form 'Name: value' (got a header named {name[:40]!r})")
        if any(ch in value for ch in "\r\n\x00"):
            raise UsageError(f"--header {name}: the value contains a line break")
        headers[name] = value.strip()
    return headers


def _parse_budget_option(raw: str | None) -> float | None:
    if raw is None:
        return None
    try:
        seconds = float(raw)
    except ValueError:
        raise UsageError(f"--budget must be a number of seconds (got {raw[:40]!r})") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise UsageError(f"--budget must be a positive number of seconds (got {raw[:40]!r})")
    return parse_budget(seconds)


def _parse_arguments(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise UsageError(f"--args is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise UsageError("--args must be a JSON object, e.g. '{\"text\": \"hi\"}'")
    return value


def _run_operation(args: argparse.Namespace, server: ServerEndpoint, budget: float | None,
                   arguments: dict[str, Any] | None) -> int:
    client = McpClient()
    cancel = CancelSignal()
    recorder = OperationRecorder()
    operation = {"call": "tools/call", "tools": "tools/list", "ping": "ping"}[args.command]
    calls: dict[str, Callable[[], Awaitable[Any]]] = {
        "call": lambda: client.call_tool(server, args.tool, arguments, budget_s=budget,
                                         cancel=cancel, observer=recorder),
        "tools": lambda: client.list_tools(server, budget_s=budget, cancel=cancel, observer=recorder),
        "ping": lambda: client.ping(server, budget_s=budget, cancel=cancel, observer=recorder),
    }

    async def run() -> int:
        _install_interrupt(cancel)
        result, error = None, None
        try:
            result = await calls[args.command]()
        except McpTransportError as exc:
            error = exc
        report = _report(operation, server, args, recorder, result, error)
        _print(report, args.json)
        sys.stdout.flush()
        # Housekeeping (cancel notice, session end) gets a short bound once the user has the answer.
        await client.drain(0.3 if error is not None and error.is_cancellation else 1.0)
        if error is not None:
            return EXIT_CANCELLED if error.is_cancellation else EXIT_FAILED
        return EXIT_FAILED if getattr(result, "is_error", False) else EXIT_OK

    return asyncio.run(run())


def _install_interrupt(cancel: CancelSignal) -> None:
    """First Ctrl-C cancels the operation (the result is still printed); a second exits at once."""
    loop = asyncio.get_running_loop()

    def on_interrupt() -> None:
        if cancel.fired:
            os._exit(EXIT_CANCELLED)
        cancel.fire()

    try:
        loop.add_signal_handler(signal.SIGINT, on_interrupt)
    except (NotImplementedError, RuntimeError):  # not the main thread, or no signals here
        pass


def _report(operation: str, server: ServerEndpoint, args: argparse.Namespace, recorder: OperationRecorder,
            result: Any, error: McpTransportError | None) -> dict[str, Any]:
    budget_s = recorder.started.budget_s if recorder.started else None
    report: dict[str, Any] = {"server": server.label, "operation": operation}
    if operation == "tools/call":
        report["tool"] = args.tool
    is_error = bool(getattr(result, "is_error", False))
    if error is not None:
        report["outcome"] = "cancelled" if error.is_cancellation else "failed"
    else:
        report["outcome"] = "failed" if is_error else "ok"
    report["is_error"] = is_error or error is not None
    if error is not None and error.is_cancellation:
        report["cancelled_in_flight"] = bool(error.in_flight)
    if result is not None and operation == "tools/call":
        report["content"] = result.content
        report["structured_content"] = result.structured_content
    if result is not None and operation == "tools/list":
        report["tools"] = [{"name": t.get("name"), "description": t.get("description")} for t in result.tools]
        report["pages"] = result.pages
    if result is not None and operation == "ping":
        report["protocol_version"] = result.protocol_version
        report["server_name"] = result.server_name
    report["error"] = error.to_dict() if error is not None else None
    report["budget_s"] = budget_s
    report["legs"] = [leg.to_dict() for leg in recorder.legs]
    return report


def _print(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
        return
    subject = report["operation"] + (f" {report['tool']}" if "tool" in report else "")
    budget = report["budget_s"]
    print(_safe(f"{subject} on {report['server']}: {report['outcome']} (budget {budget:g} s)"))
    for leg in report["legs"]:
        granted = "-" if leg["granted_s"] is None else f"{leg['granted_s']} s"
        elapsed = "-" if leg["elapsed_ms"] is None else f"{leg['elapsed_ms']:.1f} ms"
        status = "-" if leg["http_status"] is None else str(leg["http_status"])
        print(f"  {leg['method']:<27} granted {granted:>5}  took {elapsed:>10}  HTTP {status:>3}  {leg['outcome']}")
    if report["error"] is not None:
        print(_safe(f"Error ({report['error']['kind']}, code {report['error']['code']}): "
                    f"{report['error']['message']}"))
    if report.get("outcome") == "failed" and report["error"] is None:
        print(_safe(f"The tool {report.get('tool')} reported an error:"))
    if "content" in report:
        print(_safe(report["content"]))
    if "tools" in report:
        print(f"{len(report['tools'])} tool(s) in {report['pages']} page(s):")
        for tool in report["tools"]:
            line = f"  {tool['name']}"
            if tool.get("description"):
                line += f" - {str(tool['description']).splitlines()[0]}"
            print(_safe(line))
    if "protocol_version" in report:
        print(_safe(f"Server {report.get('server_name') or '(unnamed)'} speaks MCP "
                    f"{report['protocol_version']}."))


def _safe(text: str) -> str:
    """Server text on a terminal: no escape sequences or other control characters."""
    return _TERMINAL_UNSAFE.sub(" ", text)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
