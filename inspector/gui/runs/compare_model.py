"""The rows of a comparison of two runs, as a table: a mark, the round, the step, each run's outcome
and duration, and what differs. What differs is seen without colour: the mark (= ≠ − +), bold text
in the cells that differ, a dotted cell where a run has no step, and the words of the last column."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from inspector.i18n import _
from inspector.i18n.comparing import ROW_MARKS, row_differences, row_state
from inspector.i18n.formatting import format_duration, joined
from inspector.i18n.words import failed_outcome_text, failure_word, kind_word
from inspector.runs.comparing import AlignedRow, Difference, RunComparison, StepFacts

from ..widgets.outcomes import outcome_icon, text_colour
from ..widgets.plain_text import cell_text, plain_tooltip
from .outcome_cell import FailureRole
from .table_model import Index, NamedColumnsModel

#: The faint tint of a row that differs (Okabe–Ito orange, nearly white): an aid beside the mark and
#: the bold text, never the only sign.
DIFFERS_TINT = QColor(230, 159, 0, 40)
#: A cell where a run has no step: dotted grey, which a greyscale print keeps.
MISSING_BRUSH = QBrush(QColor(150, 150, 150), Qt.BrushStyle.Dense6Pattern)
#: What makes a run's cell differ from the other's.
SIDE_DIFFERENCES = frozenset({Difference.OUTCOME, Difference.SLOWER, Difference.FASTER})


class CompareModel(NamedColumnsModel):
    """The aligned rows of two runs (:class:`~inspector.runs.comparing.RunComparison`)."""

    COLUMNS = ("mark", "round", "step", "first", "second", "differences")

    def __init__(self) -> None:
        super().__init__()
        self.comparison: RunComparison | None = None
        self.first_id = self.second_id = 0
        self._bold = QFont()
        self._bold.setBold(True)

    def headings(self) -> tuple[str, ...]:
        return ("", _("Round"), _("Step"), _("Run {id}").format(id=self.first_id),
                _("Run {id}").format(id=self.second_id), _("Differences"))

    def row_count(self) -> int:
        return len(self.comparison.rows) if self.comparison is not None else 0

    def set_comparison(self, comparison: RunComparison | None, first_id: int = 0, second_id: int = 0) -> None:
        self.beginResetModel()
        self.comparison, self.first_id, self.second_id = comparison, first_id, second_id
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.COLUMNS) - 1)

    def row(self, number: int) -> AlignedRow | None:
        if self.comparison is None or not 0 <= number < len(self.comparison.rows):
            return None
        return self.comparison.rows[number]

    # -- the cells ------------------------------------------------------------------------------

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        column = self.column_of(index)
        row = self.row(index.row()) if column is not None else None
        if row is None:
            return None
        side = row.first if column == "first" else row.second if column == "second" else None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(row, column, side, spoken=role == Qt.ItemDataRole.AccessibleTextRole)
        # Whole in the tooltip where a narrow dialog cuts the cell (compare_dialog.DIFFERENCES_FLOOR_PX).
        if role == Qt.ItemDataRole.ToolTipRole and column in ("mark", "step", "first", "second", "differences"):
            return plain_tooltip(self._text(row, column, side, spoken=True))
        if role == FailureRole:
            return side_failure_text(side) if side is not None else None
        if role == Qt.ItemDataRole.DecorationRole and side is not None and side.outcome:
            return outcome_icon(side.outcome)
        if role == Qt.ItemDataRole.ForegroundRole and side is not None:
            return text_colour(side.outcome)
        if role == Qt.ItemDataRole.FontRole and self._differs(row, column):
            return self._bold
        if role == Qt.ItemDataRole.BackgroundRole:
            if column in ("first", "second") and side is None:
                return MISSING_BRUSH
            return QBrush(DIFFERS_TINT) if not row.alike else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("mark", "round"):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def _differs(self, row: AlignedRow, column: str) -> bool:
        if column in ("first", "second"):
            return bool(row.differences & SIDE_DIFFERENCES)
        return column in ("mark", "differences") and not row.alike

    def _text(self, row: AlignedRow, column: str, side: StepFacts | None, *, spoken: bool) -> str:
        if column == "mark":
            return self.state_words(row) if spoken else ROW_MARKS[row_state(row)]
        if column == "round":
            return round_text(row)
        if column == "step":
            return step_text(row.first or row.second)
        if column in ("first", "second"):
            if side is None:
                return _("not in this run") if spoken else "—"
            return side_text(side)
        return joined(row_differences(row, self.first_id, self.second_id))

    def state_words(self, row: AlignedRow) -> str:
        """The row's mark in words ("alike", "differs", "only in run 41")."""
        state = row_state(row)
        if state == "alike":
            return _("alike")
        if state == "differs":
            return _("differs")
        return _("only in run {run}").format(run=self.first_id if state == "only_first" else self.second_id)

    def index_of_first_difference(self) -> QModelIndex:
        """The first row that is not alike (an invalid index when all are)."""
        for number in range(self.row_count()):
            if not self.comparison.rows[number].alike:
                return self.index(number, 0)
        return QModelIndex()


def round_text(row: AlignedRow) -> str:
    """The round of a row: "2", "2 → 3" when the runs had the step in different rounds, "–" without."""
    rounds = [step.round for step in (row.first, row.second) if step is not None]
    if any(value is None for value in rounds):
        return "–"
    if len(rounds) == 2 and rounds[0] != rounds[1]:
        return _("{first} → {second}").format(first=rounds[0], second=rounds[1])
    return str(rounds[0])


def step_text(step: StepFacts) -> str:
    """The step's kind and name (a tool's name, an imported span's), as one plain line."""
    kind = kind_word(step.kind) if step.kind else ""
    if not step.name:
        return kind
    return _("{kind} {name}").format(kind=kind, name=cell_text(step.name, 120)).strip()


def side_text(step: StepFacts) -> str:
    """One run's step in its cell: its outcome in the words of the timeline and ``runs show`` ("failed:
    timed out", "not recorded" for a tool call whose source recorded none) and the duration ("cancelled ·
    2.0 s"); a step without an outcome by nature (a model's) its duration alone."""
    duration = format_duration(step.duration_ms / 1000)
    said = failed_outcome_text(step.kind, step.outcome, step.failure)
    return _("{outcome} · {duration}").format(outcome=said, duration=duration) if said else duration


def side_failure_text(step: StepFacts) -> str | None:
    """A failed step's cell where :func:`side_text` does not fit: the kind of failure alone beside the
    failed icon, and the duration ("timed out · 0.5 s"), as the timeline's Outcome cell says it in a
    narrow column (:mod:`.outcome_cell`); ``None`` for a step of no kind of failure."""
    if step.outcome != "failed" or not step.failure:
        return None
    return _("{outcome} · {duration}").format(outcome=failure_word(step.failure),
                                              duration=format_duration(step.duration_ms / 1000))


__all__ = ["CompareModel", "round_text", "side_failure_text", "side_text", "step_text"]
