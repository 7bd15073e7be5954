"""``runs list``, ``runs show`` and ``servers``: what the run database holds."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from typing import Any

from inspector.runs import step_details
from inspector.store import RunRecord, RunStore, ServerRegistry, StoredStep, UnknownRunError

from .common import EXIT_FAILED, EXIT_OK, UsageError, open_store
from .results import step_extra_lines
from .safe_text import one_line


def run(args: argparse.Namespace) -> int:
    if args.command == "runs" and args.runs_command == "list" and args.limit < 1:
        raise UsageError("--limit must be at least 1")
    with open_store(args.db) as store:
        if args.command == "servers" and args.servers_command == "set":
            return _configure_server(store, args)
        if args.command == "servers":
            return _servers(store, args.json)
        if args.runs_command == "list":
            return _list(store, args)
        return _show(store, args.run_id, args.json)


def _time(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _local(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    try:
        moment = moment.astimezone()
    except (OverflowError, ValueError):  # year 1 or 9999 has no local time on the far side of UTC
        pass
    return (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d} "
            f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}")


def run_dict(run: RunRecord) -> dict[str, Any]:
    summary = {"id": run.id, "uid": run.uid, "title": run.title, "source": run.source, "server": run.server,
               "status": run.status, "started_at": _time(run.started_at), "finished_at": _time(run.finished_at)}
    if run.step_count is not None:
        summary["steps"] = run.step_count
    return summary


def _list(store: RunStore, args: argparse.Namespace) -> int:
    runs = store.list_runs(outcome=args.outcome, server=args.server, limit=args.limit)
    if args.json:
        print(json.dumps({"runs": [run_dict(run) for run in runs]}, ensure_ascii=False))
        return EXIT_OK
    if not runs:
        print("No runs stored yet.")
        return EXIT_OK
    print(f"{'ID':>6}  {'Started':<19}  {'Status':<11}  {'Source':<8}  Title")
    for run in runs:
        print(one_line(f"{run.id:>6}  {_local(run.started_at):<19}  {run.status:<11}  {run.source:<8}  {run.title}"))
    return EXIT_OK


def entry_dict(run: RunRecord, stored: StoredStep) -> dict[str, Any]:
    payload = stored.payload
    return {"time": _time(stored.started_at), "sequence": stored.sequence, "source": run.source,
            "kind": str(stored.step.kind), "round": stored.step.round, "duration_ms": stored.step.duration_ms,
            "outcome": stored.outcome, "details": step_details(payload), "payload": payload}


def _show(store: RunStore, run_id: int, as_json: bool) -> int:
    try:
        run = store.get_run(run_id)
    except UnknownRunError as exc:
        print(f"run-inspector: {exc}", file=sys.stderr)
        return EXIT_FAILED
    out = sys.stdout
    if as_json:
        # Written step by step: a run of 100,000 steps is never held in memory whole.
        out.write('{"run": ' + json.dumps(run_dict(run), ensure_ascii=False) + ', "timeline": [')
        for index, stored in enumerate(store.iter_steps(run_id)):
            out.write(("," if index else "") + json.dumps(entry_dict(run, stored), ensure_ascii=False))
        out.write("]}\n")
        return EXIT_OK
    out.write(one_line(f"Run {run.id}: {run.title}") + "\n")
    out.write(one_line(f"  status {run.status}, source {run.source}, server {run.server or '-'}") + "\n")
    out.write(f"  started {_local(run.started_at)}, finished {_local(run.finished_at)}, {run.step_count} step(s)\n\n")
    out.write(f"{'Time':<19}  {'Source':<8}  {'Kind':<10}  {'Round':>5}  {'Duration (ms)':>13}  {'Outcome':<9}  Details\n")
    for stored in store.iter_steps(run_id):
        line = (f"{_local(stored.started_at):<19}  {run.source:<8}  {str(stored.step.kind):<10}  "
                f"{stored.step.round:>5}  {stored.step.duration_ms:>13.2f}  {stored.outcome or '-':<9}  "
                f"{step_details(stored.payload)}")
        out.write(one_line(line) + "\n")
        for extra in step_extra_lines(stored.payload):
            out.write(one_line(f"    {extra}") + "\n")
    return EXIT_OK


def _configure_server(store: RunStore, args: argparse.Namespace) -> int:
    from inspector.mcp import ServerEndpoint, public_url
    from inspector.mcp.server import InvalidServerError
    from inspector.store.secrets import is_secret_header, system_secret_keeper

    from .operations import parse_budget_option, parse_headers

    headers = parse_headers(args.header)
    marked = parse_headers(args.secret_header)
    headers.update(marked)
    try:
        endpoint = ServerEndpoint(args.url, headers=headers, name=args.name)
    except InvalidServerError as exc:
        raise UsageError(str(exc)) from None
    keeper = system_secret_keeper()
    registry = ServerRegistry(store.db, keeper)
    url = public_url(endpoint.url)
    registry.save_server(url, name=args.name, budget_s=parse_budget_option(args.budget), headers=headers,
                         secret=marked)
    print(f"Saved {url}.")
    secret = [name for name in headers if is_secret_header(name) or name in marked]
    if secret and not keeper.available:
        print(f"No system keyring is available: the values of {', '.join(secret)} were not kept; "
              "you will be asked for them (or pass them with --header).")
    return EXIT_OK


def _servers(store: RunStore, as_json: bool) -> int:
    servers = ServerRegistry(store.db).all()
    if as_json:
        print(json.dumps({"servers": [server.to_dict() for server in servers]}, ensure_ascii=False))
        return EXIT_OK
    if not servers:
        print("No servers known yet.")
        return EXIT_OK
    print(f"{'Server':<40}  {'Last contact':<19}  {'Latency':>9}  {'ok':>5}  {'failed':>6}  {'cancelled':>9}")
    for server in servers:
        latency = "-" if server.last_latency_ms is None else f"{server.last_latency_ms:.0f} ms"
        print(one_line(f"{server.name or server.url:<40}  {_local(server.last_contact_at):<19}  {latency:>9}  "
                   f"{server.ok_count:>5}  {server.failed_count:>6}  {server.cancelled_count:>9}"))
    return EXIT_OK
