"""What the Runs list says where it has no row: how to make a first run, or, where the filters leave none,
how to see every run; where a search text left none, where the search looked: the runs' titles, servers,
files and notes, and their steps' text as Find sees it (an error message a customer quoted finds the runs
that hit it). Where every run there is, or every run the filters select, is a plumbing trace the list leaves out,
how to list them."""

from __future__ import annotations

from dataclasses import replace

from inspector.i18n import _
from inspector.store.browse import RunFilter


def empty_list_words(chosen: RunFilter, plumbing_traces: int = 0) -> str:
    """The Runs list's words with no row, under the filters ``chosen``, which select ``plumbing_traces``: where it
    left those out, that they are there (not that no run matches: ``runs list`` says "Not listed: …" there too)."""
    every = replace(chosen, plumbing_traces=None) == RunFilter()
    if plumbing_traces and chosen.plumbing_traces is False:
        if every:
            return _("Every run stored is a plumbing trace (a session's plumbing alone), which the list leaves out: "
                     "tick “Show plumbing traces” above to list them.")
        return _("Every run the filters select is a plumbing trace (a session's plumbing alone), which the list "
                 "leaves out: tick “Show plumbing traces” above to list them.")
    if every:
        return _("No runs yet: run a tool in the Workbench, play a scenario in the Play tab, or open a "
                 "trace (File › Open trace…).")
    said = _("No run matches the filters. Choose “Every outcome”, “Every server” and “Every source” "
             "and clear the search to see every run.")
    if not chosen.text.strip():
        return said
    return " ".join([said, _("The search looked in the titles, servers, files and notes of the runs and in their "
                             "steps: tool names, errors, outcomes, arguments, results and a trace's attributes and "
                             "events, as Find (Ctrl+F) does in one run.")])


__all__ = ["empty_list_words"]
