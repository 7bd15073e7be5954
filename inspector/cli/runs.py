"""``runs list`` and ``runs show``: what the run database holds (``servers``: cli/servers.py).

Reading never creates a database: on a file that does not exist these commands say so.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from inspector.i18n import N_, _, ngettext
from inspector.i18n.details import disagreement_said
from inspector.i18n.entry_names import names_calling
from inspector.i18n.formatting import format_number, one_day
from inspector.i18n.leg_findings import with_findings
from inspector.i18n.messages import Message
from inspector.i18n.recovery import status_with_recovery
from inspector.i18n.refused_probe import LegSeen, legs_seen
from inspector.i18n.replays import replay_of_text, replayed_as_text
from inspector.i18n.run_cells import (
    format_duration,
    run_duration,
    run_server,
    run_steps,
    short_reason,
    short_status,
    unnamed_server,
)
from inspector.i18n.scenarios import own_demo_server, said_title
from inspector.i18n.wire import command_line, line_problem_lines, stderr_lines, transport_line
from inspector.i18n.words import (
    SERVICE_CHARS,
    kind_word,
    run_heading,
    source_word,
    step_maker_word,
    step_source_word,
)
from inspector.mcp.command_line import shown_typed_command_line
from inspector.mcp.messages import Number
from inspector.mcp.server import STDIO_KEY_PREFIX
from inspector.runs import StepKind, step_details
from inspector.runs.ending import TIMED_OUT_MARK
from inspector.runs.loopback import names_this_machine
from inspector.runs.replaying import ReplayLink
from inspector.store import RunRecord, RunStore, ServerRegistry, StoredStep, UnknownRunError
from inspector.store.browse import RunFilter, listed_ids, run_span, runs_by_id
from inspector.store.find_text import MAX_SEARCH_CHARS
from inspector.store.named_servers import server_names
from inspector.store.outbox import Outbox, OutboxEntry
from inspector.store.plumbing_traces import without_plumbing_traces
from inspector.store.recovery import page_reasons, run_reason
from inspector.store.replays import replays_by_step
from inspector.traces.chat_words import conversation_lines

from .cancelled_elsewhere import cancelled_elsewhere_line
from .common import EXIT_OK, BadInputError, UsageError, database_path, open_existing_store
from .durations import readable_duration
from .ending import emit_json, json_text, mark_json_emitted
from .list_fit import fit_list, fit_servers, leaves_room
from .notes import write_note
from .plumbing_hidden import say_hidden
from .reason_json import reason_dict
from .results import step_extra_lines
from .run_choice import resolve_run
from .run_layout import RunLayout, counts_line, hidden_notes_line, noted_outcome_cell, too_deep_line
from .safe_text import one_line
from .stopping import stoppable_reading
from .terminal_width import display_width, fit, pad, terminal_columns
from .words import (
    leg_outcome_word,
    leg_said,
    outcome_width,
    outcome_word,
    status_cell,
    step_outcome_text,
    step_outcome_width,
    step_time,
    step_time_width_between,
    when,
    when_width,
    zone_line,
)


def _run_server(run: RunRecord) -> str:
    """The run's server for `runs show`: its address; a demo server started for the run alone by its name, the
    address beside it (a random port that died with the run read as a server that is down)."""
    name = own_demo_server(run.origin)
    if name is None or not run.server:
        return run.server or (unnamed_server() if run.source == "imported" else "-")
    return _("{name} (bundled, started for this run alone at {address})").format(name=name, address=run.server)


def run(args: argparse.Namespace) -> int:
    if args.command == "runs" and args.runs_command is None:
        raise UsageError(Message(N_("runs needs a sub-command: `runs list` (the most recent runs), "
                                    "`runs show RUN` (a run and its timeline) or `runs note RUN \"TEXT\"` (a note "
                                    "on a run or a step).")))
    if args.command == "runs" and args.runs_command == "show" and args.run_id is None:
        raise UsageError(Message(N_("runs show needs the run to show: runs show RUN, e.g. runs show last (a run is "
                                    "named by its id, last, last~N or the beginning of its uid; `runs list` lists "
                                    "them).")))
    if args.command == "runs" and args.runs_command == "list" and args.limit < 1:
        raise UsageError(Message(N_("--limit must be at least 1")))
    if args.command == "runs" and args.runs_command == "list" and len((args.search or "").strip()) > MAX_SEARCH_CHARS:
        length = len(args.search.strip())
        raise UsageError(Message(N_("--search looks for a text of at most {most} characters; this one has {length}"),
                                 {"most": Number(MAX_SEARCH_CHARS, f"{MAX_SEARCH_CHARS:,}"),
                                  "length": Number(length, f"{length:,}")}))
    store = open_existing_store(args.db)
    if store is None:
        return _nothing_stored(args)
    with store:
        if args.runs_command == "note":
            return write_note(store, args)
        return _read(store, args)


def _read(store: RunStore, args: argparse.Namespace) -> int:
    """``runs list`` or ``runs show``, a SIGTERM while they read and print ending them as a Ctrl-C does
    (:func:`.stopping.stoppable_reading`)."""
    with stoppable_reading():
        if args.runs_command == "list":
            return _list(store, args)
        return _show(store, resolve_run(store, args.run_id).id, args.json, args.plumbing)


def _nothing_stored(args: argparse.Namespace) -> int:
    """The database does not exist: nothing to list, nothing to show, and nothing is created."""
    path = database_path(args.db)
    if args.command == "runs" and args.runs_command in ("show", "note"):
        raise BadInputError(Message(N_("There is no run {id}: the run database {path} does not exist yet."),
                                    {"id": args.run_id, "path": path}))
    if args.json:
        emit_json({"runs": [], "plumbing_traces_hidden": 0} if args.command == "runs" else {"runs": []})
    else:
        print(_("No runs stored yet (the run database {path} does not exist yet).").format(path=path))
    return EXIT_OK


def _time(moment: datetime | None) -> str | None:
    """A stored time as ``--json`` writes it: UTC, ``Z``, always with its microseconds (so that the
    strings sort as the times do: "…:20Z" would sort after "…:20.5Z")."""
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z") if moment else None


def run_dict(run: RunRecord) -> dict[str, Any]:
    summary = {"id": run.id, "uid": run.uid, "title": run.title, "source": run.source, "server": run.server,
               "status": run.status, "started_at": _time(run.started_at), "finished_at": _time(run.finished_at),
               "note": run.note}
    if run.step_count is not None:
        summary["steps"] = run.step_count
    return summary


def push_dict(entry: OutboxEntry | None) -> dict[str, Any] | None:
    """Where the run stands in the outbox of a collector (null: never queued to be pushed)."""
    if entry is None:
        return None
    return {"state": entry.state, "endpoint": entry.endpoint, "attempts": entry.attempts, "reason": entry.reason,
            "next_attempt_at": _time(entry.next_attempt_at) if entry.state == "queued" else None,
            "sent_at": _time(entry.sent_at)}


def _nothing_matches(args: argparse.Namespace) -> str:
    """Why the list is empty: a filter that matched nothing is not an empty database."""
    if args.search:
        return _("No stored run holds {text} (in its title, server, file, notes or steps) under the filters "
                 "given. `runs list` without --search shows every run.").format(text=one_line(args.search))
    if args.outcome and args.server:
        return _("No stored run has the status {status} on the server {server}. `runs list` without filters "
                 "shows every run.").format(status=outcome_word(args.outcome), server=one_line(args.server))
    if args.outcome:
        return _("No stored run has the status {status}. `runs list` without --outcome shows every run.").format(
            status=outcome_word(args.outcome))
    if args.server:
        return _("No stored run was made on the server {server}. `runs list` without --server shows every "
                 "run.").format(server=one_line(args.server))
    return _("No runs stored yet.")


def _server_url(store: RunStore, given: str) -> str:
    """``--server``: a URL or a command server's key (``stdio:...``) as given, or the key of the
    configured server with that name."""
    if "://" in given:
        stored = _stored_address(given)
        # An address with a password and a segment that begins with "@" (http://bob:pw@host/@user): a run made here
        # went to host; an imported one keeps the host after that "@", which the one before may be a piece of the
        # password (address_to_keep).
        kept = _imported_address(given)
        return kept if kept != stored and _names_runs(store, kept) and not _names_runs(store, stored) else stored
    if given.startswith(STDIO_KEY_PREFIX):  # its credentials as `runs list` shows them (``--token …``)
        if _names_runs(store, given):
            return given  # a run stored before command servers were named so
        return _command_key(given.removeprefix(STDIO_KEY_PREFIX)) or given
    # By the name stored (a server of the user's wins, as `call` picks it), or a name the window's demo entry is
    # shown by in any language.
    records = ServerRegistry(store.db).all()
    names = [(record, names_calling(record.name, record.url)) for record in records]
    named = [record for record in records if record.name == given]
    if not named:
        named = [record for record, said in names if given in said]
    if not named:
        named = [record for record, said in names if given.casefold() in {name.casefold() for name in said}]
    if len(named) == 1:
        return named[0].url
    if named:
        raise BadInputError(Message(N_("Several configured servers are named {name}: give the URL of the one "
                                       "you mean (`servers` lists them)."), {"name": one_line(given)}))
    if _names_runs(store, given):
        return given  # the server a run imported from a trace names (its service), as the window's filter lists it
    # The command line given to `call --stdio` as it was typed: its runs name it as a command server's key.
    key = _command_key(given)
    if key is not None and (_names_runs(store, key) or any(record.url == key for record in records)):
        return key
    from inspector.mcp.address_query import typed_to_quote

    raise BadInputError(Message(N_("No configured server is named {name}, and no stored run names it as its "
                                   "server: give a server's URL or a name that `servers` lists."),
                                {"name": one_line(typed_to_quote(given if key is None else key.removeprefix(
                                    STDIO_KEY_PREFIX)))}))  # no password or query (an address), no --token T


def _imported_address(given: str) -> str:
    """``given`` as an imported run keeps its server (:func:`inspector.mcp.address_query.address_to_keep`)."""
    from inspector.mcp.address_query import address_to_keep

    return address_to_keep(given)


def _names_runs(store: RunStore, server: str) -> bool:
    """True when a stored run names ``server`` as its server."""
    return store.db.conn.execute("SELECT 1 FROM runs WHERE server = ? LIMIT 1", (server,)).fetchone() is not None


def _stored_address(given: str) -> str:
    """The address ``given`` as runs name their server: without a password or a query (a key in either), as the
    address was typed to ``call``; as it is when it has neither (a trace's server is named as it said)."""
    from urllib.parse import urlsplit

    from inspector.mcp import public_url
    from inspector.mcp.address_query import address_to_keep
    from inspector.mcp.user_info import second_server

    if second_server(given) is not None:  # `call` refuses it; an imported run keeps the host after the password
        return address_to_keep(given)
    try:
        parts = urlsplit(given)
        return public_url(given) if parts.query or parts.fragment or "@" in parts.netloc else given
    except ValueError:  # no address (an unclosed "[", a port out of range): matches nothing, said without them
        from inspector.mcp.address_query import address_to_quote

        return address_to_quote(given)


def _command_key(given: str) -> str | None:
    """The key of a command server started with the command line ``given`` (``stdio:`` and its words,
    quoted as a shell would need them, its credentials as ``…``); ``None`` for what a shell could not split."""
    shown = shown_typed_command_line(given)
    return STDIO_KEY_PREFIX + shown if shown is not None else None


def _list(store: RunStore, args: argparse.Namespace) -> int:
    given = args.server
    if args.server:
        args.server = _server_url(store, args.server)
    # A configured server's name at a loopback address names this machine's server: an imported run at that
    # address ran on the machine that recorded it (the window's Runs list and its filter say so too). The
    # address itself, as given, lists every run that names it.
    made_here = bool(given and "://" not in given and names_this_machine(args.server))
    total: int | None = None
    # The traces of a session's plumbing alone are left out unless --all asks for them (counted, and said).
    plumbing = None if args.all else False
    hidden = 0
    if args.search:  # the window's search: every listed id at once (ints), the records of the page shown
        ids = listed_ids(store, RunFilter(statuses=(args.outcome,) if args.outcome else (), server=args.server,
                                          server_imported=False if made_here else None, text=args.search))
        if not args.all:
            ids, hidden = without_plumbing_traces(store.db.conn, ids)
        total, found = len(ids), runs_by_id(store, ids[:args.limit])
        # Without their step counts, as the list without --search gives them (its --json has no "steps").
        runs = [replace(found[run_id], step_count=None) for run_id in ids[:args.limit] if run_id in found]
    else:
        runs = store.list_runs(outcome=args.outcome, server=args.server, limit=args.limit, made_here=made_here,
                               plumbing_traces=plumbing)
        if not args.all:  # the runs it lists and those it leaves out, in one count
            total, hidden = store.count_listed_and_plumbing(outcome=args.outcome, server=args.server,
                                                            made_here=made_here)
    if args.json:
        pushes = Outbox(store.db.conn).of_runs([run.id for run in runs])
        reasons = page_reasons(store, runs)  # why, as the Status column says it: asked for the page at once
        emit_json({"runs": [{**run_dict(run), "push": push_dict(pushes.get(run.id)),
                             "reason": reason_dict(reasons.get(run.id))} for run in runs],
                   "plumbing_traces_hidden": hidden})
        return EXIT_OK
    if not runs:
        if hidden:  # runs there are, all of them plumbing: that is said, not "no runs stored"
            say_hidden(hidden)
        else:
            print(_nothing_matches(args))
        _say_cancelled_elsewhere(store, args)
        return EXIT_OK
    # A time marked with its zone (in the hour a clock is set back, or one said in UTC) is wider.
    started = [when(run.started_at) for run in runs]
    # A failed run says why where that is known, as `runs show` and the window's list do: asked for the page
    # at once, never per run.
    reasons = page_reasons(store, runs)
    statuses = [status_with_recovery(outcome_word(run.status), reasons[run.id].said() if run.id in reasons else None)
                for run in runs]
    at, status = max(when_width(), *map(len, started)), max(outcome_width(), *map(len, statuses))
    heading = tuple(run_heading(column) for column in ("id", "started", "status", "source", "server", "steps",
                                                       "duration", "title"))
    source = max(len(heading[3]), *(len(source_word(run.source)) for run in runs))
    titles = [said_title(run.title, run.source) for run in runs]
    # The Server, Steps and Duration cells in the window's Runs list's words (the step counts read for the page).
    names, counted = server_names(store), runs_by_id(store, [run.id for run in runs])
    servers = [one_line(run_server(run, names)) for run in runs]
    steps = [run_steps(counted.get(run.id, run)) for run in runs]
    durations = [format_duration(run_duration(run)) for run in runs]
    step_width = max(display_width(heading[5]), *map(display_width, steps))
    duration_width = max(display_width(heading[6]), *map(display_width, durations))
    others, least_status = 6 + at + source + 4 * 2, max(outcome_width(), len(heading[2]))
    columns = terminal_columns()
    if columns is not None:  # at a terminal the rows fit its width where they can; a pipe gets the same bytes
        titles = [one_line(title) for title in titles]
        servers = fit_servers(columns, others + step_width + duration_width + 3 * 2, status, titles, servers)
    server = max(display_width(heading[4]), *map(display_width, servers))
    figures_heading = f"{pad(heading[4], server)}  {heading[5]:>{step_width}}  {heading[6]:>{duration_width}}  "
    figures = [f"{pad(server_text, server)}  {step_text:>{step_width}}  {duration_text:>{duration_width}}  "
               for server_text, step_text, duration_text in zip(servers, steps, durations, strict=True)]
    if columns is not None:
        if not leaves_room(columns, others + display_width(figures_heading), status, least_status, titles):
            figures_heading, figures = "", [""] * len(runs)  # a narrow terminal: the columns as ever
        fitted = fit_list(columns, others + display_width(figures_heading), statuses, status, least_status, titles,
                          [_short(run, reasons) for run in runs])
        statuses, status, titles = fitted.statuses, fitted.status_width, fitted.titles
    print(f"{heading[0]:>6}  {heading[1]:<{at}}  {heading[2]:<{status}}  {heading[3]:<{source}}  "
          f"{figures_heading}{heading[7]}")
    for run, at_text, status_text, title, figure in zip(runs, started, statuses, titles, figures, strict=True):
        print(one_line(f"{run.id:>6}  {at_text:<{at}}  {status_text:<{status}}  {source_word(run.source):<{source}}  "
                       f"{figure}{title}"))
    if len(runs) == args.limit:  # the limit may have cut the list: say how much of it shows
        if total is None:
            total = store.count_runs(outcome=args.outcome, server=args.server, made_here=made_here,
                                     plumbing_traces=plumbing)
        if total > len(runs):
            print(_limited_line(len(runs), total))
    if hidden:
        say_hidden(hidden)
    _say_cancelled_elsewhere(store, args)
    return EXIT_OK


def _short(run: RunRecord, reasons: dict[int, Any]) -> tuple[str, str] | None:
    """A failed run's kind of failure and its words with the status word, where every failed call ended one known
    way: what a narrow Status column says, as the window's does (:func:`inspector.i18n.run_cells.short_reason`)."""
    reason = reasons[run.id].said() if run.id in reasons else None
    short, alone = short_reason(run.status, reason), short_status(run.status, reason)
    return (short, alone) if short is not None and alone is not None else None


def _say_cancelled_elsewhere(store: RunStore, args: argparse.Namespace) -> None:
    """Under a list of the cancelled runs (no other filter): the runs of another status with a cancelled call."""
    if args.outcome == "cancelled" and not (args.server or args.search) and (
            line := cancelled_elsewhere_line(store)):
        print(line)


def _limited_line(shown: int, total: int) -> str:
    """Under a list its ``--limit`` cut: how many runs it lists of how many match."""
    return ngettext("The newest {shown} of {count} run are listed; --limit N lists more.",
                    "The newest {shown} of {count} runs are listed; --limit N lists more.", total).format(
        shown=format_number(shown), count=format_number(total))


def entry_dict(run: RunRecord, stored: StoredStep, has_rounds: bool = True) -> dict[str, Any]:
    """One timeline entry. ``round`` is ``None`` in a run without rounds (a single operation)."""
    payload = stored.payload
    return {"time": _time(stored.started_at), "sequence": stored.sequence, "source": run.source,
            "kind": str(stored.step.kind), "round": stored.step.round if has_rounds else None,
            "duration_ms": stored.step.duration_ms, "outcome": stored.outcome, "details": step_details(payload),
            # How the server was reached (null in steps stored before steps said so).
            "transport": stored.step.transport, "era": stored.step.era, "command": stored.step.server_command,
            "stderr": list(stored.step.stderr) if stored.step.stderr is not None else None,
            "note": stored.step.note, "payload": _with_leg_findings(payload)}


def _with_leg_findings(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload with each of its legs' ``finding`` (as ``call --json`` gives it; not stored)."""
    legs = payload.get("legs")
    if not isinstance(legs, list) or not legs or not all(isinstance(leg, dict) for leg in legs):
        return payload
    return {**payload, "legs": with_findings(legs, "httpStatus")}


def _show(store: RunStore, run_id: int, as_json: bool, show_plumbing: bool = False) -> int:
    try:
        run = store.get_run(run_id)
    except UnknownRunError as exc:
        raise BadInputError(Message(N_("{reason} `runs list` shows the runs that are stored."),
                                    {"reason": _sentence(exc)})) from None
    has_rounds = store.has_rounds(run_id)
    out = sys.stdout
    if as_json:
        # Written step by step: a run of 100,000 steps is never held in memory whole.
        mark_json_emitted()
        out.write('{"run": ' + json_text(run_dict(run)) + ', "timeline": [')
        replays = replays_by_step(store, run.uid)
        for index, stored in enumerate(store.iter_steps(run_id)):
            entry = entry_dict(run, stored, has_rounds)
            if stored.sequence in replays:
                entry["replays"] = [{"run": replay, "status": status} for replay, status in replays[stored.sequence]]
            out.write(("," if index else "") + json_text(entry))
        # Why the run has its status, as `runs list --json` gives it: after the timeline, since counting a long
        # run's calls (0.9 s for 100,000) would hold back its first step.
        out.write("]")
        out.write(', "reason": ' + json_text(reason_dict(run_reason(store, run))) + "}\n")
        return EXIT_OK
    out.write(one_line(_("Run {id}: {title}").format(id=run.id, title=said_title(run.title, run.source))) + "\n")
    out.write(one_line(_("  status {status}, source {source}, server {server}").format(
        status=status_with_recovery(outcome_word(run.status), _recovery(store, run)), source=source_word(run.source),
        server=_run_server(run))) + "\n")
    # The uid is the run's across databases (an import numbers runs anew): support staff match runs by it.
    out.write(one_line(_("  uid {uid}").format(uid=run.uid)) + "\n")
    if run.source == "imported" and run.origin:
        out.write(one_line(_("  imported from {origin}").format(origin=run.origin)) + "\n")
    steps = run.step_count or 0
    # As the window lays the run out: a trace's spans nested, its plumbing hidden unless asked for.
    layout = RunLayout(store, run, show_plumbing)
    out.write(counts_line(layout, when(run.started_at), when(run.finished_at), steps) + "\n")
    zone = zone_line(run.started_at, run.finished_at)
    if zone:
        out.write(zone + "\n")
    if run.note:
        out.write(one_line(_("  note: {note}").format(note=run.note)) + "\n")
    out.write("\n")
    # A run over more than one day (its steps as the window's time axis spans them) says each step's date too.
    first, last = run_span(store, run)
    dated = not one_day(first, last)
    at = step_time_width_between(first, last, dated)
    outcome = step_outcome_width(_has_failed_legs(store, run_id))
    heading = (_("Time"), _("Source"), _("Kind"), _("Round"), _("Duration"), _("Outcome"), _("Details"))
    # The window's words: who made the step (the MCP client or the agent) and its kind, translated.
    source = max(len(heading[1]), *(len(step_maker_word(kind.value)) for kind in StepKind))
    if run.source == "imported":
        source = max(source, SERVICE_CHARS)  # a step from a trace names its service (streamed: not measured)
    kind_width = max(len(heading[2]), *(len(kind_word(kind.value)) for kind in StepKind))
    # The step's number first: what `replay RUN:STEP` and the window's step detail call it. Its column is
    # as wide as the largest number: a run read from a trace may number its steps past their count.
    number = max(1, len(str(steps)), len(str(store.next_sequence(run_id) - 1)))
    out.write(f"{'#':>{number}}  {heading[0]:<{at}}  {heading[1]:<{source}}  {heading[2]:<{kind_width}}  "
              f"{heading[3]:>5}  {heading[4]:>13}  {heading[5]:<{outcome}}  {heading[6]}\n")
    replays = replays_by_step(store, run.uid)
    columns = terminal_columns()
    for stored, depth in layout:
        round_ = str(stored.step.round) if has_rounds else "-"
        kind = str(stored.step.kind)
        payload = stored.payload  # built from the step each time it is asked for: once a step here
        # A service named in wide characters takes two columns a character: padded and cut by columns.
        maker = pad(fit(one_line(step_source_word(kind, _service(payload))), source), source)
        line = (f"{stored.sequence:>{number}}  {step_time(stored.started_at, dated):<{at}}  {maker}  "
                f"{kind_word(kind):<{kind_width}}  "
                f"{round_:>5}  {_step_duration(stored, payload):>13}  "
                f"{step_outcome_text(kind, stored.outcome, stored.step.legs, payload) or '-':<{outcome}}  ")
        # At a terminal the Details take the rest of its width (never less than elsewhere): a pipe gets the same bytes.
        room = None if columns is None else columns - display_width(one_line(line))
        details, outcome_note = noted_outcome_cell(payload, depth, room)
        out.write(one_line(line + details) + "\n")
        if outcome_note:  # too long for the Details (which say its head): said whole, as the window does
            out.write(one_line("    " + outcome_note) + "\n")
        legs = stored.step.legs
        seen = legs_seen(legs)
        for index, leg in enumerate(legs):
            following = legs[index + 1] if index + 1 < len(legs) else None
            out.write(one_line(_leg_line(leg, stored.step.transport, following, seen[index + 1:])) + "\n")
        if legs:  # their "granted -" said as the window's budget bar says it
            out.write(no_deadline_line(legs, run.source, stored.step.budget_s))
        if stored.step.note:
            out.write(one_line("    " + _("note: {note}").format(note=stored.step.note)) + "\n")
        disagreement = disagreement_said(payload)
        if disagreement:  # a call read from a trace whose client and server sides differ: as the window says it
            out.write(one_line("    " + _("The two sides disagree: {sentence}").format(sentence=disagreement)) + "\n")
        for extra in replay_lines(store, stored, replays.get(stored.sequence, ())):
            out.write(one_line(f"    {extra}") + "\n")
        for extra in step_extra_lines(payload):
            out.write(one_line(f"    {extra}") + "\n")
        for extra in conversation_lines(payload):  # a model call read from a trace: as the window says it
            out.write(one_line(f"    {extra}") + "\n")
        for extra in _wire_lines(payload):
            out.write(extra + "\n")
    if layout.too_deep:
        out.write("\n" + too_deep_line(layout) + "\n")
    if layout.hidden_notes:
        out.write("\n" + hidden_notes_line(layout) + "\n")
    return EXIT_OK


def _has_failed_legs(store: RunStore, run_id: int) -> bool:
    """Whether a failed step of the run has legs, or the importer's mark that it timed out (either may
    tell it timed out: a wider Outcome column)."""
    return store.db.conn.execute("SELECT 1 FROM steps WHERE run_id = ? AND outcome = 'failed' AND (EXISTS "
                                 "(SELECT 1 FROM legs WHERE legs.step_id = steps.id) OR CASE WHEN json_valid(payload) "
                                 f"THEN json_extract(payload, '$.raw.otlp.{TIMED_OUT_MARK}') END = 1) LIMIT 1",
                                 (run_id,)).fetchone() is not None


def _recovery(store: RunStore, run: RunRecord) -> tuple[int, int, bool] | None:
    """Why a failed run is failed, where known: its failed calls, all its calls and whether the model
    still answered (the window's heading says it too)."""
    found = run_reason(store, run)
    return found.said() if found else None


def _step_duration(stored: StoredStep, payload: dict[str, Any]) -> str:
    """A step's duration as the window's column says it: "unfinished" for a span that never ended
    (its stored 0 ms is no length), else the duration (``payload``: the step's, built once)."""
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, dict) else None
    if isinstance(otlp, dict) and otlp.get("unfinished") is True:
        return _("unfinished")
    return readable_duration(stored.step.duration_ms)


def replay_lines(store: RunStore, stored: StoredStep, replays: Sequence[tuple[int, str]]) -> list[str]:
    """The step's place among replays: the step it replays, and the runs that replayed it."""
    lines = []
    link = ReplayLink.from_payload(stored.step.replay_of)
    if link is not None:
        original = store.find_run_by_uid(link.run_uid)
        lines.append(replay_of_text(original.id if original else None, link.sequence))
    if replays:
        lines.append(replayed_as_text(replays))
    return lines


def _service(payload: dict[str, Any]) -> str:
    """The service of a step from a trace (``raw.otlp.service``), "" for one of ours."""
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, dict) else None
    service = otlp.get("service") if isinstance(otlp, dict) else None
    return service if isinstance(service, str) else ""


def _wire_lines(payload: dict[str, Any]) -> list[str]:
    """How the step's server was reached, its command, and what it wrote on stderr (each line
    of the server's one line of ours, indented under its heading)."""
    lines = [one_line(f"    {line}") for line in (transport_line(payload), command_line(payload)) if line]
    written = stderr_lines(payload)
    if written:
        lines.append(one_line(f"    {written[0]}"))
        lines.extend(one_line(f"      {line}") for line in written[1:])
    lines.extend(one_line(f"    {line}") for line in line_problem_lines(payload))
    return lines


def _leg_line(leg: Any, transport: str | None, following: Any = None, later: Sequence[LegSeen] = ()) -> str:
    """A leg of a step as `call` prints it: method, grant, time taken, HTTP status (over HTTP), outcome
    (``following``: the leg after it, which tells an unanswered probe's finding and the refused POST
    that found the older transport; ``later``: all the legs after it, which tell a probe refused where
    no server answered)."""
    granted = "-" if leg.granted_s is None else _("{seconds} s").format(seconds=leg.granted_s)
    elapsed = readable_duration(leg.elapsed_ms)
    return _("    {method:<27} granted {granted:>5}  took {elapsed:>10}  {status:<8}  {outcome}").format(
        method=leg_said(leg.method), granted=granted, elapsed=elapsed, status=status_cell(leg.http_status, transport),
        outcome=leg_outcome_word(str(leg.outcome), leg.method, leg.http_status, leg.exchange,
                                 getattr(following, "method", None), getattr(following, "outcome", None), later))


def no_deadline_line(legs: Sequence[Any], run_source: str, budget_s: float | None = None) -> str:
    """Why a step's legs were granted no time, as the window's budget bar says it ("no deadline: the
    agent's own call, passed through" for the recording proxy's); "" when one was granted time."""
    from inspector.gui.widgets.budget_bar_words import no_deadline_words  # pure words, no Qt
    from inspector.gui.widgets.budget_state import why_no_deadline

    why = why_no_deadline(legs, run_source, budget_s)
    return "" if why is None else one_line("    " + _("No deadline: {why}.").format(why=no_deadline_words(why))) + "\n"


def _sentence(error: Exception) -> object:
    """The sentence an error carries (translatable if it has one), else its English text."""
    return getattr(error, "sentence", None) or str(error)
