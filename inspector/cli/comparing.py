"""``compare RUN RUN``: two stored runs side by side, their steps aligned, what differs marked
(the comparison itself: inspector/runs/comparing.py)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from inspector.i18n import N_, _
from inspector.i18n.compare_heads import compared_run_line
from inspector.i18n.comparing import (
    ROW_MARKS,
    english_summary_line,
    hidden_plumbing_steps,
    joined,
    row_differences,
    row_state,
    summary_line,
)
from inspector.i18n.messages import Message
from inspector.i18n.words import failed_outcome_text, kind_word, step_outcome_word
from inspector.runs.comparing import SLOWER_MS, SLOWER_RATIO, AlignedRow, RunComparison, StepFacts
from inspector.store import RunRecord, RunStore
from inspector.store.comparing import compare_stored_runs
from inspector.store.recovery import Recovery, run_reason

from .common import EXIT_OK, BadInputError, database_path, open_existing_store
from .compare_grammar import check_runs
from .durations import readable_duration
from .ending import json_text, mark_json_emitted
from .reason_json import reason_dict
from .run_choice import resolve_run
from .runs import run_dict
from .safe_text import one_line
from .stopping import stoppable_reading
from .words import outcome_width, outcome_word, terminal_text

#: The step's name in the readable table is cut to this many characters (the JSON keeps it whole).
NAME_CHARS = 32
#: Why a run has its status (:meth:`inspector.store.recovery.Recovery.said`: its failed calls, all its calls, whether
#: the model still answered, how the calls ended where known, the cancelled ones and those not recorded), or None.
Reason = tuple[int, int, bool, str | None, int, int] | None


def run(args: argparse.Namespace) -> int:
    args.first, args.second = check_runs(args.runs)
    store = open_existing_store(args.db)
    if store is None:
        raise BadInputError(Message(N_("There are no runs to compare: the run database {path} does not exist yet."),
                                    {"path": database_path(args.db)}))
    with stoppable_reading():  # a SIGTERM while it reads or prints ends it as a Ctrl-C does
        return _compare(store, args)


def _compare(store: RunStore, args: argparse.Namespace) -> int:
    with store:
        first, second = resolve_run(store, args.first), resolve_run(store, args.second)
        if first.id == second.id:
            raise BadInputError(Message(N_("{first} and {second} name the same run ({run}): compare needs two "
                                           "different runs."),
                                        {"first": one_line(args.first), "second": one_line(args.second),
                                         "run": first.id}))
        comparison = compare_stored_runs(store, first.id, second.id, show_plumbing=args.plumbing)
        # Why each run has its status, as `runs list` and `runs show` say it beside the status (--json: as
        # `runs list --json` gives it).
        found = (run_reason(store, first), run_reason(store, second))
    if args.json:
        write_json(first, second, comparison, found)
    else:
        print_comparison(first, second, comparison, (_reason_said(found[0]), _reason_said(found[1])))
    return EXIT_OK


# -- --json --------------------------------------------------------------------------------------

def _step_dict(step: StepFacts | None) -> dict[str, Any] | None:
    if step is None:
        return None
    return {"sequence": step.sequence, "kind": step.kind, "round": step.round, "name": step.name,
            "outcome": step.outcome, "duration_ms": step.duration_ms, "details": step.details}


def _row_dict(row: AlignedRow) -> dict[str, Any]:
    change = row.duration_change_ms
    return {"state": row_state(row), "differences": sorted(str(d) for d in row.differences),
            "duration_change_ms": None if change is None else round(change, 2),
            "first": _step_dict(row.first), "second": _step_dict(row.second)}


def write_json(first: RunRecord, second: RunRecord, comparison: RunComparison,
               reasons: tuple[Recovery | None, Recovery | None] = (None, None)) -> None:
    """``compare --json``: the object of :func:`comparison_dict`, its rows written one by one (two runs
    of 100,000 steps are never held as one string)."""
    head = comparison_dict(first, second, comparison, reasons, rows=False)
    mark_json_emitted()
    out = sys.stdout
    out.write(json_text(head)[:-1] + ', "rows": [')
    for index, row in enumerate(comparison.rows):
        out.write(("," if index else "") + json_text(_row_dict(row)))
    out.write("]}\n")


def comparison_dict(first: RunRecord, second: RunRecord, comparison: RunComparison,
                    reasons: tuple[Recovery | None, Recovery | None] = (None, None), *,
                    rows: bool = True) -> dict[str, Any]:
    """What ``compare --json`` prints (docs/cli-json.md): each run with its ``reason`` as ``runs list --json``
    gives it (``reasons``: each run's); ``rows=False``: all but the rows."""
    summary = comparison.summary
    head = {
        "first": {**run_dict(first), "reason": reason_dict(reasons[0])},
        "second": {**run_dict(second), "reason": reason_dict(reasons[1])},
        "rule": {"ratio": SLOWER_RATIO, "ms": SLOWER_MS},
        "summary": {"text": english_summary_line(summary, first.id, second.id), "alike": summary.alike,
                    "slower": {"count": summary.slower, "ms": round(summary.slower_ms, 2)},
                    "faster": {"count": summary.faster, "ms": round(summary.faster_ms, 2)},
                    "arguments": summary.arguments, "results": summary.results,
                    "error_messages": summary.error_messages,
                    "content_blocks": summary.content_blocks,
                    "only_first": summary.only_first, "only_second": summary.only_second,
                    "outcome_changes": [{"first": one, "second": other, "count": count}
                                        for (one, other), count in summary.outcome_changes.items()]},
        "hidden_plumbing": {"first": comparison.hidden_plumbing[0], "second": comparison.hidden_plumbing[1]},
    }
    if rows:
        head["rows"] = [_row_dict(row) for row in comparison.rows]
    return head


# -- the readable table --------------------------------------------------------------------------

def _round_cell(row: AlignedRow) -> str:
    rounds = [step.round for step in (row.first, row.second) if step is not None]
    if any(value is None for value in rounds):
        return "-"
    if len(rounds) == 2 and rounds[0] != rounds[1]:
        return _("{first} → {second}").format(first=rounds[0], second=rounds[1])
    return str(rounds[0])


def _step_cell(row: AlignedRow) -> str:
    step = row.first or row.second
    name = one_line(step.name)
    if len(name) > NAME_CHARS:
        name = name[:NAME_CHARS - 1] + "…"
    kind = kind_word(step.kind) if step.kind else ""
    return _("{kind} {name}").format(kind=kind, name=name).strip() if name else kind


def _said(step: StepFacts) -> str:
    # As `runs show` says it: a tool call whose source recorded no outcome "not recorded", a timed-out
    # call "failed: timed out".
    return failed_outcome_text(step.kind, step.outcome, step.failure) or outcome_word(step.outcome)


def _side_cell(step: StepFacts | None, width: int) -> str:
    if step is None:
        return ""
    return f"{_said(step):<{width}} {readable_duration(step.duration_ms):>9}"


def _reason_said(reason: Recovery | None) -> Reason:
    return None if reason is None else reason.said()


def print_comparison(first: RunRecord, second: RunRecord, comparison: RunComparison,
                     reasons: tuple[Reason, Reason] = (None, None)) -> None:
    """The two runs (each status with why it failed, ``reasons``, where known), the summary line, then one
    line per aligned row."""
    for place, (record, reason) in enumerate(((first, reasons[0]), (second, reasons[1]))):
        print(one_line(terminal_text(compared_run_line(record, place, reason))))
    print(one_line(summary_line(comparison.summary, first.id, second.id)))
    hidden = hidden_plumbing_steps(comparison.hidden_plumbing, first.id, second.id)
    if hidden:
        # As `runs show` hides them ("7 plumbing hidden; --plumbing lists them").
        print(_("Not compared: {steps}, hidden as `runs show` hides them (--plumbing compares them too).").format(
            steps=hidden))
    print()
    said = [_said(step) for row in comparison.rows for step in (row.first, row.second) if step is not None]
    width = max([outcome_width(), len(step_outcome_word("tool", None)), *map(len, said)])  # "not recorded" fits too
    side = width + 10
    steps = [_step_cell(row) for row in comparison.rows]
    rounds = [_round_cell(row) for row in comparison.rows]
    round_heading, step_heading, differences_heading = _("Round"), _("Step"), _("Differences")
    first_heading, second_heading = _("Run {id}").format(id=first.id), _("Run {id}").format(id=second.id)
    step_width = max([len(step_heading), *map(len, steps)])
    round_width = max([len(round_heading), *map(len, rounds)])
    print(f"   {round_heading:<{round_width}}  {step_heading:<{step_width}}  {first_heading:<{side}}  "
          f"{second_heading:<{side}}  {differences_heading}")
    for row, step, round_ in zip(comparison.rows, steps, rounds, strict=True):
        mark = ROW_MARKS[row_state(row)]
        print(one_line(f"{mark}  {round_:<{round_width}}  {step:<{step_width}}  {_side_cell(row.first, width):<{side}}"
                       f"  {_side_cell(row.second, width):<{side}}  "
                       f"{joined(row_differences(row, first.id, second.id))}").rstrip())


__all__ = ["comparison_dict", "print_comparison", "run", "write_json"]
