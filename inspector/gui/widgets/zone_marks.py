"""What a table's time column must fit: times as wide as any the locale writes, and the zones they
say beside them ("UTC+2" in the hour a clock is set back, "UTC" for a time the computer's zone
cannot hold), so that the column shows each whole and never cuts off "PM" or the zone."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from PySide6.QtCore import QObject, QTimer, Signal

from inspector.i18n.formatting import with_zone, zone_mark

#: Times of every month, in the morning and the evening, each hour with two digits.
_WIDE_TIMES = tuple(datetime(2025, month, 28, hour, 59, 59, 999000, tzinfo=UTC)
                    for month in range(1, 13) for hour in (11, 23))


class ZoneMarks(QObject):
    """Collects the marks of the times a model has formatted; ``grew`` says (after the paint that
    found it) that a new one was seen, for the pane to widen its column."""

    grew = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.marks: set[str] = set()

    def note(self, moment: datetime | None) -> None:
        """Remember ``moment``'s mark, if it has one."""
        mark = zone_mark(moment) if moment is not None else ""
        if mark and mark not in self.marks:
            self.marks.add(mark)
            # Not while the view paints the cell: its column is widened once the paint is done.
            QTimer.singleShot(0, self, self.grew.emit)  # not once self is gone (a test, a pane closed)

    def samples(self, say: Callable[[datetime], str]) -> list[str]:
        """The texts the column must fit: ``say`` (a time written in UTC, not the computer's zone,
        where the sample instant may fall on "8:29 PM", narrower than "10:29 PM") of every month,
        morning and evening, each also with each mark seen."""
        texts = list(dict.fromkeys(say(moment) for moment in _WIDE_TIMES))
        return texts + [with_zone(text, mark) for mark in sorted(self.marks) for text in texts]


__all__ = ["ZoneMarks"]
