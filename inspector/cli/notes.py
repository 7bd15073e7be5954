"""``runs note RUN [TEXT] [--step N] [--clear]``: write (or remove) a reviewer's note."""

from __future__ import annotations

import argparse

from inspector.i18n import N_, _
from inspector.i18n.messages import Message
from inspector.store import RunStore, StoreError
from inspector.store.notes import step_id_of, write_run_note, write_step_note

from .common import EXIT_OK, BadInputError, UsageError
from .ending import emit_json
from .run_choice import resolve_run


def write_note(store: RunStore, args: argparse.Namespace) -> int:
    """Write the note the arguments give; say what was written."""
    if args.clear and args.text is not None:
        raise UsageError(Message(N_("runs note takes the note's text or --clear, not both: the text replaces the "
                                    "note there was, --clear removes it.")))
    if not args.clear and args.text is None:
        raise UsageError(Message(N_("runs note needs the note's text, or --clear to remove it: "
                                    'runs note RUN "TEXT"')))
    text = "" if args.clear else args.text
    args.run_id = resolve_run(store, args.run_id).id  # `last`, a uid's beginning: said as its id from here on
    try:
        if args.step is None:
            note = write_run_note(store, args.run_id, text)
        else:
            note = write_step_note(store, step_id_of(store, args.run_id, args.step), text)
    except StoreError as exc:
        raise BadInputError(exc.sentence if isinstance(exc.sentence, Message) else str(exc)) from None
    if args.json:
        emit_json({"run": args.run_id, "step": args.step, "note": note})
    elif args.step is None:
        print(_("The note of run {run} was saved.").format(run=args.run_id) if note else
              _("The note of run {run} was removed.").format(run=args.run_id))
    else:
        print(_("The note of step {step} of run {run} was saved.").format(step=args.step, run=args.run_id) if note
              else _("The note of step {step} of run {run} was removed.").format(step=args.step, run=args.run_id))
    return EXIT_OK
