"""What the timeline says of its run in words: the heading over its steps (where a narrow pane leaves the
plumbing it hides and then its counts to its tip, then shortens why the run failed, so that its number,
title and status stay whole) and the note over empty rows."""

from __future__ import annotations

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.recovery import Reason, status_with_recovery
from inspector.store import RunRecord

from ..widgets.elided_label import ElidedLabel
from ..widgets.outcomes import outcome_word

#: Where a run's title goes in the heading (put in after the sentence is made, so that its place is known).
TITLE_MARK = "\ue000"


def laying_out_text(steps: int) -> str:
    """The note over the rows while a long run's span tree is laid out (its rows follow)."""
    return ngettext("Laying out {count} step…", "Laying out {count} steps…", steps).format(
        count=format_number(steps))


def no_room_text(waterfall: bool, rounds: bool) -> str | None:
    """The Details heading's tip where the waterfall or the Round column (or both) gave their room to the details:
    what is missing and how to see it (``None``: nothing is missing)."""
    if waterfall and rounds:
        return _("The waterfall and the Round column are hidden to leave the details room: "
                 "a wider window or pane shows them again.")
    if waterfall:
        return _("The waterfall is hidden to leave the details room: a wider window or pane shows it again.")
    if rounds:
        return _("The Round column is hidden to leave the details room: a wider window or pane shows it again.")
    return None


def heading_text(run: RunRecord, *, shown: int, total: int, filtered: bool, hidden: int, hidden_matched: int,
                 recovery: Reason | None = None) -> str:
    """The heading for ``run``, :data:`TITLE_MARK` where its title goes: ``shown`` of ``total`` steps,
    ``hidden`` plumbing hidden (``hidden_matched`` of them matching the filters, when ``filtered``);
    ``recovery``: the failed calls and all the calls of a failed run (whether the model still answered,
    and how the calls ended where known: :meth:`inspector.store.recovery.Recovery.said`), said beside its
    status as the Play tab and `runs show` say it."""
    title, status = TITLE_MARK, status_with_recovery(outcome_word(run.status), recovery)
    if hidden and not filtered:
        return ngettext(
            "Run {id}: {title} — {status}; {shown} of {count} step shown ({hidden} plumbing hidden)",
            "Run {id}: {title} — {status}; {shown} of {count} steps shown ({hidden} plumbing hidden)",
            total).format(id=run.id, title=title, status=status, shown=format_number(shown),
                          count=format_number(total), hidden=format_number(hidden))
    if filtered and hidden_matched:
        return ngettext(
            "Run {id}: {title} — {status}; {shown} of {count} step shown (filtered; {hidden} plumbing hidden)",
            "Run {id}: {title} — {status}; {shown} of {count} steps shown (filtered; {hidden} plumbing hidden)",
            total).format(id=run.id, title=title, status=status, shown=format_number(shown),
                          count=format_number(total), hidden=format_number(hidden_matched))
    if filtered:
        return ngettext("Run {id}: {title} — {status}; {shown} of {count} step shown (filtered)",
                        "Run {id}: {title} — {status}; {shown} of {count} steps shown (filtered)",
                        total).format(id=run.id, title=title, status=status,
                                      shown=format_number(shown), count=format_number(total))
    return ngettext("Run {id}: {title} — {status}, {count} step",
                    "Run {id}: {title} — {status}, {count} steps", shown).format(
        id=run.id, title=title, status=status, count=format_number(shown))


def counts_heading(run: RunRecord, *, shown: int, total: int, filtered: bool, recovery: Reason | None = None) -> str:
    """The heading for ``run`` without the plumbing it hides (its tip keeps that), but with how many of its
    steps are shown: "7 steps" alone would read as all the run has."""
    if filtered or shown == total:
        return heading_text(run, shown=shown, total=total, filtered=filtered, hidden=0, hidden_matched=0,
                            recovery=recovery)
    return ngettext("Run {id}: {title} — {status}; {shown} of {count} step shown",
                    "Run {id}: {title} — {status}; {shown} of {count} steps shown", total).format(
        id=run.id, title=TITLE_MARK, status=status_with_recovery(outcome_word(run.status), recovery),
        shown=format_number(shown), count=format_number(total))


def status_heading(run: RunRecord, recovery: Reason | None = None) -> str:
    """The briefest heading for ``run``: its title (:data:`TITLE_MARK`) and status, and why it failed."""
    return _("Run {id}: {title} — {status}").format(
        id=run.id, title=TITLE_MARK, status=status_with_recovery(outcome_word(run.status), recovery))


def uncounted_heading(run: RunRecord, recovery: Reason | None = None) -> str:
    """The heading for ``run`` whose steps could not be counted (the database refused the read): its title
    (:data:`TITLE_MARK`) and status, and that, not a count it does not know."""
    # Translators: the heading over a run's steps when the run database refused to count them (damaged, locked).
    return _("Run {id}: {title} — {status}; its steps could not be counted").format(
        id=run.id, title=TITLE_MARK, status=status_with_recovery(outcome_word(run.status), recovery))


def show_heading(label: ElidedLabel, heading: str, title: str, why: str = "", *briefer: str) -> None:
    """``heading`` on ``label`` with the run's ``title`` in place of :data:`TITLE_MARK`: where it does not
    fit, the ``briefer`` headings stand in for it in turn, each whole (the heading without its "(7 plumbing
    hidden)" clause, then without its counts: the tip keeps them), and the last, the run's number, title,
    status and ``why`` (why a failed run is failed, when the heading says it), has ``why`` shortened first
    and its title only then: a support engineer reads which run it is and how it ended, then why, then how
    many steps it has (at 1,280 px the German heading said "Lauf 2: … — fehlgeschlagen (…), 9 Sc…")."""
    whole = _with_title(heading, title, why)
    if whole is None:  # a translation without the title
        label.setText(heading)
        return
    said = [whole, *(said for said in (_with_title(brief, title, why) for brief in dict.fromkeys(briefer)
                                       if brief != heading) if said is not None)]
    *wholes, (last, parts) = said
    label.set_text_giving_way(whole[0], [*((text, []) for text, _parts in wholes[1:]), (last, parts[::-1])])


def _with_title(heading: str, title: str, why: str) -> tuple[str, list[tuple[int, int]]] | None:
    """``heading`` with ``title`` in place of :data:`TITLE_MARK`, and where the title and ``why`` are in it
    (``None`` where it has no place for the title)."""
    start = heading.find(TITLE_MARK)
    if start < 0:
        return None
    text = heading.replace(TITLE_MARK, title, 1)
    after = text.find(why, start + len(title)) if why else -1
    return text, [(start, start + len(title)), *([(after, after + len(why))] if after >= 0 else [])]


def empty_note_text(run: RunRecord, *, filtered: bool, total: int, hidden: int, matched_plumbing: int) -> str:
    """Why the timeline of ``run`` (``total`` steps, ``hidden`` of them plumbing that is hidden) shows
    no row; ``matched_plumbing``: the hidden plumbing the filters match."""
    if matched_plumbing:
        return ngettext("Only plumbing would show here, and it is hidden: tick “Show plumbing” to see {count} step.",
                        "Only plumbing would show here, and it is hidden: tick “Show plumbing” to see {count} steps.",
                        matched_plumbing).format(count=format_number(matched_plumbing))
    if filtered and total and hidden:
        # Unfiltered, the plumbing stays hidden: the note counts what the reader will then see.
        return ngettext("No step of this run matches the filters. Choose “Every outcome” and “Every kind” to see "
                        "{count} step ({hidden} plumbing hidden).",
                        "No step of this run matches the filters. Choose “Every outcome” and “Every kind” to see "
                        "{count} steps ({hidden} plumbing hidden).", total - hidden).format(
            count=format_number(total - hidden), hidden=format_number(hidden))
    if filtered and total:
        return _("No step of this run matches the filters. Choose “Every outcome” and “Every kind” to see all "
                 "{count}.").format(count=format_number(total))
    return _("No step yet: the run is still running.") if run.status == "running" else _("This run has no steps.")


__all__ = ["TITLE_MARK", "empty_note_text", "heading_text", "laying_out_text", "no_room_text", "show_heading",
           "status_heading", "uncounted_heading"]
