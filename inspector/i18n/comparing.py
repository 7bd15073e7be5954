"""A comparison of two runs in words, the same in the window and on the command line: the summary
line ("3 steps alike, 1 slower in run 42 by 2.1 s, and 1 cancelled in run 41 and ok in run 42") and
what a row of it says differs. The runs are named by their ids, so the line is clear on its own."""

from __future__ import annotations

import inspector.i18n as i18n
from inspector.runs.comparing import AlignedRow, ComparisonSummary, Difference
from inspector.runs.ending import UNRECORDED
from inspector.runs.step import StepKind

from . import _, ngettext
from .formatting import format_duration, format_number, joined
from .words import no_outcome_word, outcome_word
from .words import step_outcome_word as words_step_outcome_word

#: What the row of each kind is marked with, where it is shown (never colour alone).
ROW_MARKS = {"alike": "=", "differs": "≠", "only_first": "−", "only_second": "+"}


def row_state(row: AlignedRow) -> str:
    """``alike``, ``differs``, ``only_first`` or ``only_second``: the row's kind (the JSON's word)."""
    if row.second is None:
        return "only_first"
    if row.first is None:
        return "only_second"
    return "alike" if row.alike else "differs"


def step_outcome_word(ended: str) -> str:
    """How a step ended (:attr:`~inspector.runs.comparing.StepFacts.ended`) in a sentence of the comparison: an
    outcome, "not recorded" for a tool call whose source recorded none (as its Outcome cell says it), "no outcome"
    for a step that has none."""
    if ended == UNRECORDED:
        return words_step_outcome_word(StepKind.TOOL, "")
    return outcome_word(ended) if ended else no_outcome_word()


def _answer_parts(summary: ComparisonSummary) -> list[str]:
    """The pairs counted under their other answer, each once, said as their rows say it: two failed calls' texts
    are their errors ("another error message"), and a pair with another text and other content blocks is said
    once, as both (the counts add up to the rows)."""
    both, errors_with_blocks = summary.results_with_blocks, summary.error_messages_with_blocks
    results_and_blocks, errors_alone = both - errors_with_blocks, summary.error_messages - errors_with_blocks
    results_alone, blocks_alone = summary.results - both - errors_alone, summary.content_blocks - both
    said = ((results_and_blocks, ngettext("{count} with another result and other content blocks",
                                          "{count} with other results and content blocks", results_and_blocks)),
            (errors_with_blocks, ngettext("{count} with another error message and other content blocks",
                                          "{count} with other error messages and content blocks", errors_with_blocks)),
            (errors_alone, ngettext("{count} with another error message", "{count} with other error messages",
                                    errors_alone)),
            (results_alone, ngettext("{count} with another result", "{count} with other results", results_alone)),
            (blocks_alone, ngettext("{count} with other content blocks", "{count} with other content blocks",
                                    blocks_alone)))
    return [text.format(count=format_number(count)) for count, text in said if count]


def summary_line(summary: ComparisonSummary, first_id: int, second_id: int) -> str:
    """The comparison in one line: each count that is not zero, the second run against the first."""
    parts = []
    if summary.slower:
        parts.append(ngettext("{count} slower in run {run} by {duration}",
                              "{count} slower in run {run} by {duration} in all", summary.slower).format(
            count=format_number(summary.slower), run=second_id, duration=format_duration(summary.slower_ms / 1000)))
    if summary.faster:
        parts.append(ngettext("{count} faster in run {run} by {duration}",
                              "{count} faster in run {run} by {duration} in all", summary.faster).format(
            count=format_number(summary.faster), run=second_id, duration=format_duration(summary.faster_ms / 1000)))
    for (first, second), count in summary.outcome_changes.items():
        # Translators: e.g. "1 cancelled in run 41 and ok in run 42"; the outcomes are words like "ok".
        parts.append(ngettext("{count} {first_outcome} in run {first} and {second_outcome} in run {second}",
                              "{count} {first_outcome} in run {first} and {second_outcome} in run {second}",
                              count).format(count=format_number(count), first_outcome=step_outcome_word(first),
                                            first=first_id, second_outcome=step_outcome_word(second),
                                            second=second_id))
    if summary.arguments:
        parts.append(ngettext("{count} with other arguments", "{count} with other arguments",
                              summary.arguments).format(count=format_number(summary.arguments)))
    parts.extend(_answer_parts(summary))
    for count, run in ((summary.only_first, first_id), (summary.only_second, second_id)):
        if count:
            parts.append(ngettext("{count} step only in run {run}", "{count} steps only in run {run}",
                                  count).format(count=format_number(count), run=run))
    if not parts and not summary.alike:
        return _("Neither run has any step.")
    # The steps alike come first, none too: the phrases after them ("1 failed in run 3 and cancelled
    # in run 4") lean on its noun, and said alone had none.
    alike = ngettext("{count} step alike", "{count} steps alike", summary.alike).format(
        count=format_number(summary.alike))
    return joined([alike, *parts])


def english_summary_line(summary: ComparisonSummary, first_id: int, second_id: int) -> str:
    """:func:`summary_line` in English whatever the language (``--json`` is the same in every language)."""
    with i18n.in_english():
        return summary_line(summary, first_id, second_id)


def row_differences(row: AlignedRow, first_id: int, second_id: int) -> list[str]:
    """What differs in a row, a phrase each, in a fixed order (empty for a row alike)."""
    found = row.differences
    if Difference.ONLY_FIRST in found:
        return [_("only in run {run}").format(run=first_id)]
    if Difference.ONLY_SECOND in found:
        return [_("only in run {run}").format(run=second_id)]
    words = []
    change = row.duration_change_ms or 0.0
    if Difference.OUTCOME in found:
        # Steps that ended differently are neither slower nor faster (a cancelled call was stopped,
        # not quick): the outcome change alone; each run's cell beside it says its own duration.
        words.append(_("{first} → {second}").format(first=step_outcome_word(row.first.ended),
                                                    second=step_outcome_word(row.second.ended)))
    elif Difference.SLOWER in found:
        words.append(_("slower by {duration}").format(duration=format_duration(change / 1000)))
    elif Difference.FASTER in found:
        words.append(_("faster by {duration}").format(duration=format_duration(-change / 1000)))
    if Difference.ARGUMENTS in found:
        words.append(_("other arguments"))
    if Difference.RESULT in found:
        # A failed call's text is its error: two calls that failed differ in what their errors say.
        words.append(_("another error message") if row.failed_both else _("another result"))
    if Difference.CONTENT_BLOCKS in found:
        # The same text, say, with a resource link to another address, or another picture.
        words.append(_("other content blocks"))
    return words


def hidden_plumbing_steps(hidden: tuple[int, int], first_id: int, second_id: int) -> str:
    """The plumbing steps a comparison left out, by run ("7 plumbing steps of run 5"; ``""``: none), for the
    sentence the window and ``compare`` each end in their own way (how to compare them too)."""
    return joined([ngettext("{count} plumbing step of run {run}", "{count} plumbing steps of run {run}",
                            count).format(count=format_number(count), run=run)
                   for count, run in zip(hidden, (first_id, second_id), strict=True) if count])


def rule_sentence() -> str:
    """When a duration counts as changed, in one sentence (the window's and the command's help)."""
    from inspector.runs.comparing import SLOWER_MS, SLOWER_RATIO

    return _("A step counts as slower or faster when it ended as in the other run and its duration differs by "
             "more than {percent} % of the shorter one and by more than {ms} ms.").format(
        percent=round(SLOWER_RATIO * 100), ms=round(SLOWER_MS))


__all__ = ["ROW_MARKS", "english_summary_line", "hidden_plumbing_steps", "row_differences", "row_state",
           "rule_sentence", "step_outcome_word", "summary_line"]
