"""The parts of the step detail for a step imported from a trace: the Attributes and Events tabs, the
line naming the two sides of a joined call, and the band saying where they disagree.

A live step of ours has no span (``raw.otlp``): all of this is hidden for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_number

from ..language import translated, translated_tab
from ..widgets.indented_text import IndentedText
from ..widgets.plain_text import clip_text, label_text
from .span_attributes import AttributesPanel
from .span_facts import (
    SpanEvent,
    attribute_rows,
    otlp_of,
    sides_and_band,
    span_events,
    span_links,
    value_text,
)

#: How many characters of one stack trace the Events tab shows (the Payload tab and Copy payload have it whole).
STACK_CHARS = 20_000
#: How many lines of one stack trace it shows.
STACK_LINES = 200


def _indented(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def _stack(text: str) -> str:
    lines = text[:STACK_CHARS].splitlines()
    shown = "\n".join(lines[:STACK_LINES])
    if len(lines) > STACK_LINES or len(text) > STACK_CHARS:
        shown += "\n" + _("… (cut: the stack trace has {count} characters; the Payload tab has it whole)").format(
            count=format_number(len(text)))
    return shown


def _event_text(event: SpanEvent) -> str:
    where = _("server: ") if event.side == "server" else ""
    attributes = dict(event.attributes)
    if event.is_exception:
        kind = value_text(attributes.pop("exception.type", ""))
        message = value_text(attributes.pop("exception.message", ""))
        stack = value_text(attributes.pop("exception.stacktrace", ""))
        lines = [_("{offset}  {where}exception {type}").format(offset=event.offset, where=where, type=kind or "?"),
                 _indented(_("message: {message}").format(
                     message=message or _("(no message)")))]
        lines += [_indented(f"{key} = {value_text(value)}") for key, value in attributes.items()]
        if stack:
            lines += [_indented(_("stack trace:")), _indented(_stack(stack), "      ")]
        return "\n".join(lines)
    lines = [f"{event.offset}  {where}{event.name}"]
    lines += [_indented(f"{key} = {value_text(value)}") for key, value in attributes.items()]
    return "\n".join(lines)


def events_text(otlp: Mapping[str, Any]) -> str:
    """The span's events and links as plain text ("" when it has neither)."""
    parts = [_event_text(event) for event in span_events(otlp)]
    links = span_links(otlp)
    if links:
        parts.append(_("Links:"))
        for link in links:
            parts.append(_indented(_("trace {trace} span {span}").format(
                trace=value_text(link.get("traceId", "")), span=value_text(link.get("spanId", "")))))
            attributes = link.get("attributes")
            if isinstance(attributes, dict):
                parts += [_indented(f"{key} = {value_text(value)}", "      ") for key, value in attributes.items()]
    return clip_text("\n".join(parts)) if parts else ""


class SpanView(QObject):
    """Builds the span's parts of a step detail, adds its tabs to ``tabs``, and fills them per step."""

    #: A sentence for the status line (what a Copy put on the clipboard).
    said = Signal(object)

    def __init__(self, tabs: QTabWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tabs = tabs
        self.attributes = AttributesPanel()
        self.attributes.said.connect(self.said)
        # Wrapped, each line's further rows under its indent: a message or a stack trace's line is read whole.
        self.events = IndentedText()
        self.events.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        translated(self.events, "setAccessibleName", lambda: _("Events and links of the span"))
        translated_tab(tabs, self.attributes, lambda: _("Attributes"))
        translated_tab(tabs, self.events, lambda: _("Events"))
        # The two sides of a joined call: each one's service, outcome and duration.
        self.sides = QLabel()
        self.sides.setTextFormat(Qt.TextFormat.PlainText)
        self.sides.setWordWrap(True)
        translated(self.sides, "setAccessibleName", lambda: _("Client and server side"))
        # Where the sides disagree: a band unlike the cancel's (dashed all round, not a bar on the left),
        # so that the two stay apart in greyscale too.
        self.disagreement = QLabel()
        self.disagreement.setTextFormat(Qt.TextFormat.PlainText)
        self.disagreement.setWordWrap(True)
        # Its sentence is said only here (not again in the Result tab): it can be selected and copied.
        self.disagreement.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.disagreement.setStyleSheet("QLabel { background: #FBEBDD; border: 2px dashed #D55E00;"
                                        " padding: 4px; }")
        translated(self.disagreement, "setAccessibleName", lambda: _("The two sides disagree"))
        self.otlp: dict[str, Any] | None = None
        self.show_span({}, "", 0)

    def show_span(self, payload: Mapping[str, Any], outcome: str, sequence: int) -> None:
        """Show the span of a step with ``payload`` (hidden for a step that has none)."""
        otlp = self.otlp = otlp_of(payload)
        attributes_tab, events_tab = self.tabs.indexOf(self.attributes), self.tabs.indexOf(self.events)
        if otlp is None:
            self.attributes.show_rows([], sequence)
            self.events.set_text("")
            self.tabs.setTabVisible(attributes_tab, False)
            self.tabs.setTabVisible(events_tab, False)
            self.sides.hide()
            self.disagreement.hide()
            return
        self.attributes.show_rows(attribute_rows(otlp), sequence)
        self.tabs.setTabVisible(attributes_tab, True)
        events = events_text(otlp)
        self.events.set_text(events)
        self.tabs.setTabVisible(events_tab, bool(events))
        sides, band = sides_and_band(otlp, payload, outcome)
        self.sides.setText(label_text(sides))
        self.sides.setVisible(bool(sides))
        self.disagreement.setText(label_text(band))
        self.disagreement.setVisible(bool(band))


__all__ = ["SpanView", "events_text"]
