"""What the cells of a run's timeline say: each column's words for a step in the reader's language
(kept for a while: a repaint asks each cell for several roles, and the words cost more than the
lookup), the tooltips, the waterfall's bar and its spoken form, and where a span tree's row is."""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from inspector.i18n import _, formatting
from inspector.i18n.details import localized_step_details, reason_first_details
from inspector.i18n.words import failed_outcome_text, failure_word, kind_word, step_source_word
from inspector.i18n.zone_said import time_in_zones
from inspector.runs.ending import stored_failure
from inspector.store.browse import TimelineRow

from ..language import on_language_changed
from ..widgets.plain_text import MAX_CELL_CHARS, cell_text, plain_tooltip
from .note_mark import NOTE_MARK, marked, note_tip, spoken
from .runs_model import format_duration

if TYPE_CHECKING:
    from .timeline_model import TimelineModel

#: Cell texts kept (a few screens of rows); the oldest go all at once when there are more.
TEXTS_KEPT = 4000
#: The columns fitted to the words their cells say for the run shown (:mod:`.column_words`, :mod:`.said_outcomes`).
FITTED_COLUMNS = ("source", "kind", "duration", "outcome")
#: Where the texts keep a step's kind of failure alone (:meth:`TimelineCells.failure`).
_FAILURE = "failure"


def headings() -> tuple[str, ...]:
    return (_("Time"), _("Source"), _("Kind"), _("Round"), _("Duration"), _("Outcome"), _("Details"),
            _("Waterfall"))


def step_source(kind: str, service: str = "") -> str:
    """Who made a step: the agent (model and context work) or the MCP client (requests, tool calls);
    for a step from a trace, the service its span came from."""
    return step_source_word(kind, service)


def format_time(moment: datetime | None, zone: tzinfo | None = None, dated: bool = False) -> str:
    """A step's start in the reader's time zone (or ``zone``) and language, to the millisecond; with its
    date where ``dated`` (a run over more than one day: steps two days apart read the same time of day)."""
    if moment is None:
        return ""
    say = formatting.format_datetime if dated else formatting.format_time
    return say(moment, zone=zone, milliseconds=True)


def shown_details(step: TimelineRow) -> str:
    """A step's details in the current language (the stored English when the row kept no fields)."""
    return localized_step_details(step.detail_fields) if step.detail_fields else step.details


def whole_details(step: TimelineRow) -> str:
    """The Details cell's tooltip: :func:`shown_details` as long as a cell holds (the cell's is cut shorter)."""
    return localized_step_details(step.detail_fields, MAX_CELL_CHARS) if step.detail_fields else step.details


def cell_details(step: TimelineRow) -> str:
    """What the Details cell says: :func:`shown_details`, a tool's error by the tool's own text first (the tool and
    its server have their columns; the whole sentence is the tooltip), :func:`reason_first_details`."""
    return reason_first_details(step.detail_fields) if step.detail_fields else step.details


class TimelineCells:
    """The words of one :class:`~.timeline_model.TimelineModel`'s cells, from its rows, its rounds,
    its time axis and its span tree."""

    def __init__(self, model: TimelineModel) -> None:
        self.model = model
        #: The texts of the cells painted lately, by (step id, column).
        self._texts: dict[tuple[int, str], str] = {}
        on_language_changed(model, self._language_changed)

    def _language_changed(self) -> None:
        """The cells said anew in the new language, the Outcome column's of the pages read at once (the other fitted
        columns' words are kept as stored, said in the language of the moment): said as their rows were painted,
        German -> English -> German left the column without the room of a timed-out call's "fehlgeschlagen:
        Zeitüberschreitung" further down until its row scrolled into view."""
        self._texts.clear()
        for page in self.model.pages_kept():
            for step in page:
                self.text(step, "outcome")

    def forget(self) -> None:
        """The rows changed (another run, a step still running): their words are said anew."""
        self._texts.clear()

    def text(self, step: TimelineRow, column: str) -> str:
        key = (step.id, column)
        text = self._texts.get(key)
        if text is None:
            if len(self._texts) >= TEXTS_KEPT:
                self._texts.clear()
            text = self._texts[key] = self._text(step, column)
        return text

    def say_fitted(self, rows: list[TimelineRow]) -> None:
        """Say the cells of ``rows`` (a page just read) whose columns are fitted to the words they say (Kind,
        Duration, Outcome): the columns are fitted to the page's words before its first paint, not as each row
        scrolls into view (a timed-out call further down widened the Outcome column as the keys reached it)."""
        for step in rows:
            for column in FITTED_COLUMNS:
                self.text(step, column)

    def tip(self, step: TimelineRow, column: str) -> str:
        # The kind and outcome columns are narrow ("tool_write" may be cut): a tooltip says it whole, and the
        # service of a step from a trace (the source column, which says it, hides in a narrow pane).
        if column == "time":  # whose time: this computer's zone, and the same instant in UTC, as precise as the cell
            return plain_tooltip(time_in_zones(step.started_at, milliseconds=True)) if step.started_at else ""
        if column == "details":  # the whole sentence, where the cell says the tool's own text first; the note's start
            text = cell_text(whole_details(step)) + (f"\n{note_tip(step.note)}" if step.note else "")
        else:
            text = self.waterfall_text(step) if column == "waterfall" else self.text(step, column)
        if not text:
            return ""  # a step with no outcome by nature: no tooltip
        if column in ("source", "kind") and step.service:
            text = _("{kind} · service {service}").format(kind=self.text(step, "kind"),
                                                          service=cell_text(step.service, 200))
        return plain_tooltip(text)

    def spoken_details(self, step: TimelineRow, row: int) -> str:
        """A row's details, for a screen reader: whether the step has a note (said, not its mark), and in a span
        tree its level and whether it is folded."""
        details = self.text(step, "details")
        details = spoken(details.removeprefix(f"{NOTE_MARK} "), step.note) if step.note else details
        tree = self.model.tree
        if tree is None:
            return details
        level, branch = formatting.format_number(tree.depths[row] + 1), tree.branch(row)
        if branch is None:
            where = _("level {level}").format(level=level)
        else:
            where = (_("level {level}, expanded") if branch else _("level {level}, collapsed")).format(level=level)
        return f"{details} ({where})"

    def _text(self, step: TimelineRow, column: str) -> str:
        if column == "time":
            self.model.zone_marks.note(step.started_at)
            return format_time(step.started_at, dated=self.model.dated)
        if column == "source":
            said = cell_text(step_source(step.kind, step.service), 40)
            if step.service:
                self.model.column_words.note_service(said)
            return said
        if column == "kind":
            self.model.column_words.note_kind(step.kind)
            return cell_text(kind_word(step.kind), 40)
        if column == "round":
            return formatting.format_number(step.round) if self.model.has_rounds else formatting.UNKNOWN
        if column == "duration":
            seconds = None if step.unfinished else step.duration_ms / 1000
            said = _("unfinished") if seconds is None else format_duration(seconds)
            self.model.column_words.note_duration(seconds, said)
            return said
        if column == "outcome":
            return self._outcome(step)
        return marked(cell_text(cell_details(step)), step.note)

    def failure(self, step: TimelineRow) -> str:
        """The kind of failure that the step's outcome names ("timed out"; "" for none): what an Outcome
        cell too narrow for the whole says beside the failed icon."""
        failure = self._texts.get((step.id, _FAILURE))
        if failure is None:
            self._outcome(step)
            failure = self._texts.get((step.id, _FAILURE), "")
        return failure

    def _outcome(self, step: TimelineRow) -> str:
        """The step's outcome in the words of ``runs show`` and the step detail, by the same rule: a failed
        call says its kind of failure where its legs, or the importer's finding, tell it ("failed: timed
        out"); the column is fitted to such longer words of the run it shows."""
        legs = self.model.legs_of(step)
        failure = stored_failure(step.outcome, legs, step.detail_fields)
        text = failed_outcome_text(step.kind, step.outcome, failure)  # what stored_outcome_text says
        self._texts[(step.id, _FAILURE)] = failure_word(failure) if failure else ""
        self.model.said_outcomes.note(text, self._texts[(step.id, _FAILURE)])
        return text

    def waterfall(self, step: TimelineRow) -> tuple[float, float | None, str, float]:
        """(offset from the run's start, duration or ``None`` if unfinished, outcome, axis length), seconds."""
        offset = 0.0
        start = self.model.start
        if step.started_at is not None and start is not None:
            offset = max((step.started_at - start).total_seconds(), 0.0)
        return offset, None if step.unfinished else step.duration_ms / 1000, step.outcome, self.model.span_s

    def waterfall_text(self, step: TimelineRow) -> str:
        offset, duration, _outcome, span = self.waterfall(step)
        if duration is None:
            return _("starts at {offset} of {span}; unfinished").format(
                offset=format_duration(offset), span=format_duration(span))
        return _("starts at {offset} of {span}, lasts {duration}").format(
            offset=format_duration(offset), span=format_duration(span), duration=format_duration(duration))


__all__ = ["TEXTS_KEPT", "TimelineCells", "cell_details", "format_time", "headings", "shown_details", "step_source"]
