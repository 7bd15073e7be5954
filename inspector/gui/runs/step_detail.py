"""The detail of one timeline step: arguments, result, structured content, legs, raw payload.

Everything shown came from a server, a tool, a model or a file: it goes into plain-text widgets,
bounded by :mod:`inspector.gui.widgets.plain_text`. The legs are replayed in the same budget bar as the
live view; a cancel in flight says that the remote effect is unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.words import stored_outcome_text
from inspector.runs.ending import UNRECORDED
from inspector.store.browse import StepInFull
from inspector.traces.chat_words import conversation_lines

from ..language import on_language_changed, translated, translated_tab
from ..widgets.budget_bar import BudgetBar
from ..widgets.budget_state import legs_status, why_no_deadline
from ..widgets.fitted_tabs import FittedTabs
from ..widgets.image_view import ImageStrip, ShownImage
from ..widgets.plain_text import cell_text, clip_text, pretty_json, pretty_payload, visible
from ..widgets.server_exchanges import server_exchange_lines
from ..widgets.wire_view import WireView
from .notes import NoteLabel
from .runs_model import format_duration
from .shown_words import empty_result_sentence, remote_effect_sentence, step_heading
from .span_facts import service_of
from .span_view import SpanView
from .step_replays import ReplaysView
from .step_wire import has_process_output, stderr_text, wire_summary, with_legs
from .stored_result import parsed_payload, with_block_lines
from .stored_text import result_said


def _text_view(name: str) -> QPlainTextEdit:
    view = QPlainTextEdit()
    view.setReadOnly(True)
    view.setAccessibleName(name)
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    return view


class StepDetail(QWidget):
    """Shows one :class:`StepInFull` (or a hint when no step is selected)."""

    #: "Look up task" was pressed: the step's task handle (``taskId``, ``server``, ``sessionId``?).
    task_lookup = Signal(object)
    #: A sentence for the tab's status line (what a Copy button put on the clipboard).
    said = Signal(object)
    #: "Replay" was pressed: call the step's tool again (the step is :attr:`step`).
    replay_wanted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.step: StepInFull | None = None
        self.heading = QLabel(_("Select a step to see its detail."))
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        translated(self.heading, "setAccessibleName", lambda: _("Step"))
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        translated(self.summary, "setAccessibleName", lambda: _("Step summary"))
        # How the server was reached (transport, revision, command line): a line under the summary.
        self.wire = QLabel()
        self.wire.setTextFormat(Qt.TextFormat.PlainText)
        self.wire.setWordWrap(True)
        translated(self.wire, "setAccessibleName", lambda: _("How the server was reached"))
        self.remote_effect = translated(QLabel(), "setText", remote_effect_sentence)
        self.remote_effect.setTextFormat(Qt.TextFormat.PlainText)
        self.remote_effect.setWordWrap(True)
        self.remote_effect.setStyleSheet("QLabel { background: #E5F1F8; border-left: 4px solid #0072B2;"
                                         " padding: 4px; }")
        translated(self.remote_effect, "setAccessibleName", lambda: _("Remote effect unknown"))
        self.bar = BudgetBar()
        translated(self.bar, "setAccessibleName", lambda: _("Legs of the step"))
        self.arguments = translated(_text_view(""), "setAccessibleName", lambda: _("Arguments"))
        self.result = translated(_text_view(""), "setAccessibleName", lambda: _("Result"))
        self.structured = translated(_text_view(""), "setAccessibleName", lambda: _("Structured content"))
        self.payload = translated(_text_view(""), "setAccessibleName", lambda: _("Raw payload"))
        self.server_side = translated(_text_view(""), "setAccessibleName", lambda: _("What the server asked"))
        self.stderr = translated(_text_view(""), "setAccessibleName", lambda: _("What the server wrote on stderr"))
        self.tabs = FittedTabs()
        translated(self.tabs, "setAccessibleName", lambda: _("Step detail"))
        # The Result tab: the text, and under it the pictures the step kept (its image artifacts); beside
        # it a replay's result (or the replayed step's), with how the two compare above.
        self.images = ImageStrip()
        self.replays = ReplaysView()
        translated_tab(self.tabs, _result_page(self.result, self.images, self.replays), lambda: _("Result"))
        translated_tab(self.tabs, self.arguments, lambda: _("Arguments"))
        translated_tab(self.tabs, self.structured, lambda: _("Structured"))
        translated_tab(self.tabs, self.server_side, lambda: _("Server"))
        # What went over the wire, leg by leg (a step with legs only).
        self.exchanges = WireView()
        self.exchanges.said.connect(self.said)
        translated_tab(self.tabs, self.exchanges, lambda: _("Wire"))
        translated_tab(self.tabs, self.stderr, lambda: _("stderr"))
        translated_tab(self.tabs, self.payload, lambda: _("Payload"))
        # A step from a trace: its span's attributes and events, its two sides (hidden for our own steps).
        self.span = SpanView(self.tabs, self)
        self.span.said.connect(self.said)
        self.copy_result = translated(QPushButton(), "setText", lambda: _("Copy result"))
        translated(self.copy_result, "setAccessibleName", lambda: _("Copy the result text"))
        self.copy_result.clicked.connect(self.copy_result_text)
        self.copy_payload = translated(QPushButton(), "setText", lambda: _("Copy payload"))
        translated(self.copy_payload, "setAccessibleName", lambda: _("Copy the raw payload as JSON"))
        self.copy_payload.clicked.connect(self.copy_payload_text)
        # A step that ran as a task can look it up again (a timed-out one may have finished since).
        self.look_up_task = translated(QPushButton(), "setText", lambda: _("Look up task"))
        translated(self.look_up_task, "setAccessibleName", lambda: _("Look the step's task up again on its server"))
        self.look_up_task.clicked.connect(lambda: self.task_lookup.emit(self._task))
        self._task: dict[str, Any] | None = None
        #: The shown step's payload as parsed ({} when none, or too large to parse).
        self.parsed: dict[str, Any] = {}
        #: Whether the shown step's run has rounds (a run of one operation has none: no "round 0").
        self.rounds = True
        self.note = NoteLabel(lambda: _("Note on the step"))
        self.replay = translated(QPushButton(), "setText", lambda: _("Replay"))
        translated(self.replay, "setAccessibleName", lambda: _("Call this step's tool again with the same arguments "
                                                               "and budget"))
        self.replay.clicked.connect(self.replay_wanted)
        self.note_button = translated(QPushButton(), "setText", lambda: _("Note…"))
        translated(self.note_button, "setAccessibleName", lambda: _("Write a note on this step"))
        translated(self.note_button, "setToolTip", lambda: _("Write a note on this step (Shift+F2)"))
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.look_up_task)
        buttons.addStretch(1)
        buttons.addWidget(self.copy_result)
        buttons.addWidget(self.copy_payload)
        layout = QVBoxLayout(self)
        # Tight: beside the timeline at the default size the detail has about 270 px of height.
        layout.setContentsMargins(4, 0, 4, 4)
        layout.setSpacing(3)
        # Note… and Replay beside the step's name: the buttons' row under the tabs has no room to spare (with
        # Note… there, it was the detail's least width in German, 20 px more than its tabs' names need).
        heading = QHBoxLayout()
        heading.setContentsMargins(0, 0, 0, 0)
        heading.addWidget(self.heading, 1)
        heading.addWidget(self.note_button, 0, Qt.AlignmentFlag.AlignTop)
        heading.addWidget(self.replay, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(heading)
        layout.addWidget(self.note)
        layout.addWidget(self.summary)
        layout.addWidget(self.wire)
        layout.addWidget(self.remote_effect)
        layout.addWidget(self.span.sides)
        layout.addWidget(self.span.disagreement)
        layout.addWidget(self.bar)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(buttons)
        self._result_text = ""
        self._payload_text = ""
        self.show_step(None)
        on_language_changed(self, self._show_again)

    def _show_again(self) -> None:
        self.show_step(self.step)

    def show_step(self, step: StepInFull | None) -> None:
        self.step = step
        has_step = step is not None
        for widget in (self.tabs, self.copy_result, self.copy_payload, self.note_button):
            widget.setEnabled(has_step)
        if step is None:
            self.heading.setText(_("Select a step to see its detail."))
            self.summary.setText("")
            self.wire.hide()
            self.remote_effect.hide()
            self.bar.hide()
            for view in (self.arguments, self.result, self.structured, self.server_side, self.stderr, self.payload):
                view.setPlainText("")
            self.tabs.setTabVisible(self.tabs.indexOf(self.stderr), False)
            self.tabs.setTabVisible(self.tabs.indexOf(self.exchanges), False)
            self.exchanges.show_legs([])
            self._result_text = self._payload_text = ""
            self.images.show_images([])
            self._task, self.parsed = None, {}
            self.look_up_task.hide()
            self.replay.hide()
            self.replays.show_for(None, None, {})
            self.note.show_note("")
            self.span.show_span({}, "", 0)
            return
        self.note.show_note(step.note)
        row = step.row
        payload = parsed_payload(step.payload_text)
        task = payload.get("task")
        self._task = task if isinstance(task, dict) and isinstance(task.get("taskId"), str) else None
        self.look_up_task.setVisible(self._task is not None)
        name = payload.get("toolName") if isinstance(payload.get("toolName"), str) else ""
        self.replay.setVisible(row.kind == "tool" and bool(name))
        self.parsed = payload
        self.heading.setText(step_heading(row.sequence, row.kind, name))
        parts = [_("round {round}").format(round=format_number(row.round))] if self.rounds else []
        parts.append(_("unfinished") if row.unfinished else format_duration(row.duration_ms / 1000))
        # In the Outcome column's words: a tool call whose source recorded no outcome says "not recorded";
        # a failed one its kind of failure where its legs, or the importer, tell it ("failed: timed out").
        outcome = stored_outcome_text(row.kind, row.outcome, step.legs, payload)
        if outcome:
            parts.append(outcome)
        if row.legs:
            parts.append(ngettext("{count} leg", "{count} legs", row.legs).format(count=row.legs))
        if service_of(payload):
            parts.append(_("service {service}").format(service=cell_text(service_of(payload), 80)))
        self.summary.setText(" · ".join(parts))
        self.span.show_span(payload, row.outcome, row.sequence)
        wired = with_legs(payload, step.legs)  # its legs say whether the server answered
        wire = wire_summary(wired)
        self.wire.setText(wire)
        self.wire.setVisible(bool(wire))
        self.stderr.setPlainText(stderr_text(wired))
        # Only a step that has something of a process to show gets its tab: beside the timeline six
        # tabs fit only with their longer names cut (the tabs fit their room, see widgets/fitted_tabs.py).
        self.tabs.setTabVisible(self.tabs.indexOf(self.stderr), has_process_output(payload))
        self.remote_effect.setVisible(row.outcome == "cancelled" and row.cancelled_in_flight is True)
        if step.legs:
            budget = max((leg.granted_s or 0 for leg in step.legs[:1]), default=0) or \
                sum((leg.elapsed_ms or 0) for leg in step.legs) / 1000 or 1.0
            # A call whose source recorded no outcome is said so, never drawn ok (a request step has
            # none of its own: its legs tell how it ended).
            ending = row.outcome or (UNRECORDED if row.kind == "tool" else legs_status(step.legs))
            # The bar spends the step's whole duration, as the header says it: the deadline counts
            # the time between the legs too.
            # Legs granted no time (the agent's own, passed through; another tool's) had no deadline:
            # the bar says so rather than make one of their duration.
            self.bar.show_legs(list(step.legs), float(budget), ending,
                               None if row.unfinished else row.duration_ms / 1000, _transport(payload),
                               why_no_deadline(step.legs, step.run_source, _budget(payload)))
            self.bar.show()
        else:
            self.bar.hide()
        self.exchanges.show_legs(list(step.legs))
        self.tabs.setTabVisible(self.tabs.indexOf(self.exchanges), bool(step.legs))
        raw = payload.get("raw")
        from_a_trace = isinstance(raw, dict) and "otlp" in raw  # another tool's span: it may record none of this
        # Result and arguments come cut by SQL: a payload of megabytes is never parsed for them.
        if step.arguments_json is None:
            # A span that kept no arguments says nothing of the call's: the trace does not know them.
            self.arguments.setPlainText(_("The trace this step came from does not record its arguments.")
                                        if from_a_trace else _("This step has no arguments."))
        else:
            self.arguments.setPlainText(pretty_payload(step.arguments_json))
        # A cancel's sentence, and a sentence of ours kept as data, are stored in English: they are
        # said in the reader's language.
        # The whole payload (when parsed) holds every note of the importer; the row's only each side's first.
        # The line saying how a joined call's two sides disagree is the band above the tabs: not said twice.
        # An answer the client never received (it had given up) is said to be the server's.
        # A cancel told by a sentence of ours kept as data (the agent's, through the proxy) says it all.
        result = shown = result_said(step.result_text, payload or row.detail_fields, row.outcome,
                                     row.cancelled_in_flight, step.run_source, whole=bool(payload))
        self._result_text = clip_text(shown) if shown else ""
        if step.result_length > len(step.result_text) and result:
            self._result_text += "\n" + _("… (cut: the text has {count} characters)").format(
                count=format_number(step.result_length))
        # The blocks that are not text (and annotated ones) in the lines `runs show` says for them.
        self._result_text = with_block_lines(self._result_text, payload)
        # A model call read from a trace: what it was asked and answered, as `runs show` says it.
        # The trace's roles and words: controls made visible, no bidi override turning the lines around.
        asked = [visible(line) for line in conversation_lines(payload)]
        if asked:
            self._result_text = "\n".join([self._result_text, "", *asked]) if self._result_text else "\n".join(asked)
        self.result.setPlainText(self._result_text or empty_result_sentence(from_a_trace))
        self.images.show_images([ShownImage(image.name, image.media_type, image.data, image.chars)
                                 for image in step.images], source=step if step.images else None)
        # The tool's own structured content first: beside a text answer, this is where it is found.
        structured = {key: payload[key] for key in ("structuredContent", "structuredContentText", "toolArtifacts",
                                                    "requestedToolCalls", "droppedSources", "writeTargetTable",
                                                    "writeTargetUid", "raw", "contextBudget")
                      if payload.get(key) is not None}
        if isinstance(structured.get("toolArtifacts"), list):
            structured["toolArtifacts"] = [_artifact_summary(artifact) for artifact in structured["toolArtifacts"]]
        self.structured.setPlainText(pretty_json(structured) if structured else
                                     _("This step has no structured content."))
        # Shown only with something in it (a span's step has nothing but its span, which the Attributes
        # and Events tabs show): the tabs must fit beside the timeline.
        self.tabs.setTabVisible(self.tabs.indexOf(self.structured),
                                bool(structured) and (self.span.otlp is None or set(structured) > {"raw"}))
        exchanges = server_exchange_lines(payload)
        asked = payload.get("serverRequests")
        if isinstance(asked, list) and asked:
            exchanges += ["", pretty_json(asked)]  # what was asked and answered, in full (as stored)
        self.server_side.setPlainText("\n".join(exchanges) if exchanges else
                                      _("The trace this step came from does not record what the server asked the "
                                        "client or logged.") if from_a_trace else
                                      _("The server asked the client nothing and sent no log messages."))
        # Six tabs do not fit beside the timeline (in German): a trace's step shows this one only when it has some.
        self.tabs.setTabVisible(self.tabs.indexOf(self.server_side), bool(exchanges) or not from_a_trace)
        if payload:
            # The legs live in their own table; the raw payload shows the step as a trace holds it.
            self._payload_text = pretty_json(with_legs(payload, step.legs))
        else:
            self._payload_text = pretty_payload(step.payload_text)
        self.payload.setPlainText(self._payload_text)

    def copy_result_text(self) -> str:
        """Put the result text on the clipboard and say so; return the sentence."""
        return self._copy(self._result_text, lambda sequence, count: ngettext(
            "Copied the result of step {sequence} ({count} character).",
            "Copied the result of step {sequence} ({count} characters).", count))

    def copy_payload_text(self) -> str:
        """Put the raw payload (JSON) on the clipboard and say so; return the sentence."""
        return self._copy(self._payload_text, lambda sequence, count: ngettext(
            "Copied the payload of step {sequence} as JSON ({count} character).",
            "Copied the payload of step {sequence} as JSON ({count} characters).", count))

    def _copy(self, text: str, sentence: Callable[[int, int], str]) -> str:
        QApplication.clipboard().setText(text)
        sequence, count = (self.step.row.sequence if self.step is not None else 0), len(text)

        def words() -> str:  # made again in a new language
            return sentence(sequence, count).format(sequence=format_number(sequence), count=format_number(count))

        self.said.emit(words)
        return words()


def _result_page(result: QPlainTextEdit, images: ImageStrip, replays: ReplaysView) -> QWidget:
    own = QWidget()
    own_layout = QVBoxLayout(own)
    own_layout.setContentsMargins(0, 0, 0, 0)
    own_layout.setSpacing(2)
    own_layout.addWidget(replays.this_heading)
    own_layout.addWidget(replays.this_summary)
    own_layout.addWidget(result, 1)
    own_layout.addWidget(images)
    sides = QSplitter(Qt.Orientation.Horizontal)
    sides.setChildrenCollapsible(False)
    sides.addWidget(own)
    sides.addWidget(replays.other)
    page = QWidget()
    layout = QVBoxLayout(page)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(replays)
    layout.addWidget(sides, 1)
    return page


def _artifact_summary(artifact: Any) -> Any:
    """An artifact with its base64 data said in words: thousands of characters of it tell a reader
    nothing (a picture is drawn in the Result tab; the Payload tab keeps the data's start)."""
    if not isinstance(artifact, dict) or not isinstance(artifact.get("data"), str):
        return artifact
    return {**artifact, "data": ngettext("({count} character of data)", "({count} characters of data)",
                                         len(artifact["data"])).format(count=format_number(len(artifact["data"])))}


def _transport(payload: dict) -> str | None:
    """How the stored step reached its server ("http", "sse", "stdio"; ``None`` when not recorded)."""
    value = payload.get("transport") if isinstance(payload, dict) else None
    return value if isinstance(value, str) else None


def _budget(payload: object) -> float | None:
    """The operation's budget the step records (``budgetS``; ``None`` when not a number)."""
    value = payload.get("budgetS") if isinstance(payload, dict) else None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


__all__ = ["StepDetail"]
