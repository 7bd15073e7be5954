"""The zones a table's times have said beside them ("UTC+2" in the hour a clock is set back, "UTC"
for a time the computer's zone cannot hold), so that its time column widens to show them whole."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QObject, QTimer, Signal

from inspector.i18n.formatting import with_zone, zone_mark


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
            QTimer.singleShot(0, self.grew.emit)

    def samples(self, text: str) -> list[str]:
        """``text`` (a sample time) with each mark seen, for the column's width."""
        return [with_zone(text, mark) for mark in sorted(self.marks)]


__all__ = ["ZoneMarks"]
