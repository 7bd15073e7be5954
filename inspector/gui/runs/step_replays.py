"""A step and a replay of it, side by side in the step detail's Result tab.

A step that was replayed shows its own result and, beside it, one of its replays' (the newest, or
the one chosen); a replay shows its result beside the step it replays. Each side names its run and
step, its outcome and duration, and its result as plain text; a line above says whether the two
agree (outcome, result, duration), always as the replay against the step it replays. Nothing of
this shows for a step that has no replay and is none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.details import stored_text_said
from inspector.i18n.replays import ALIKE_MS, replay_of_text, replay_verdict, replayed_as_text
from inspector.runs.replaying import NotReplayable, ReplayLink, ReplayPlan, plan_replay, same_structure
from inspector.store import RunStore, StoreError
from inspector.store.browse import StepInFull, step_in_full
from inspector.store.replays import replay_step_ids, replayed_step_id

from ..language import on_language_changed, translated
from ..widgets.outcomes import outcome_word
from ..widgets.plain_text import clip_text
from ..widgets.said_line import Words
from .runs_model import format_duration
from .stored_result import parsed_payload, with_block_lines


@dataclass(frozen=True)
class _Side:
    run_id: int
    step: StepInFull
    #: The step's payload as parsed (``{}``: none, or too large to parse): its blocks are named.
    payload: dict = field(default_factory=dict)


def _read_side(run_id: int, step: StepInFull) -> _Side:
    return _Side(run_id, step, parsed_payload(step.payload_text))


class ReplaySides(NamedTuple):
    """A step, the steps beside it (its replays, or the step it replays), and the line's words."""

    this: _Side
    others: list[_Side]
    is_replay: bool
    line_text: tuple[str, object]


def read_replays(store: RunStore, step: StepInFull, payload: dict) -> ReplaySides:
    """``step``'s replays, or the step it replays (``payload``: its parsed payload), from the store."""
    this = _Side(step.run_id, step, payload)
    link = ReplayLink.from_payload(payload.get("replayOf"))
    if link is not None:  # a replay: the step it replays beside it
        found = replayed_step_id(store, link)
        others = [_read_side(found[0], step_in_full(store, found[1]))] if found is not None else []
        return ReplaySides(this, others, True, ("of", (found[0] if found else None, link.sequence)))
    run = store.get_run(step.run_id)
    ids = replay_step_ids(store, ReplayLink(run.uid, step.row.sequence))
    others = [_read_side(run_id, step_in_full(store, step_id)) for run_id, step_id in ids]
    return ReplaySides(this, others, False, ("as", [(side.run_id, side.step.row.outcome) for side in others]))


def _plain_label(bold: bool = False) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    if bold:
        font = label.font()
        font.setBold(True)
        label.setFont(font)
    return label


class _SideView(QWidget):
    """One side: which step it is, how it ended, its result."""

    def __init__(self, name: Callable[[], str]) -> None:
        super().__init__()
        self.heading = _plain_label(bold=True)
        self.summary = _plain_label()
        self.result = QPlainTextEdit()
        self.result.setReadOnly(True)
        translated(self.result, "setAccessibleName", name)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.heading)
        layout.addWidget(self.summary)
        layout.addWidget(self.result, 1)

    def show_side(self, title: str, side: _Side) -> None:
        self.heading.setText(title)
        self.summary.setText(_side_summary(side))
        # A sentence of ours at its head (kept as data beside the English) in the reader's language.
        shown = stored_text_said(side.step.result_text, side.step.row.detail_fields)
        # Its blocks that are not text (and annotated ones), as the step detail names them.
        shown = with_block_lines(clip_text(shown), side.payload)
        self.result.setPlainText(shown or _("This step has no result text."))


class ReplaysView(QWidget):
    """Above the Result tab's text: which replays there are (or which step this one replays), the
    one shown beside, and how the two compare. :attr:`this_heading` and :attr:`this_summary` name
    the step's own result, :attr:`other` is the side shown beside it. :meth:`show_for` fills them
    for the selected step; all are hidden for a step that has no replay and is none."""

    #: "Show that run" was pressed: the other side's run id.
    open_run = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.line = _plain_label()
        translated(self.line, "setAccessibleName", lambda: _("Replays of the step"))
        self.choice = QComboBox()
        translated(self.choice, "setAccessibleName", lambda: _("The replay shown beside the step"))
        self.choice.currentIndexChanged.connect(self._chosen)
        self.verdict = _plain_label(bold=True)
        translated(self.verdict, "setAccessibleName", lambda: _("How the two compare"))
        self.show_run = translated(QPushButton(), "setText", lambda: _("Show that run"))
        self.show_run.clicked.connect(lambda: self._other and self.open_run.emit(self._other.run_id))
        self.this_heading = _plain_label(bold=True)
        self.this_summary = _plain_label()
        self.other = _SideView(lambda: _("The result beside the step's"))
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.line, 1)
        top.addWidget(self.choice)
        top.addWidget(self.show_run)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.verdict)
        self._this: _Side | None = None
        self._others: list[_Side] = []
        self._other: _Side | None = None
        self._is_replay = False
        self._line_text: tuple[str, object] = ("", None)
        self.show_for(None, None, {})
        on_language_changed(self, self._refresh)

    def show_for(self, store: RunStore | None, step: StepInFull | None, payload: dict) -> None:
        """Fill the parts for ``step`` (its parsed ``payload``); hide them when it has no replay."""
        sides = None
        if store is not None and step is not None:
            try:
                sides = read_replays(store, step, payload)
            except StoreError:
                sides = ReplaySides(_Side(step.run_id, step), [], False, ("", None))
        self.show_sides(sides)

    def show_sides(self, sides: ReplaySides | None) -> None:
        """Fill the parts from the sides read (here or by a reader thread); ``None``: no step."""
        self._this, self._others, self._is_replay = None, [], False
        if sides is not None:
            self._this, self._others, self._is_replay, self._line_text = sides
        self.choice.blockSignals(True)
        self.choice.clear()
        for side in self._others:
            self.choice.addItem(str(side.run_id), side.run_id)
        self.choice.setCurrentIndex(len(self._others) - 1)
        self.choice.blockSignals(False)
        self.choice.setVisible(len(self._others) > 1)
        for part in (self, self.this_heading, self.this_summary, self.other):
            part.setVisible(bool(self._others))
        self._chosen()

    def _chosen(self, _index: int = -1) -> None:
        index = self.choice.currentIndex()
        self._other = self._others[index] if 0 <= index < len(self._others) else None
        self._refresh()

    def _refresh(self) -> None:
        this, other = self._this, self._other
        if this is None or other is None:
            return
        how, data = self._line_text
        self.line.setText(replay_of_text(*data) if how == "of" else replayed_as_text(data))  # type: ignore[misc]
        self.this_heading.setText(_("This step"))
        self.this_summary.setText(_side_summary(this))
        if self._is_replay:
            self.other.show_side(_("Original (run {run}, step {step})").format(
                step=other.step.row.sequence, run=other.run_id), other)
            self.verdict.setText(verdict(other, this))
        else:
            self.other.show_side(_("Replay (run {run})").format(run=other.run_id), other)
            self.verdict.setText(verdict(this, other))


def _side_summary(side: _Side) -> str:
    row = side.step.row
    return " · ".join(part for part in (outcome_word(row.outcome) if row.outcome else "",
                                         format_duration(row.duration_ms / 1000)) if part)


def verdict(original_side: _Side, replay_side: _Side) -> str:
    """How a replay compares with the step it replays, in a sentence (the same result: the same text, and
    the same structured content where both kept some)."""
    original, replay = original_side.step, replay_side.step
    same = (original.result_text == replay.result_text and original.result_length == replay.result_length
            and same_structure(original_side.payload, replay_side.payload))
    return replay_verdict(original.row.outcome, replay.row.outcome, same, original.row.duration_ms,
                          replay.row.duration_ms)


def replay_plan(store: RunStore, step: StepInFull | None, say: Callable[[Words], None]) -> ReplayPlan | None:
    """What replaying ``step`` sends, read from the store; ``None`` (and ``say`` told why, as words made again
    in a new language) when it cannot."""
    if step is None:
        return None
    try:
        run = store.get_run(step.run_id)
        stored = store.step_at(step.run_id, step.row.sequence)
        if stored is None or stored.damage:
            raise NotReplayable(stored.damage if stored else "")
        return plan_replay(run.uid, run.source, run.server, step.row.sequence, stored.step, run.origin)
    except (StoreError, NotReplayable):
        sequence = step.row.sequence
        say(lambda: _("Step {step} cannot be replayed: only a stored tool step that can be read can be.").format(
            step=sequence))
        return None


__all__ = ["ALIKE_MS", "ReplaySides", "ReplaysView", "read_replays", "replay_plan", "verdict"]
