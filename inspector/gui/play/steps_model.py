"""The played run's steps as a table: round, what made the step, what it said or called, its state,
and (drawn by :class:`~.step_delegate.StepBarDelegate`) each operation's budget bar.

The model copies nothing: its texts are made when asked, from the :class:`~.run_state.PlayRun`'s rows
(a running operation's countdown changes with the clock)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from inspector.i18n import _
from inspector.i18n.details import reason_first_details
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import said_again
from inspector.i18n.words import kind_word, outcome_word

from ..language import on_language_changed
from ..widgets.budget_bar_words import ending_text, format_seconds, remaining_text
from ..widgets.outcomes import outcome_icon
from ..widgets.plain_text import clip_text, label_text, plain_tooltip, visible
from .run_state import PlayRow, PlayRun

Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("round", "maker", "what", "state", "budget")
BAR_COLUMN = COLUMNS.index("budget")
#: The role that returns the row's :class:`PlayRow`.
ROW_ROLE = Qt.ItemDataRole.UserRole + 1
_DISPLAY, _SPOKEN = int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.AccessibleTextRole)
_TOOLTIP, _DECORATION = int(Qt.ItemDataRole.ToolTipRole), int(Qt.ItemDataRole.DecorationRole)
#: The roles this model answers; a view asks for a dozen per cell at every repaint, so the others
#: are refused before anything else is looked at.
_ROLES = frozenset({_DISPLAY, _SPOKEN, _TOOLTIP, _DECORATION, int(ROW_ROLE)})
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


def headers() -> dict[str, str]:
    # "Kind", as the Runs tab's timeline and `runs show` head the same words (it read "Step" here).
    return {"round": _("Round"), "maker": _("Kind"), "what": _("What happened"), "state": _("State"),
            "budget": _("Budget")}


#: The stored kind of a played row's step: the catalogue's walk is stored as a request.
_STORED_KIND = {"model": "llm", "list": "request"}


def maker_text(row: PlayRow) -> str:
    """The step's kind in the words of the Runs tab and `runs show` ("model", "tool", "request")."""
    return kind_word(_STORED_KIND.get(row.kind, row.kind))


def what_text(row: PlayRow) -> str:
    """The model's words (and the tools it asks for), or the tool an operation calls; once its step
    is stored, what the call came to, as the Runs tab says it ("echo: Hello", "echo: Could not reach
    the server …"): a failed call says why, not only that it failed."""
    if row.kind == "model":
        if row.state == "asking" and not row.text.strip():
            return _("asking the model…")
        said = label_text(" ".join(row.text.split())) if row.text.strip() else _("(no text)")
        if row.calls:
            return _("{said} → {tools}").format(said=said, tools=visible(", ".join(row.calls)))
        return said
    if row.step is not None:
        # The catalogue's too, once stored: "tools/list: 130 tools in 13 pages", as the Runs tab says
        # it (it said "tools/list (the catalogue)" however long the walk).
        # A tool's error by the tool's own text first, as the Runs tab's Details cell says it (the whole
        # sentence, naming the tool and its server, is the tooltip).
        details = reason_first_details(row.step.to_payload(legs=False))
        if details:
            return visible(details)
    return call_text(row)


def call_text(row: PlayRow) -> str:
    """What an operation calls: the tool's name, or the catalogue (the caption over its bar)."""
    return _("tools/list (the catalogue)") if row.kind == "list" else visible(row.text)


def result_tooltip(row: PlayRow) -> str | None:
    """A tool step's whole result (its cell has the first line, cut): a failure's sentence with what
    to do, said in the reader's language where it is ours."""
    step = row.step
    if step is None or not step.tool_result:
        return None
    if row.state == "cancelled":  # its cell's note is whole, and said in the reader's language
        return plain_tooltip(what_text(row))
    return plain_tooltip(clip_text(said_again(step.tool_result, step.wording)))


#: What a measured duration stored as 0 is said as (under the smallest the display shows).
_MEASURED_NOTHING = 1e-7


def state_text(row: PlayRow, cancelling: bool = False) -> str:
    """Thinking, a running operation's countdown, or how the step ended and what it took."""
    if row.state == "asking":
        return _("answering…") if row.text.strip() else _("thinking…")
    if row.state == "unanswered":
        return _("not answered: the run ended")
    if row.kind == "model":
        if row.state == "failed":
            return outcome_word("failed")
        # A scripted model answers within microseconds: its duration, stored to the hundredth of a
        # millisecond, can be 0. It was measured all the same: "< 0.001 s", never "0 s".
        took = (row.step.duration_ms if row.step else 0) / 1000
        return _("answered in {time}").format(time=format_seconds(took if took > 0 else _MEASURED_NOTHING))
    if row.bar is None:
        return outcome_word(row.state)
    if row.running:
        if cancelling:
            return _("cancelling…")
        # Past the deadline (a leg granted whole seconds runs on) "0.3 s over", as the bar says it.
        return _("{state} · {time}").format(state=outcome_word("running"),
                                            time=remaining_text(row.bar.budget_s - row.elapsed_s()))
    ended = row.bar.ended_s if row.bar.ended_s is not None else 0.0
    # The icon beside it is the outcome's mark: the words go without theirs.
    return _("{state} · {time}").format(state=ending_text(row.bar).lstrip("✓⊘✗ "), time=format_seconds(ended))


def outcome_of(row: PlayRow) -> str | None:
    """The outcome the row's icon shows (none while it runs, none for a model's answer)."""
    if row.running or row.kind == "model" and row.state in ("ok", "unanswered"):
        return None
    return row.state


class PlayStepsModel(QAbstractTableModel):
    """One row per step of the played run (oldest first: the newest is at the bottom, followed)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.run: PlayRun | None = None
        #: The texts of rows that have ended (they no longer change): row -> (column, role) -> text.
        self._texts: dict[int, dict[tuple[int, int], str]] = {}
        on_language_changed(self, self._everything_changed)

    def show_run(self, run: PlayRun | None) -> None:
        self.beginResetModel()
        self._texts.clear()
        if self.run is not None:
            self.run.rows_added.disconnect(self._added)
            self.run.row_changed.disconnect(self._changed)
        self.run = run
        if run is not None:
            run.rows_added.connect(self._added)
            run.row_changed.connect(self._changed)
        self.endResetModel()

    def row_at(self, row: int) -> PlayRow | None:
        rows = self.run.rows if self.run is not None else []
        return rows[row] if 0 <= row < len(rows) else None

    def _added(self, first: int, last: int) -> None:
        self.beginInsertRows(QModelIndex(), first, last)
        self.endInsertRows()

    def _changed(self, row: int) -> None:
        self._forget(row)
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def row_changed_now(self, row: int) -> None:
        """Repaint ``row``'s state and bar (a running operation's clock moved, or a cancel was asked);
        none when there is no such row (a cancel before the first step: Qt warns of the range)."""
        if self.row_at(row) is None:
            return
        self._forget(row)
        self.dataChanged.emit(self.index(row, COLUMNS.index("state")), self.index(row, BAR_COLUMN))

    def _forget(self, row: int) -> None:
        found = self.row_at(row)
        if found is not None:
            self._texts.pop(id(found), None)

    def _everything_changed(self) -> None:
        self._texts.clear()
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, len(COLUMNS) - 1))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)

    # -- Qt's model interface ---------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        if parent.isValid() or self.run is None:
            return 0
        return len(self.run.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole \
                and 0 <= section < len(COLUMNS):
            return headers()[COLUMNS[section]]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        role = int(role)
        if role not in _ROLES or not index.isValid():
            return None
        row = self.row_at(index.row())
        if row is None:
            return None
        column = COLUMNS[index.column()]
        if role == ROW_ROLE:
            return row
        if role in (_DISPLAY, _SPOKEN):
            if row.running:  # its countdown moves with the clock
                return self._text(row, column, role == _SPOKEN)
            texts = self._texts.setdefault(id(row), {})
            text = texts.get((index.column(), role))
            if text is None:
                text = texts[(index.column(), role)] = self._text(row, column, role == _SPOKEN)
            return text
        if role == _TOOLTIP and column == "what" and row.kind == "model" and row.text:
            return plain_tooltip(row.text)
        if role == _TOOLTIP and column == "what" and row.kind == "tool" and row.step is not None:
            return result_tooltip(row)
        if role == _DECORATION and column == "state":
            outcome = outcome_of(row)
            return outcome_icon(outcome) if outcome else None
        return None

    def _text(self, row: PlayRow, column: str, spoken: bool) -> str:
        if column == "round":
            return format_number(row.round)
        if column == "maker":
            return maker_text(row)
        if column == "what":
            return what_text(row)
        cancelling = self.run is not None and self.run.cancel_requested_at is not None
        if column == "state":
            return state_text(row, cancelling)
        if row.bar is None:
            return ""
        # The bar is a picture: its text is for a screen reader (and the view's copy).
        return state_text(row, cancelling) if spoken else ""

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags
