"""Under ``runs list --outcome cancelled``: the runs of another status that hold a cancelled tool call (a run
with a failed call too is *failed*, as ADR-191 has it), which the list leaves out; ``""`` when there are none."""

from __future__ import annotations

from inspector.i18n import ngettext
from inspector.i18n.formatting import format_number
from inspector.store.cancelled_calls import EXAMINED, runs_with_cancelled_calls
from inspector.store.run_store import RunStore


def cancelled_elsewhere_line(store: RunStore, examined: int = EXAMINED) -> str:
    """The sentence naming them (the newest ten, then "…") among the newest ``examined`` runs, or ``""``."""
    found = runs_with_cancelled_calls(store, examined=examined)
    if not found.count:
        return ""
    ids = ", ".join(map(str, found.newest)) + (", …" if found.count > len(found.newest) else "")
    if found.examined is not None:
        return ngettext("Of the newest {examined} runs, {count} of another status has a cancelled tool call too: "
                        "{ids} (`runs show RUN` lists its steps).",
                        "Of the newest {examined} runs, {count} of another status have a cancelled tool call too: "
                        "{ids} (`runs show RUN` lists their steps).", found.count).format(
            examined=format_number(found.examined), count=format_number(found.count), ids=ids)
    return ngettext("{count} run of another status has a cancelled tool call too: {ids} (`runs show RUN` lists "
                    "its steps).",
                    "{count} runs of another status have a cancelled tool call too: {ids} (`runs show RUN` lists "
                    "their steps).", found.count).format(count=format_number(found.count), ids=ids)


__all__ = ["cancelled_elsewhere_line"]
