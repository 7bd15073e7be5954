"""What a timeline's Kind, Duration and Source columns must fit: the words their cells said for the run shown, in the
language of the moment ("Modell" and "Tool" for a scenario's run, "verworfen" or "zusammengestellt" where a run
has such steps; "< 0,001 s" where no step took longer, "59 min 59 s" where one did; the services a trace's steps
came from, "support-agent" that read "support-a…"), so that the columns neither cut a word nor keep room for words
the run does not have: the details get it."""

from __future__ import annotations

import re

from PySide6.QtCore import QObject, QTimer, Signal

from inspector.i18n import _
from inspector.i18n.words import kind_word, step_source_word

from .runs_model import format_duration

_DIGITS = re.compile(r"\d")


class ColumnWords(QObject):
    """Collects the kinds and the durations of the steps whose cells were said for the run shown; ``grew``
    says (after the paint that found a new one) that a column's width may be another now."""

    grew = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: The kinds as stored ("llm", "tool"): said in the language of the moment by :meth:`kinds`.
        self._kinds: set[str] = set()
        #: The services a trace's steps came from ("support-agent"; cut to :data:`~inspector.i18n.words.SERVICE_CHARS`).
        self._services: set[str] = set()
        #: One duration (seconds; ``None``: unfinished) for each shape its words had ("0.000 s", "00 min 00 s"):
        #: a long run's steps have a few shapes, not a duration each.
        self._durations: dict[str, float | None] = {}

    def note_kind(self, kind: str) -> None:
        """Remember ``kind`` if it is a new one."""
        if kind not in self._kinds:
            self._kinds.add(kind)
            self._grew()

    def note_service(self, service: str) -> None:
        """Remember the service a step's Source cell said (not its maker's word, in :meth:`sources` always)."""
        if service not in self._services:
            self._services.add(service)
            self._grew()

    def note_duration(self, seconds: float | None, said: str) -> None:
        """Remember a step's duration (``None``: unfinished), ``said`` so, if no duration said alike was noted."""
        shape = _DIGITS.sub("0", said)
        if shape not in self._durations:
            self._durations[shape] = seconds
            self._grew()

    def note_steps(self, longest: list[tuple[str, float]]) -> None:
        """Remember the kinds and durations of steps read ahead of their rows (kind as stored, milliseconds:
        :func:`~inspector.store.longest_steps.longest_steps`), before a page that has them is read."""
        for kind, duration_ms in longest:
            self.note_kind(kind)
            self.note_duration(duration_ms / 1000, format_duration(duration_ms / 1000))

    def _grew(self) -> None:
        # Not while the view paints the cell: the column is fitted once the paint is done.
        QTimer.singleShot(0, self, self.grew.emit)  # not once self is gone (a test, a pane closed)

    def forget(self) -> None:
        """Another run is shown: the columns are fitted to its own words once its cells are said (a run without
        steps leaves them as they were)."""
        self._kinds.clear()
        self._services.clear()
        self._durations.clear()

    def kinds(self) -> list[str]:
        """The kinds said, in the current language."""
        return sorted(kind_word(kind) for kind in self._kinds)

    def sources(self) -> list[str]:
        """The Source column's words: the services said, and its makers' words in the current language."""
        return [step_source_word("tool"), step_source_word("llm"), *sorted(self._services)]

    def durations(self) -> list[str]:
        """The durations said, in the current language (one of each shape)."""
        return [_("unfinished") if seconds is None else format_duration(seconds)
                for seconds in self._durations.values()]


__all__ = ["ColumnWords"]
