"""``replay RUN:STEP [--server SERVER]``: call a stored step's tool again, as a new run linked to it.
RUN as ``compare`` takes it: an id, ``last``, ``last~N`` or the beginning of a uid.

The same tool, the same arguments, the same budget (``--budget`` gives another), on the server the
step's run was made against; ``--server`` names another (a configured server's name or an address), or
``--stdio`` a command line, and one of them must for a step of an imported trace or of a command server not
configured here (``call --stdio``'s: its environment and folder were never stored). The
call itself is ``call``'s (:mod:`.operations`): the same legs, report, exit statuses and record.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from inspector.i18n import N_, _
from inspector.i18n.formatting import format_seconds
from inspector.i18n.messages import Message
from inspector.mcp import bounded_budget
from inspector.mcp.address_query import typed_to_quote
from inspector.mcp.server import STDIO_KEY_PREFIX
from inspector.runs.replaying import NotReplayable, ReplayPlan, plan_replay
from inspector.store import RunStore, ServerRegistry, StoreError
from inspector.store.step_range import in_range, no_such_step

from .common import BadInputError, UsageError, open_store
from .run_choice import resolve_run
from .safe_text import one_line


def run(args: argparse.Namespace) -> int:
    run_text, sequence = _target(args.target)
    store = open_store(args.db)
    try:
        run_id = resolve_run(store, run_text).id
        plan = _plan(store, run_id, sequence)
        configured = plan.server is not None and ServerRegistry(store.db).settings(plan.server) is not None
    finally:
        store.close()
    if args.url is None and args.stdio is None:  # --stdio names the server as --server does
        if plan.server is None:
            raise UsageError(Message(N_("Run {run} was imported from a trace: which server should step {step} be "
                                        "replayed on? Give it with --server (an address or a configured "
                                        "server's name)."), {"run": run_id, "step": sequence}))
        if plan.played and not configured:
            raise UsageError(Message(N_("Run {run} was played on a demo server started for it alone, which stopped "
                                        "with it: which server should step {step} be replayed on? Give it with "
                                        "--server (an address or a configured server's name)."),
                                     {"run": run_id, "step": sequence}))
        if plan.server.startswith(STDIO_KEY_PREFIX) and not configured:
            raise UsageError(Message(N_("Run {run} was made against the command server {command}, which is not "
                                        "configured here: which server should step {step} be replayed on? Give it "
                                        "with --server (an address or a configured server's name), or start the "
                                        "command again with --stdio {quoted}."),
                                     {"run": run_id, "step": sequence, "command": one_line(plan.server),
                                      "quoted": one_line(shlex.quote(plan.server.removeprefix(STDIO_KEY_PREFIX)))}))
        args.url = plan.server
    args.command, args.tool, args.args, args.task = "call", plan.tool, json.dumps(plan.arguments), False
    if args.budget is None and plan.budget_s is not None:
        if bounded_budget(plan.budget_s) is None:  # an imported trace's 1e308 s: said, not taken for --budget
            print(_("run-inspector: the step's budget, {stored} s, is more than a week: the replay gets the "
                    "server's budget or the default (--budget gives another).").format(
                        stored=format_seconds(plan.budget_s)), file=sys.stderr)
        else:
            args.budget = format(plan.budget_s, "g")
    args.replay_of = plan.link
    args.replayed_run = run_id
    from . import operations

    return operations.run(args)


def _target(text: str | None) -> tuple[str, int]:
    """``RUN:STEP`` as the run's words (``17``, ``last``, ``last~2``, a uid's beginning) and the step's
    number; a usage error otherwise."""
    if text is None:
        raise UsageError(Message(N_("replay needs the step to call again, as RUN:STEP, e.g. 17:3 or last:1 (the "
                                    "run's id, last, last~N or the beginning of its uid, and the step's number as "
                                    "`runs show` prints it).")))
    run_text, colon, step = text.rpartition(":")
    step = step.strip(" ")
    if colon and run_text.strip() and step.isascii() and step.isdigit() and len(step) <= 30:
        return run_text, int(step)  # 0 or too high: the run says which steps it has
    raise UsageError(Message(N_("replay needs the step as RUN:STEP, e.g. 17:3 or last:1 (the run's id, last, "
                                "last~N or the beginning of its uid, and the step's number as `runs show` prints "
                                "it), not {given}."), {"given": one_line(typed_to_quote(text))}))


def _plan(store: RunStore, run_id: int, sequence: int) -> ReplayPlan:
    try:
        record = store.get_run(run_id)
    except StoreError as exc:
        raise BadInputError(exc.sentence if isinstance(exc.sentence, Message) else str(exc)) from None
    stored = store.step_at(run_id, sequence) if in_range(sequence) else None
    if stored is None:
        raise BadInputError(no_such_step(store.db, run_id, sequence).sentence)
    if stored.damage:
        raise BadInputError(Message(N_("Step {step} of run {run} cannot be read, so it cannot be replayed: "
                                       "{reason}"), {"run": run_id, "step": sequence, "reason": stored.damage}))
    try:
        return plan_replay(record.uid, record.source, record.server, sequence, stored.step, record.origin)
    except NotReplayable:
        raise BadInputError(Message(N_("Step {step} of run {run} did not call a tool, so there is nothing to "
                                       "replay: only tool steps can be replayed."),
                                    {"run": run_id, "step": sequence})) from None
