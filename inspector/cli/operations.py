"""``call``, ``tools`` and ``ping``: one MCP operation, printed, and stored as a run."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import signal
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector.agent import OperationRecord, execute_tool, list_tools_step, ping_step
from inspector.agent.operations import look_up_task_step
from inspector.agent.tracing import step_trace, traced
from inspector.i18n import N_, _
from inspector.i18n.entry_names import shown_label
from inspector.i18n.leg_findings import with_findings
from inspector.i18n.messages import Message, shown_reason, translate
from inspector.i18n.refused_probe import legs_seen
from inspector.i18n.wire import server_answered
from inspector.mcp import (
    MAXIMUM_BUDGET_SECONDS,
    MINIMUM_LEG_SECONDS,
    BudgetReading,
    BudgetVerdict,
    CancelSignal,
    FanOut,
    McpClient,
    OperationRecorder,
    ServerEndpoint,
    ServerRequestHandler,
    public_url,
    read_budget,
)
from inspector.mcp.json_words import decoder_reason
from inspector.mcp.messages import Number
from inspector.mcp.roots import roots_from_uris
from inspector.mcp.wire import DEFAULT_WIRE
from inspector.runs._frozen import thaw
from inspector.runs.replaying import same_structure
from inspector.store.errors import StoreError
from inspector.store.signin_settings import StoredSignIn, overridden
from inspector.traces.redact import redact_text

from .args_hint import name_value_hint
from .budget_hint import budget_hint
from .common import (
    EXIT_CANCELLED,
    EXIT_FAILED,
    EXIT_OK,
    UsageError,
    database_path,
    open_store,
    safe,
)
from .demo_entry import check_demo_entry
from .durations import readable_duration
from .ending import emit_json
from .keyring_refusals import NotingKeeper
from .outcome_said import error_line, report_outcome
from .parser import OFFERING_COMMANDS, OFFERING_METHODS, OPERATIONS
from .progress import live_progress_line
from .results import (
    answer_block_lines,
    bounded_content,
    catalogue_heading,
    elicitation_lines,
    excluded_entry,
    excluded_lines,
    notification_lines,
    progress_lines,
    server_request_lines,
    structured_lines,
    tool_entry,
    tool_lines,
)
from .safe_text import one_line
from .server_choice import Chosen, check_server_words, choose_server
from .server_groups import ServerGroups
from .server_requests import SamplingLimitNotice, handler_from_options, unoffered_line
from .server_stderr import ServerStderr
from .signin import settings_from_args, signin_vault, with_signin
from .task_words import task_line
from .typed_secrets import typed_start
from .words import leg_outcome_word, leg_said, seconds, status_cell, whole

if TYPE_CHECKING:
    from inspector.store import RunStore

    from .recording import RecordFate, RunRecording

# The store's writing half (sqlite-utils, the run records) is imported where a run is stored, not
# here: `call --no-store` against a server given by its address never loads it.


def run(args: argparse.Namespace) -> int:
    check_server_words(args)  # before anything is opened: the words alone say what is missing
    headers = parse_headers(args.header)
    reading = parse_budget_option(args.budget)
    arguments = parse_arguments(args.args) if args.command == "call" else None
    if args.command == "call":
        _refuse_non_text(args.tool, "TOOL")
    handler = handler_from_options(args)
    # A database another program keeps locked is not waited out for long: nothing has been sent yet.
    store = None if args.no_store else open_store(args.db, OPEN_LOCK_WAIT_S)
    try:
        # A configured server applies whether or not this run is stored.
        chosen = _chosen(store, args, reading.seconds if reading else None, headers)
        check_demo_entry(chosen.server)  # the window's demo entry while no window runs it: said, not called
        given = settings_from_args(args)
        if not chosen.server.is_command:
            settings = overridden(chosen.server.signin, given, grant_given=getattr(args, "grant", None) is not None)
            chosen = dataclasses.replace(chosen, server=dataclasses.replace(chosen.server, signin=settings))
        if handler.roots is None and chosen.roots:
            # The roots configured for the server, unless --root gives others.
            handler.roots = roots_from_uris(chosen.roots)
        early = EarlyInterrupt()
        with early.held():
            try:
                if (args.command, getattr(args, "offering", None)) == ("resources", "subscribe"):
                    from .subscribe import watch  # updates until stopped, on a listening session

                    return asyncio.run(watch(args, chosen.server, chosen.budget_s, store, handler, early))
                return asyncio.run(_operate(args, chosen.server, chosen.budget_s, arguments, store, reading, early,
                                            handler))
            finally:
                if store is not None:  # closed while held: a Ctrl-C now changes nothing (the end is decided)
                    store.close()
                    store = None
    finally:
        if store is not None:  # the command ended before its operation began
            store.close()


def _chosen(store: RunStore | None, args: argparse.Namespace, budget: float | None,
            headers: dict[str, str]) -> Chosen:
    """The server, with its saved settings, whether or not this run is stored.

    With ``--no-store`` the database is only read (never created, upgraded or written).
    """
    if store is not None:
        from inspector.store import ServerRegistry

        return _with_stored_signin(choose_server(ServerRegistry(store.db, NotingKeeper()), args, budget,
                                                 headers), store.db)
    path = database_path(args.db)
    if not path.exists():
        return choose_server(None, args, budget, headers)
    from inspector.store import ServerRegistry, open_database_read_only

    try:
        db = open_database_read_only(path)
    except StoreError as exc:
        print(_("run-inspector: the saved settings of this server could not be read: {reason}").format(
            reason=translate(exc)), file=sys.stderr)
        return choose_server(None, args, budget, headers)
    try:
        return _with_stored_signin(choose_server(ServerRegistry(db, NotingKeeper()), args, budget, headers),
                                   db)
    except sqlite3.DatabaseError as exc:  # e.g. not a run database at all
        print(_("run-inspector: the saved settings of this server could not be read from {path}: {reason}.").format(
            path=path, reason=shown_reason(exc)), file=sys.stderr)
        return choose_server(None, args, budget, headers)
    finally:
        db.conn.close()


def parse_headers(raw: list[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for item in raw:
        name, sep, value = item.partition(":")
        name = name.strip()
        if not sep or not name:
            # Nothing of it is echoed: "Bearer abc" given without a name is all credential.
            raise UsageError(Message(N_("--header needs the form 'Name: value', e.g. 'Authorization: Bearer ...' "
                                        "(what was given is not repeated here, as it may be a credential)")))
        headers[name] = value.strip()  # ServerEndpoint checks what HTTP allows
    return headers


#: How long opening the database waits for another program's lock before the call is refused.
OPEN_LOCK_WAIT_S = 0.5

MAX_BUDGET_S = MAXIMUM_BUDGET_SECONDS
"""The largest --budget accepted, in seconds (the window's dialogs refuse the same)."""


def parse_budget_option(raw: str | None, option: str = "--budget") -> BudgetReading | None:
    """The budget the command line gives, read by the deadline's own rules; unusable values are refused.

    A budget below the one-second floor is raised to it, and the user is told so once.
    """
    if raw is None:
        return None
    reading = read_budget(raw)
    if not reading.usable or reading.requested is None:
        raise UsageError(Message(N_("{option} must be a positive number of seconds, e.g. 20 (got {raw})"),
                                 {"option": option, "raw": repr(typed_start(raw, 40))}))
    if reading.requested > MAX_BUDGET_S:  # range-checked: a bigger one is a typo, and overflows the timers
        raise UsageError(Message(N_("{option} must be at most {most} seconds (a week), got {raw}"),
                                 {"option": option, "most": Number(MAX_BUDGET_S, f"{MAX_BUDGET_S:,}"),
                                  "raw": repr(typed_start(raw, 40))}))
    if reading.verdict is BudgetVerdict.RAISED:
        print(_("run-inspector: a budget of {requested} s is below the {minimum}-second minimum of a request; it was "
                "raised to {seconds} s.").format(requested=seconds(reading.requested),
                                                 minimum=seconds(MINIMUM_LEG_SECONDS),
                                                 seconds=seconds(reading.seconds)), file=sys.stderr)
    return reading


#: Why ``NaN`` or ``Infinity`` in --args is refused (JSON has no such numbers).
NOT_A_NUMBER = N_("{constant} is not a JSON number")


def parse_arguments(raw: str) -> dict[str, Any]:
    def refuse(constant: str) -> None:
        raise ValueError(Message(NOT_A_NUMBER, {"constant": constant}))

    from inspector.traces.format import MAX_VALUE_DEPTH, TraceProblem, check_nesting

    too_deep = Message(N_("--args is nested deeper than {depth} levels (the limit for what is stored and "
                          "exported); nothing was sent"), {"depth": MAX_VALUE_DEPTH})
    try:
        value = json.loads(raw, parse_constant=refuse)
    except RecursionError:
        raise UsageError(too_deep) from None
    except json.JSONDecodeError as exc:
        hint = name_value_hint(raw)  # "call --arg text=hi": argparse reads --arg as --args
        if hint is not None:
            raise UsageError(hint) from None
        raise UsageError(Message(N_("--args is not valid JSON at line {line}, column {column}: {reason}"),
                                 {"line": exc.lineno, "column": exc.colno,
                                  "reason": decoder_reason(exc.msg)})) from None
    except ValueError as exc:  # NaN or Infinity: our sentence, said in the reader's language
        reason = exc.args[0] if exc.args and isinstance(exc.args[0], Message) else str(exc)
        raise UsageError(Message(N_("--args is not valid JSON: {reason}"), {"reason": reason})) from None
    try:  # what is sent is stored, and must read back: the importer's limits have room for it
        check_nesting(value, (), MAX_VALUE_DEPTH)
    except TraceProblem:
        raise UsageError(too_deep) from None
    if not isinstance(value, dict):
        raise UsageError(Message(N_("--args must be a JSON object, e.g. '{example}'"),
                                 {"example": '{"text": "hi"}'}))
    _refuse_non_text(value, "--args")
    return value


def _refuse_non_text(value: Any, what: str) -> None:
    """What the command line gives a call is sent and stored, so it must be text: an escaped lone
    surrogate (``"\\ud800"``, valid JSON) or bytes that are not UTF-8 (a word of the shell's, read
    as surrogates) could be sent but never stored."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(Message(N_("{what} holds something that is not text (an escaped lone surrogate such as "
                                    "{example}, or bytes that are not UTF-8); nothing was sent"),
                                 {"what": what, "example": "\\ud800"})) from None


def _with_stored_signin(chosen: Chosen, db: Any) -> Chosen:
    """The server with the sign-in settings kept for it (``servers set --client-id ...``)."""
    if chosen.server.is_command:
        return chosen
    try:
        stored = StoredSignIn(db, signin_vault()).settings_for(chosen.server.key)
    except StoreError as exc:  # a key file that cannot be read: said, and the sign-in goes on without it
        print(_("run-inspector: {sentence}").format(sentence=translate(exc)), file=sys.stderr)
        return chosen
    return chosen if stored is None else dataclasses.replace(chosen, server=dataclasses.replace(chosen.server,
                                                                                                signin=stored))


async def _operate(args: argparse.Namespace, server: ServerEndpoint, budget: float | None,
                   arguments: dict[str, Any] | None, store: RunStore | None, reading: BudgetReading | None,
                   early: EarlyInterrupt, handler: ServerRequestHandler | None = None) -> int:
    # The live progress line rides along with the recorder (only on a terminal).
    live = live_progress_line(sys.stderr)
    # The standalone stream is opened for this operation only: log messages, list changes, requests.
    # What `auto` finds a server to speak is kept in the store (with --no-store: for this command only).
    eras = None
    if store is not None:
        from inspector.store import StoredEras

        eras = StoredEras(store)
    client = McpClient(handler=handler, standalone_stream=True, log_level=getattr(args, "log_level", None),
                       server_output=ServerStderr(server, live), eras=eras,
                       signin_vault=None if server.is_command else signin_vault(),
                       wire=getattr(args, "wire", None) or DEFAULT_WIRE, wire_patterns=redact_text)
    cancel = CancelSignal()
    recorder = OperationRecorder()
    observer = FanOut(recorder, live, SamplingLimitNotice(sys.stderr, live))
    groups = _install_interrupt(cancel, client)
    try:
        return await _operate_and_report(args, client, server, budget, arguments, store, reading, early, cancel,
                                         recorder, observer)
    finally:
        # A command server's process ends with the command (also after a Ctrl-C or a fault of ours).
        # Housekeeping (cancel notice, session end) gets a short bound once the user has the answer;
        # after a Ctrl-C a shorter one, so that the command is gone within half a second.
        groups.closing = True
        await client.close(0.15 if cancel.fired else 1.0)
        early.after_end()


async def _operate_and_report(args: argparse.Namespace, client: McpClient, server: ServerEndpoint,
                              budget: float | None, arguments: dict[str, Any] | None, store: RunStore | None,
                              reading: BudgetReading | None, early: EarlyInterrupt, cancel: CancelSignal,
                              recorder: OperationRecorder, observer: FanOut) -> int:
    """The operation, stored and printed; its exit status."""
    if early.seen:  # a Ctrl-C while the operation was being set up: it is cancelled before it starts
        cancel.fire()
    offering = args.command in OFFERING_COMMANDS
    if offering:  # loaded only for these commands: a `call` never pays for them
        from . import offerings
    operation = offerings.operation_of(args) if offering else OPERATIONS[args.command]
    server_url = public_url(server.url)
    action = getattr(args, "offering", None)  # complete has none
    named = args.command == "call" or (offering and (args.command, action) in offerings.WITH_TARGET)
    title = f"{operation} {args.tool}" if named else f"{operation} {server_url}"
    recording = _start_run(store, database_path(args.db), title, server_url)
    link = getattr(args, "replay_of", None)  # `replay`: the step this call replays
    if recording is not None:
        recording.replay_of = link
    attempts = 0

    async def attempt() -> OperationRecord:
        nonlocal attempts
        recorder.__init__()  # type: ignore[misc]  # a fresh start after a sign-in: only its reports count
        attempts += 1  # each attempt after the first follows a sign-in's step: it is step number `attempts`
        with traced(step_trace(recording.uid, attempts) if recording is not None else None):
            return await _attempt()

    async def _attempt() -> OperationRecord:
        if args.command == "call":
            return await execute_tool(client, server, args.tool, arguments, budget_s=budget, cancel=cancel,
                                      observer=observer, as_task=True if args.task else None)
        if args.command == "task":
            return await look_up_task_step(client, server, args.tool, budget_s=budget, cancel=cancel,
                                           observer=observer, session_id=args.session)
        if offering:
            return await offerings.attempt(args, client, server, budget, cancel, observer)
        if args.command == "tools":
            return await list_tools_step(client, server, budget_s=budget, cancel=cancel, observer=observer)
        return await ping_step(client, server, budget_s=budget, cancel=cancel, observer=observer)

    record, signins = await with_signin(client, server, cancel, attempt)
    if link is not None:
        record = dataclasses.replace(record, step=link.marked(record.step))
    fate = _finish_run(recording, record, signins)
    report = build_report(operation, server, args, recorder, record, fate.run_id if fate else None)
    if link is not None:
        report["replay_of"] = {"run": args.replayed_run, "step": link.sequence}
        compared = _compared_with_original(store, args.replayed_run, link.sequence, record)
        if compared is not None:
            report["replay_of"]["compared"] = compared
    if signins:
        report["waited_for_signin"] = len(signins)
    if fate is not None and fate.problem is not None:
        report["record"] = fate.to_dict()
    if reading is not None and reading.verdict is BudgetVerdict.RAISED:
        report["budget_requested_s"] = reading.requested  # raised to the floor; stderr said so once
    _add_budget_left(report, recorder)
    _add_unlisted_tool(report, client, server)
    print_report(report, args.json, record.error, excluded=getattr(record.result, "excluded", None),
                 finished_legs=recorder.legs, server_said=shown_label(server))
    if "listed_tools" in report and not args.json and (unoffered := unoffered_line(client.handler)) is not None:
        print(one_line(unoffered))
    if fate is not None and fate.problem is not None:
        print(_("run-inspector: {sentence}").format(sentence=translate(fate.problem)), file=sys.stderr)
    if record.error is not None and record.error.is_cancellation:
        return EXIT_CANCELLED
    if fate is not None and fate.problem is not None:
        return EXIT_FAILED  # the call may have worked, but its record is not where it belongs
    return EXIT_OK if record.status == "ok" else EXIT_FAILED


def _start_run(store: RunStore | None, db_path: Path, title: str, server_url: str) -> RunRecording | None:
    if store is None:
        return None
    from .recording import RunRecording

    recording = RunRecording(store, db_path, title, server_url)
    try:
        recording.start()
    except (StoreError, sqlite3.Error) as exc:
        # (A database that can only be read is not given up on here: the recording keeps the record aside.)
        print(_("run-inspector: this operation will not be recorded: {reason}").format(reason=translate(exc)),
              file=sys.stderr)
        return None
    return recording


def _finish_run(recording: RunRecording | None, record: OperationRecord,
                before: list[OperationRecord] | None = None) -> RecordFate | None:
    """The run's record written (or, when that fails, put in a side file); ``None`` without a store.
    ``before``: the sign-ins the operation waited for, as steps before its own."""
    return None if recording is None else recording.finish(record, before or ())


#: What stops an operation from outside, each as Ctrl-C does: SIGINT, and SIGTERM (what `timeout`, a
#: CI runner cancelling a job or a service manager sends first). Either is a cancel, never a fault.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class EarlyInterrupt:
    """Holds a Ctrl-C (or SIGTERM) that comes while the operation is set up, before its event loop listens.

    Without it asyncio's own handler would cancel the task mid-way, and the run would be left
    ``running`` instead of being recorded as cancelled.
    """

    def __init__(self) -> None:
        import inspector.cli

        self.seen = inspector.cli.interrupted_while_loading  # a Ctrl-C Python dropped while loading

    def _note(self, signum: int, frame: object) -> None:
        if not self.seen:
            end_echoed_line()
        self.seen = True

    def after_end(self) -> None:
        """The operation is over (its answer printed, its run stored, its servers shut down; an agent's run:
        stored): the stop signals come back from the event loop to this holder until the command ends, and a
        late one changes nothing.
        The loop, closing, gave them back to Python's defaults: a Ctrl-C as the database closed was taken for
        one before the command had done its work (exit 130 after an ok answer), and SIGTERM killed it."""
        loop = asyncio.get_running_loop()
        try:
            for signum in STOP_SIGNALS:
                if loop.remove_signal_handler(signum):
                    signal.signal(signum, self._note)
        except (NotImplementedError, ValueError, RuntimeError):  # not the main thread, or no signals here
            pass

    @contextmanager
    def held(self, from_now: bool = True) -> Iterator[None]:
        """Within the block the stop signals come to this holder: at once, or (not ``from_now``) once
        :meth:`after_end` takes them from the event loop; at its end they go back to what they were."""
        try:
            previous = {signum: signal.signal(signum, self._note if from_now else signal.getsignal(signum))
                        for signum in STOP_SIGNALS}
        except ValueError:  # not the main thread: no signals here
            yield
            return
        try:
            yield
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)


def end_echoed_line() -> None:
    """A terminal echoes Ctrl-C as "^C" where its cursor is: move on a line, so that what is
    printed next (the report, or its messages) does not start glued to it."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream.isatty():
                stream.write("\n")
                stream.flush()
                return
        except (AttributeError, OSError, ValueError):  # a closed or replaced stream: try the next
            continue


def _install_interrupt(cancel: CancelSignal, client: McpClient) -> ServerGroups:
    """First Ctrl-C (or SIGTERM) cancels the operation (the result is still printed, the server's
    process shut down in order), or, once the result is printed, kills the server's process group
    instead of waiting for its shutdown; a second exits at once, killing the server's process group first."""
    loop = asyncio.get_running_loop()
    groups = ServerGroups(client)

    def on_interrupt() -> None:
        if cancel.fired:
            groups.kill()
            os._exit(EXIT_CANCELLED)
        groups.note()
        end_echoed_line()
        cancel.fire()
        if groups.closing:  # the answer is out, only the server's shutdown is waited for: cut it short
            groups.kill()

    try:
        for signum in STOP_SIGNALS:
            loop.add_signal_handler(signum, on_interrupt)
    except (NotImplementedError, RuntimeError):  # not the main thread, or no signals here
        pass
    return groups


def _compared_with_original(store: RunStore | None, run_id: int, sequence: int,
                            record: OperationRecord) -> dict[str, Any] | None:
    """The replayed step beside its replay: its outcome, whether the result is the same, both durations."""
    try:
        original = store.step_at(run_id, sequence) if store is not None else None
    except StoreError:
        original = None
    if original is None or original.damage:
        return None
    return {"outcome_before": original.outcome or "",
            "same_result": original.step.tool_result == record.step.tool_result
                           and same_structure(original.payload, record.step.to_payload(legs=False)),
            "duration_before_ms": original.step.duration_ms, "duration_ms": record.step.duration_ms}


def _add_budget_left(report: dict[str, Any], recorder: OperationRecorder) -> None:
    """Give each sent leg ``budget_left_s``: what remained of the budget when it was granted.

    A grant is whole seconds, so it may be larger than what remained; both numbers are shown.
    """
    if recorder.started is None:
        return
    started = iter(recorder.legs_started)
    for leg in report["legs"]:
        if leg["granted_s"] is None:
            continue
        began = next(started, None)
        if began is not None:
            leg["budget_left_s"] = round(recorder.started.budget_s - began.offset_s, 3)


def _add_unlisted_tool(report: dict[str, Any], client: McpClient, server: ServerEndpoint) -> None:
    """A failed call (a tool error, or the server's refusal) on a server whose catalogue, read as
    legs of the call, names no such tool: the report says which tools it does name."""
    if report["operation"] != "tools/call" or report["outcome"] != "failed":
        return
    listed = client.listed_names(server)
    if listed is not None and report["tool"] not in listed:
        report["listed_tools"] = sorted(listed)


#: How many of a server's tool names a call of an unlisted tool shows.
SHOWN_TOOL_NAMES = 10


def unlisted_tool_line(tool: str, listed: list[str]) -> str:
    """Which tools a server lists, said after a call of one it does not list."""
    if not listed:
        return _("The server lists no tools at all.")
    names = ", ".join(listed[:SHOWN_TOOL_NAMES])
    if len(listed) > SHOWN_TOOL_NAMES:
        return _("The server lists no tool named {tool}; it lists {names} and {count} more.").format(
            tool=tool, names=names, count=len(listed) - SHOWN_TOOL_NAMES)
    return _("The server lists no tool named {tool}; it lists {names}.").format(tool=tool, names=names)


def build_report(operation: str, server: ServerEndpoint, args: argparse.Namespace, recorder: OperationRecorder,
                 record: OperationRecord, run_id: int | None) -> dict[str, Any]:
    """The one JSON object of ``--json`` (and the source of the readable summary)."""
    error, result = record.error, record.result
    report: dict[str, Any] = {"server": server.label, "operation": operation}
    if operation == "tools/call":
        report["tool"] = args.tool
    report["outcome"] = record.status
    report["is_error"] = record.status != "ok"
    if error is not None and error.is_cancellation:
        report["cancelled_in_flight"] = bool(error.in_flight)
    if record.server_told_to_stop is not None:
        report["server_told_to_stop"] = record.server_told_to_stop
    if result is not None and operation == "tools/call":
        report["content"] = result.content
        report["structured_content"] = result.structured_content
        report["content_blocks"] = [dict(block) for block in result.blocks]
    if result is not None and operation == "tools/list":
        report["tools"] = [tool_entry(tool) for tool in result.tools]
        report["excluded_tools"] = [excluded_entry(tool, reason) for tool, reason in result.excluded]
        report["pages"] = result.pages
    task = getattr(record.step, "task", None)  # a step of this client's own making has it; a stand-in may not
    if task is not None:
        report["task"] = thaw(task)
    if result is not None and operation == "tasks/get" and result[1] is not None:
        report["content"] = result[1].content
        report["structured_content"] = result[1].structured_content
        report["content_blocks"] = [dict(block) for block in result[1].blocks]
    if result is not None and operation in OFFERING_METHODS:
        from .offerings import report_fields

        report.update(report_fields(operation, result))
    if result is not None and operation == "ping":
        report["protocol_version"] = result.protocol_version
        report["server_name"] = result.server_name
        report["ping_ms"] = result.latency_ms
    report["error"] = error.to_dict() if error is not None else None
    report["budget_s"] = recorder.started.budget_s if recorder.started else None
    # Each leg with what it found (a refused era probe, the older transport), as the readable lines say it.
    report["legs"] = with_findings([leg.to_dict() for leg in recorder.legs], "http_status",
                                   [leg.exchange for leg in recorder.legs])
    report["server_requests"] = [thaw(entry) for entry in record.step.server_requests or ()]
    report["notifications"] = [thaw(entry) for entry in record.step.server_notifications or ()]
    report["progress"] = [{"at_ms": note["atMs"], "progress": note["progress"], "total": note["total"],
                           "message": note["message"]} for note in record.step.progress or ()]
    report["progress_dropped"] = record.step.progress_dropped or 0
    # How the server was reached, and (a command server) what it wrote on stderr meanwhile; the
    # readable output showed those lines as they came.
    report["transport"] = record.step.transport or server.transport
    # The era spoken with the server: none when no request of it was answered. The stored step keeps the
    # era the client would have spoken (its detail says "Tried over …: no answer from the server").
    report["era"] = record.step.era if record.step.era is None or server_answered(record.step.to_payload()) else None
    report["command"] = record.step.server_command
    report["stderr"] = list(record.step.stderr or ())
    report["stderr_dropped"] = record.step.stderr_dropped or 0
    report["line_problems"] = list(record.step.line_problems or ())
    if run_id is not None:
        report["run_id"] = run_id
    return report


#: A grant this much larger than what was left is worth a sentence (below it, clock noise)...
_NOTABLE_EXCESS_S = 0.1
#: ... and only when the excess is this share of the budget: the legs after a first one of 0.2 s
#: are each granted 20 s of 19.8 s left, which is not news (the table shows it); a 2.5 s budget
#: granted 3 s is (an operation may run a fifth longer than asked).
_NOTABLE_SHARE = 0.05


def _grant_note(report: dict[str, Any]) -> str | None:
    """A sentence when a leg was granted visibly more than the budget had left (grants are whole seconds)."""
    legs = [leg for leg in report["legs"] if leg["granted_s"] is not None and "budget_left_s" in leg]
    if not legs:
        return None
    leg = max(legs, key=lambda leg: leg["granted_s"] - leg["budget_left_s"])
    excess = leg["granted_s"] - leg["budget_left_s"]
    if excess < _NOTABLE_EXCESS_S or excess < _NOTABLE_SHARE * (report["budget_s"] or 0):
        return None
    return _("Each request is granted what is left of the budget rounded up to whole seconds (at least one): {method} "
             "was granted {granted} s when {left} s of the {budget}-second budget were left.").format(
                method=leg["method"], granted=whole(leg["granted_s"]), left=seconds(leg["budget_left_s"], 2),
                budget=seconds(report["budget_s"]))


def print_report(report: dict[str, Any], as_json: bool, error: Any = None, *,
                 excluded: list[tuple[dict[str, Any], Message]] | None = None,
                 finished_legs: Sequence[Any] = (), server_said: str | None = None) -> None:
    """The report: one JSON object, or readable lines in the current language. ``error``: the
    operation's error object, and ``excluded``: the catalogue's excluded tools with their reasons,
    whose sentences are shown translated (the report keeps the English). ``finished_legs``: the
    client's reports of the report's legs, whose kept exchanges tell a probe refused with a JSON-RPC
    error (the report's legs do not carry them). ``server_said``: the server as the reader reads its name (the
    window's demo entry in their language), where the report keeps it as stored."""
    if as_json:
        emit_json(report)
        return
    subject = report["operation"] + (f" {report['tool']}" if "tool" in report else "")
    if "replay_of" in report:
        print(_("Replay of step {step} of run {run}:").format(run=report["replay_of"]["run"],
                                                             step=report["replay_of"]["step"]))
    print(one_line(_("{subject} on {server}: {outcome} (budget {budget} s)").format(
        subject=subject, server=server_said or report["server"], outcome=report_outcome(report),
        budget=seconds(report["budget_s"]))))
    exchanges = ([getattr(finished, "exchange", None) for finished in finished_legs]
                 if len(finished_legs) == len(report["legs"]) else [None] * len(report["legs"]))
    nexts = [*report["legs"][1:], {}] if report["legs"] else []
    seen = legs_seen(report["legs"])
    for index, (leg, exchange, following) in enumerate(zip(report["legs"], exchanges, nexts, strict=True)):
        granted = "-" if leg["granted_s"] is None else _("{seconds} s").format(seconds=whole(leg["granted_s"]))
        elapsed = readable_duration(leg["elapsed_ms"])
        status = status_cell(leg["http_status"], report.get("transport"))
        left = (_("{seconds} s").format(seconds=seconds(leg["budget_left_s"], 2)) if "budget_left_s" in leg
                else "-")
        print(_("  {method:<27} granted {granted:>5} of {left:>8} left  took {elapsed:>10}  {status:<8}  "
                "{outcome}").format(method=leg_said(leg["method"]), granted=granted, left=left, elapsed=elapsed,
                                    status=status, outcome=leg_outcome_word(
                                        leg["outcome"], leg["method"], leg["http_status"], exchange,
                                        following.get("method"), following.get("outcome"), seen[index + 1:])))
    note = _grant_note(report)
    if note:
        print(note)
    if report.get("task"):
        print(one_line(task_line(report["task"])))
    for line in progress_lines(report["progress"], report["progress_dropped"]):
        print(one_line(line))
    for line in server_request_lines(report["server_requests"]) + elicitation_lines(report["server_requests"]):
        print(one_line(line))
    for line in notification_lines(report["notifications"]):
        print(one_line(line))
    if report["error"] is not None:
        message = translate(error) if error is not None else report["error"]["message"]
        print(one_line(error_line(report["error"]["kind"], message)))
        if report["error"]["kind"] != "cancelled" and (hint := budget_hint(report)) is not None:
            print(hint)
    elif report["outcome"] == "failed":
        print(one_line(_("The tool {tool} reported an error:").format(tool=report.get("tool"))))
    if "content" in report:
        text, left_out = bounded_content(report["content"], report.get("content_blocks", []))
        print(safe(text))
        if left_out is not None:
            print(left_out)
        for line in answer_block_lines(report.get("content_blocks", [])):
            print(one_line(line))
        for line in structured_lines(report.get("structured_content"), report.get("content_blocks", [])):
            print(safe(line))
    if "listed_tools" in report:
        print(one_line(unlisted_tool_line(report["tool"], report["listed_tools"])))
    if "tools" in report:
        print(catalogue_heading(len(report["tools"]), report["pages"]))
        for tool in report["tools"]:
            for line in tool_lines(tool):
                print(one_line(line))
        reasons = [(tool, translate(reason)) for tool, reason in excluded] if excluded is not None else [
            (entry["tool"], entry["reason"]) for entry in report.get("excluded_tools", [])]
        for line in excluded_lines(reasons):
            print(one_line(line))
    if "protocol_version" in report:
        name = report.get("server_name") or _("(unnamed)")
        if report.get("era") == "stateless":  # no ping there: server/discover was what it answered
            print(one_line(_("Server {name} speaks MCP {version} and answered server/discover in {duration} (the "
                             "stateless era has no ping).").format(
                name=name, version=report["protocol_version"], duration=readable_duration(report["ping_ms"]))))
        else:
            print(one_line(_("Server {name} speaks MCP {version} and answered ping in {duration}.").format(
                name=name, version=report["protocol_version"], duration=readable_duration(report["ping_ms"]))))
    if report["operation"] in OFFERING_METHODS and report["error"] is None:
        from .offerings import result_lines

        for line in result_lines(report["operation"], report):
            print(line)
    compared = report.get("replay_of", {}).get("compared")
    if compared is not None:  # as the window's Result tab says it beside the step
        from inspector.i18n.replays import replay_verdict

        print(replay_verdict(compared["outcome_before"], report["outcome"], compared["same_result"],
                             compared["duration_before_ms"], compared["duration_ms"]))
    if "run_id" in report:
        print(_("Stored as run {id}.").format(id=report["run_id"]))
