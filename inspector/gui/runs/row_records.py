"""The records of the Runs list's rows read so far: a row's record (with its push and why it failed) is
read when the row is first asked for, with the rest of its page of :data:`~.run_listing.RECORD_PAGE`
rows, so that a list of 25,000 runs reads the records of the rows it paints, not of every row above them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from inspector.i18n import _
from inspector.store import RunRecord, RunStore
from inspector.store.outbox import OutboxEntry

from .refused_reads import READ_ERRORS, ReadRefusals
from .run_listing import RECORD_PAGE, RunRecords, read_records
from .run_reasons import KnownReasons, Reason


class RowRecords:
    """The records read, by run id. Its dictionaries are replaced, never changed in place: a reader
    thread reads them (:meth:`known`) while the list is shown. ``read_page`` is told (after the paint
    that asked) that a page was read; ``refused`` once a list, with the words of the current language
    (a callable) for the tab's status line, that a page could not be read (the database damaged or
    locked since the list was read: its rows stay empty, and nothing raises in a paint)."""

    def __init__(self, store: RunStore, page_read: Callable[[], None],
                 refused: Callable[[Callable[[], str]], None] = lambda _words: None) -> None:
        self.store = store
        self._page_read = page_read
        self._refusals = ReadRefusals(store, lambda problem: _("The runs list could not read its rows. "
                                                               "{problem}").format(problem=problem), refused)
        self._told = False
        self.held = RunRecords({}, {}, {})
        #: Runs whose record was asked for and not found (deleted since the list was read).
        self._gone: frozenset[int] = frozenset()
        #: How many records were read from the database (tests and benchmarks look).
        self.read = 0

    def hold(self, records: RunRecords) -> None:
        """Hold these records alone (a list read anew)."""
        self.held, self._gone = records, frozenset()
        self._refusals.again()

    def add(self, records: RunRecords) -> list[int]:
        """Hold these records too, in place of those held of the same runs; the runs whose record, push
        or reason is another now."""
        held = self.held
        changed = [run_id for run_id, run in records.runs.items()
                   if held.runs.get(run_id) != run or held.pushes.get(run_id) != records.pushes.get(run_id)
                   or held.reasons.get(run_id) != records.reasons.get(run_id)]
        read = records.runs.keys()
        self.held = RunRecords({**held.runs, **records.runs},
                               {**{k: v for k, v in held.pushes.items() if k not in read}, **records.pushes},
                               {**{k: v for k, v in held.reasons.items() if k not in read}, **records.reasons})
        return changed

    def record(self, ids: Sequence[int], row: int) -> RunRecord | None:
        """The record of the run of ``row`` (of the rows ``ids``), its page read if it was not."""
        run_id = ids[row]
        run = self.held.runs.get(run_id)
        if run is None and run_id not in self._gone:
            start = row - row % RECORD_PAGE
            page = [other for other in ids[start:start + RECORD_PAGE]
                    if other not in self.held.runs and other not in self._gone]
            try:
                records = read_records(self.store, page, self.known())
            except READ_ERRORS as error:
                self._gone = self._gone.union(page)  # not asked again at every paint
                self._refusals.refuse(error)
                return None
            self.read += len(records.runs)
            self.add(records)
            self._gone = self._gone.union(other for other in page if other not in records.runs)
            run = records.runs.get(run_id)
            if not self._told:  # told once for the pages one paint reads
                self._told = True
                self._page_read()
        return run

    def told(self) -> None:
        """The pages read were told of: the next one is told again."""
        self._told = False

    def push(self, run_id: int) -> OutboxEntry | None:
        return self.held.pushes.get(run_id)

    def reason(self, run_id: int) -> Reason | None:
        return self.held.reasons.get(run_id)

    def known(self) -> KnownReasons:
        """The runs read and their reasons, for a read of the list again (on any thread)."""
        return KnownReasons(self.held.runs, self.held.reasons)


__all__ = ["RowRecords"]
