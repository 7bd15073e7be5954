"""What a run's title says in its tooltip while the Runs search has a text: in how many of the run's steps
the search found it (as Find finds it in the run), so a run listed for its steps is told from one listed
for its title, server, file or notes. Asked as the tooltip shows, for that run alone (its steps by the
run's index); a run of more than :data:`COUNTED_STEPS` steps is not counted (Find in it says)."""

from __future__ import annotations

from inspector.i18n import ngettext
from inspector.i18n.formatting import format_number
from inspector.store import RunRecord, RunStore
from inspector.store.browse import find_step_ids

#: The most steps a run may have for the tooltip to count those the search found in (a read on hover).
COUNTED_STEPS = 2_000


def found_in_steps(store: RunStore, run: RunRecord, text: str) -> str:
    """The sentence that the search found ``text`` in some of the run's steps; "" when in none (or the
    run has too many steps to count them on hover)."""
    if not text.strip() or (run.step_count or 0) > COUNTED_STEPS:
        return ""
    found = len(find_step_ids(store, run.id, text, limit=COUNTED_STEPS))
    if not found:
        return ""
    return ngettext("The search found the text in {count} step of this run (Find, Ctrl+F, shows it).",
                    "The search found the text in {count} steps of this run (Find, Ctrl+F, shows them).",
                    found).format(count=format_number(found))


__all__ = ["COUNTED_STEPS", "found_in_steps"]
