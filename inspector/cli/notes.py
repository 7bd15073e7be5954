"""``runs note RUN [TEXT] [--step N] [--clear|--append]``: write (or remove) a reviewer's note.

A run or step holds one note. The text replaces the note there was, which is said (the note of a
customer who sent the trace is gone here then); ``--append`` writes it under that note instead, after an
empty line: an answer that begins with the note it answers, which the customer's import of the next
export then takes (``inspector.transfer.notes_again``)."""

from __future__ import annotations

import argparse

from inspector.i18n import N_, _
from inspector.i18n.messages import Message
from inspector.store import RunStore, StoreError
from inspector.store.notes import step_id_of, step_note, write_run_note, write_step_note

from .common import EXIT_OK, BadInputError, UsageError
from .ending import emit_json
from .run_choice import resolve_run
from .stopping import done_once_stored


def write_note(store: RunStore, args: argparse.Namespace) -> int:
    """Write the note the arguments give; say what was written."""
    if args.clear and args.text is not None:
        raise UsageError(Message(N_("runs note takes the note's text or --clear, not both: the text replaces the "
                                    "note there was, --clear removes it.")))
    if not args.clear and args.text is None:
        raise UsageError(Message(N_("runs note needs the note's text, or --clear to remove it: "
                                    'runs note RUN "TEXT"')))
    if args.clear and args.append:
        raise UsageError(Message(N_("runs note takes --append (the text written under the note there is) or "
                                    "--clear (the note removed), not both.")))
    if args.append and not args.text.strip():  # an empty answer would remove the note it was to go under
        raise UsageError(Message(N_("runs note --append needs the text to write under the note; --clear "
                                    "removes a note.")))
    text = "" if args.clear else args.text
    run = resolve_run(store, args.run_id)
    args.run_id = run.id  # `last`, a uid's beginning: said as its id from here on
    try:
        step_id = None if args.step is None else step_id_of(store, args.run_id, args.step)
        before = run.note if step_id is None else step_note(store, step_id)
        if args.append and before.strip() and text.strip():
            text = before.rstrip() + "\n\n" + text.strip()
        with done_once_stored(store):  # from its COMMIT on, a Ctrl-C changes nothing: the note is saved
            note = write_run_note(store, args.run_id, text) if step_id is None else write_step_note(store, step_id,
                                                                                                     text)
    except StoreError as exc:
        raise BadInputError(exc.sentence if isinstance(exc.sentence, Message) else str(exc)) from None
    _say_written(args, note, before)
    return EXIT_OK


def _say_written(args: argparse.Namespace, note: str, before: str) -> None:
    """What was written: the ``note`` (``""``: removed) where ``before`` was."""
    if args.json:
        emit_json({"run": args.run_id, "step": args.step, "note": note})
        return
    if not note and not before.strip():  # `--clear` twice: the second found none to remove
        print(_("Run {run} has no note: nothing was removed.").format(run=args.run_id) if args.step is None else
              _("Step {step} of run {run} has no note: nothing was removed.").format(step=args.step, run=args.run_id))
    elif args.step is None:
        print(_("The note of run {run} was saved.").format(run=args.run_id) if note else
              _("The note of run {run} was removed.").format(run=args.run_id))
    else:
        print(_("The note of step {step} of run {run} was saved.").format(step=args.step, run=args.run_id) if note
              else _("The note of step {step} of run {run} was removed.").format(step=args.step, run=args.run_id))
    if note and before.strip() and not note.startswith(before.strip()):
        print(_("It replaced the note there was; --append writes under a note instead."))
