"""The sentences an import says about the notes it added to runs that were here already: the command
line's `import` and the window's import say the same ones (``inspector.transfer.notes_again``)."""

from __future__ import annotations

from inspector.i18n import ngettext
from inspector.i18n.formatting import format_number

from .importing import ImportReport


def notes_sentences(imported: ImportReport) -> list[str]:
    """What became of the notes the file has for runs that were here already, in the current language."""
    added, kept = imported.notes_added, imported.notes_kept
    said = []
    if added:
        ids = imported.noted_run_ids
        if imported.noted_runs == 1:
            said.append(ngettext("{count} note of the file was added to run {id}.",
                                 "{count} notes of the file were added to run {id}.", added).format(
                count=format_number(added), id=ids[0]))
        else:
            named = ", ".join(map(str, ids)) if imported.noted_runs <= 10 else f"{ids[0]} … {ids[-1]}"
            said.append(ngettext("{count} note of the file was added to runs {ids}.",
                                 "{count} notes of the file were added to runs {ids}.", added).format(
                count=format_number(added), ids=named))
    if kept:
        said.append(ngettext(
            "{count} note of the file was not added: its run or step has another note here, which is kept.",
            "{count} notes of the file were not added: their runs or steps have other notes here, which are kept.",
            kept).format(count=format_number(kept)))
    if imported.notes_stepless and imported.first_stepless is not None:
        run_id, step = imported.first_stepless
        stepless = imported.notes_stepless
        said.append(ngettext(
            "{count} note of the file was not added: run {id} has no step {step}.",
            "{count} notes of the file were not added: the runs here do not have their steps (the first: step "
            "{step} of run {id}).", stepless).format(count=format_number(stepless), id=run_id, step=step))
    if imported.notes_same and not added and not kept and not imported.notes_stepless:
        said.append(ngettext("Its note is here already: no note was added.",
                             "Its notes are here already: no note was added.", imported.notes_same))
    return said


__all__ = ["notes_sentences"]
