"""A stored run shown in the Runs tab, as a user opens it: its row waited for in the run list, selected,
its timeline waited for. The window's tests of the Runs tab share it through the ``runs_tab_showing``
fixture (tests/gui/conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: How long a wait may take: generous, for a loaded machine (the list is read on a thread of its own).
WAIT_MS = 10_000


@dataclass
class RunsShown:
    """The window whose Runs tab is showing, and a way to open a run in it."""

    qtbot: Any
    window: Any

    @property
    def tab(self) -> Any:
        return self.window.runs_tab

    def select(self, run_id: int, *, listed: int | None = None, steps: int | None = None) -> None:
        """Wait until the run list holds ``run_id`` (and, with ``listed``, exactly that many runs), select
        it, and wait until the timeline shows it (with ``steps``, exactly that many rows)."""
        runs, timeline = self.tab.runs, self.tab.timeline
        self.qtbot.waitUntil(lambda: runs.row_of(run_id) is not None
                             and (listed is None or runs.rowCount() == listed), timeout=WAIT_MS)
        assert self.tab.select_runs([run_id])
        self.qtbot.waitUntil(lambda: timeline.run is not None and timeline.run.id == run_id
                             and (steps is None or timeline.rowCount() == steps), timeout=WAIT_MS)
