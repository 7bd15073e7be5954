"""What the timeline says of its run in words: the heading over its steps (where a narrow pane
shortens the run's title first, so its status and counts stay whole) and the note over empty rows."""

from __future__ import annotations

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.recovery import status_with_recovery
from inspector.store import RunRecord

from ..widgets.elided_label import ElidedLabel
from ..widgets.outcomes import outcome_word

#: Where a run's title goes in the heading (put in after the sentence is made, so that its place is known).
TITLE_MARK = "\ue000"


def heading_text(run: RunRecord, *, shown: int, total: int, filtered: bool, hidden: int, hidden_matched: int,
                 recovery: tuple[int, int] | tuple[int, int, bool] | None = None) -> str:
    """The heading for ``run``, :data:`TITLE_MARK` where its title goes: ``shown`` of ``total`` steps,
    ``hidden`` plumbing hidden (``hidden_matched`` of them matching the filters, when ``filtered``);
    ``recovery``: the failed calls and all the calls of a failed run the model got over (and whether
    it did, :meth:`inspector.store.recovery.Recovery.said`; a run read from a trace says the counts
    alone), said beside its status as the Play tab and `runs show` say it."""
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


def show_heading(label: ElidedLabel, heading: str, title: str, why: str = "") -> None:
    """``heading`` on ``label`` with the run's ``title`` in place of :data:`TITLE_MARK`: where it does
    not fit, the title is shortened first, then ``why`` (why a failed run is failed, when the heading
    says it), so that its status and counts stay whole."""
    start = heading.find(TITLE_MARK)
    if start < 0:  # a translation without the title
        label.setText(heading)
        return
    text = heading.replace(TITLE_MARK, title, 1)
    after = text.find(why, start + len(title)) if why else -1
    more = [(after, after + len(why))] if after >= 0 else []
    label.set_text_shortening(text, start, start + len(title), *more)


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


__all__ = ["TITLE_MARK", "empty_note_text", "heading_text", "show_heading"]
