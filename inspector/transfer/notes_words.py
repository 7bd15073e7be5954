"""The sentences an import says about the notes it added to runs that were here already, and the one an
export says about the notes that went into its file: the command line's `import` and `export` and the
window's say the same ones (``inspector.transfer.notes_again``)."""

from __future__ import annotations

from inspector.i18n import ngettext
from inspector.i18n.formatting import format_number

from .exporting import ExportReport
from .importing import ImportReport
from .notes_again import STEP_OTHER, STEP_UNREADABLE


def notes_sentences(imported: ImportReport) -> list[str]:
    """What became of the notes of the file: those the new runs brought, and those it has for runs that were
    here already, in the current language."""
    added, kept = imported.notes_added, imported.notes_kept
    said = []
    if imported.notes_brought:  # as export said them: "2 notes of the runs and their steps are in the file"
        said.append(ngettext("{count} note of the runs and their steps came with the file.",
                             "{count} notes of the runs and their steps came with the file.",
                             imported.notes_brought).format(count=format_number(imported.notes_brought)))
    if added:
        ids = imported.noted_run_ids
        if imported.noted_runs == 1:
            said.append(ngettext("{count} note of the file was added to run {id}.",
                                 "{count} notes of the file were added to run {id}.", added).format(
                count=format_number(added), id=ids[0]))
        else:
            # Of more than ten, the lowest and the highest (the file's first and last need not be: runs that
            # came here in another file first are numbered before the rest), when every one is known.
            named = (", ".join(map(str, ids)) if imported.noted_runs <= 10 else
                     f"{min(ids)} … {max(ids)}" if len(ids) == imported.noted_runs else f"{ids[0]} … {ids[-1]}")
            said.append(ngettext("{count} note of the file was added to runs {ids}.",
                                 "{count} notes of the file were added to runs {ids}.", added).format(
                count=format_number(added), ids=named))
    if kept:
        said.append(ngettext(
            "{count} note of the file was not added: its run or step has another note here, which is kept.",
            "{count} notes of the file were not added: their runs or steps have other notes here, which are kept.",
            kept).format(count=format_number(kept)))
    if imported.notes_stepless and imported.first_stepless is not None:
        said.append(_stepless_sentence(imported))
    if imported.notes_same and not added and not kept and not imported.notes_stepless:
        said.append(ngettext("Its note is here already: no note was added.",
                             "Its notes are here already: no note was added.", imported.notes_same))
    return said


def _stepless_sentence(imported: ImportReport) -> str:
    """The notes of the file that found no stored step to be added to, naming the first and what is true of it."""
    run_id, step = imported.first_stepless or (0, 0)
    count = imported.notes_stepless
    if imported.first_stepless_why == STEP_OTHER:
        text = ngettext(
            "{count} note of the file was not added: step {step} of run {id} here is another step than the "
            "file's (it started at another time).",
            "{count} notes of the file were not added: the runs here do not have their steps (the first: step "
            "{step} of run {id} here is another step than the file's, started at another time).", count)
    elif imported.first_stepless_why == STEP_UNREADABLE:
        text = ngettext(
            "{count} note of the file was not added: step {step} of run {id} here cannot take a note (its "
            "stored data is not readable).",
            "{count} notes of the file were not added: the runs here do not have their steps (the first: step "
            "{step} of run {id} here cannot take a note, its stored data is not readable).", count)
    else:
        text = ngettext(
            "{count} note of the file was not added: run {id} has no step {step}.",
            "{count} notes of the file were not added: the runs here do not have their steps (the first: step "
            "{step} of run {id}).", count)
    return text.format(count=format_number(count), id=run_id, step=step)


def exported_notes_sentence(exported: ExportReport) -> str:
    """How many notes of the runs and their steps went into the file ("": none), so that whoever sends it
    knows the reader will see their findings."""
    return ngettext("{count} note of the runs and their steps is in the file: whoever opens it reads it.",
                    "{count} notes of the runs and their steps are in the file: whoever opens it reads them.",
                    exported.notes).format(count=format_number(exported.notes)) if exported.notes else ""


__all__ = ["exported_notes_sentence", "notes_sentences"]
