"""What the Runs list says where it has no row: how to make a first run, or, where the filters leave none,
how to see every run; where a search text left none, where a text in the steps is found instead (the
search looks in the runs' titles, servers, files and notes, never in their steps: an error message a
customer quoted, typed here, found no run and said nothing of Find)."""

from __future__ import annotations

from inspector.i18n import _
from inspector.store.browse import RunFilter


def empty_list_words(chosen: RunFilter) -> str:
    """The Runs list's words with no row, under the filters ``chosen``."""
    if chosen == RunFilter():
        return _("No runs yet: run a tool in the Workbench, play a scenario in the Play tab, or open a "
                 "trace (File › Open trace…).")
    said = _("No run matches the filters. Choose “Every outcome”, “Every server” and “Every source” "
             "and clear the search to see every run.")
    if not chosen.text.strip():
        return said
    return " ".join([said, _("The search looks in the titles, servers, files and notes of the runs, not in their "
                             "steps: to find a text a step holds (an error message, say), select the run and use "
                             "Find (Ctrl+F).")])


__all__ = ["empty_list_words"]
