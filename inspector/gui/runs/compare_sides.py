"""Under a comparison: the selected row's two steps side by side, each with its outcome, duration,
arguments and result, as plain text (read from the store when the row is chosen)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from inspector.i18n import _
from inspector.i18n.details import stored_text_said
from inspector.runs.comparing import AlignedRow, StepFacts
from inspector.store import RunStore, UnknownRunError
from inspector.store.browse import StepInFull, step_in_full

from ..language import translated
from ..widgets.plain_text import clip_text, label_text, pretty_json, pretty_payload
from .compare_model import side_text, step_text
from .stored_result import parsed_payload, with_block_lines
from .stored_text import cancelled_result_text


class StepSide(QWidget):
    """One run's step of the chosen row: a heading and its text (or that the run has no such step)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setAccessibleName(_("Step"))  # named after its run once a row is chosen
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.text, 1)

    def show_step(self, run_id: int, facts: StepFacts | None, full: StepInFull | None) -> None:
        self.text.setAccessibleName(_("Step of run {run}").format(run=run_id))
        if facts is None:
            self.heading.setText(_("Run {run}: no such step").format(run=run_id))
            self.text.setPlainText(_("Run {run} has no step here: the other run has it alone.").format(run=run_id))
            return
        if facts.round is None:  # a run without rounds (an imported trace)
            heading = _("Run {run}, step {sequence}: {step}").format(run=run_id, sequence=facts.sequence,
                                                                      step=step_text(facts))
        else:
            heading = _("Run {run}, step {sequence}: {step} (round {round})").format(
                run=run_id, sequence=facts.sequence, step=step_text(facts), round=facts.round)
        self.heading.setText(label_text(heading))
        parts = [side_text(facts)]
        if full is None:
            parts.append(_("The step is no longer stored."))
        else:
            payload = parsed_payload(full.payload_text)
            arguments = _arguments(full, payload)
            if arguments is not None or full.row.kind == "tool":
                parts += ["", _("Arguments"), arguments if arguments is not None else _("(none)")]
            result = stored_text_said(full.result_text, full.row.detail_fields)
            if full.row.outcome == "cancelled":
                result = cancelled_result_text(result, full.row.cancelled_in_flight, full.run_source)
            # The blocks that are not text (and annotated ones) in the lines the step detail says for them.
            result = with_block_lines(clip_text(result) if result else "", payload)
            parts += ["", _("Result"), result or _("(none)")]
        self.text.setPlainText("\n".join(parts))


def _arguments(full: StepInFull, payload: dict) -> str | None:
    """A tool step's arguments; the tool calls a model's step asked for (``payload``: its parsed
    payload, ``{}`` when too large to parse); else ``None``."""
    if full.arguments_json is not None:
        return pretty_payload(full.arguments_json)
    if full.row.kind != "llm":
        return None
    calls = payload.get("requestedToolCalls")
    return pretty_json(calls) if calls else None


class CompareSides(QSplitter):
    """The two steps of the chosen row, the first run's on the left."""

    def __init__(self, store: RunStore, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.store = store
        self.first, self.second = StepSide(), StepSide()
        for side in (self.first, self.second):
            self.addWidget(side)
        translated(self, "setAccessibleName", lambda: _("The chosen row's steps side by side"))

    def show_row(self, row: AlignedRow | None, first_id: int, second_id: int) -> None:
        if row is None:
            for side, run_id in ((self.first, first_id), (self.second, second_id)):
                side.text.setAccessibleName(_("Step of run {run}").format(run=run_id))
                side.heading.clear()
                side.text.setPlainText(_("Choose a row to see its two steps side by side."))
            return
        for side, run_id, facts in ((self.first, first_id, row.first), (self.second, second_id, row.second)):
            side.show_step(run_id, facts, self._read(facts))

    def _read(self, facts: StepFacts | None) -> StepInFull | None:
        if facts is None or not facts.step_id:
            return None
        try:
            return step_in_full(self.store, facts.step_id)
        except UnknownRunError:
            return None


__all__ = ["CompareSides", "StepSide"]
