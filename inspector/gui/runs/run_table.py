"""The Runs list's table: Select All (Ctrl+A) selects every run the list holds, also those
below the rows read so far. The list reads its runs' ids a page (500) at a time as it scrolls, and Qt's
Select All selects the rows read: in a list of 1,200 runs it selected 500, and Delete… or Export of the
selected runs then acted on 500 of them."""

from __future__ import annotations

from ..widgets.reader_table import ReaderTable
from .runs_model import RunListModel


class RunTable(ReaderTable):
    """A :class:`ReaderTable` whose Select All reads the ids of every run listed first (one read)."""

    def selectAll(self) -> None:  # noqa: N802
        model = self.model()
        if isinstance(model, RunListModel):
            model.load_every_run()
        super().selectAll()


__all__ = ["RunTable"]
