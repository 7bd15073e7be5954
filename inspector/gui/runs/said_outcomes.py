"""What a timeline's Outcome column must fit: the outcome words of every step ("cancelled", "not
recorded", …) and the longer ones its run's failed steps said ("failed: timed out"): whole where the
details keep their room, else their kind of failure alone ("timed out", beside the failed icon), so
that the column shows each without cutting it, in German too."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from inspector.i18n.words import failed_outcome_text, failure_word, outcome_word, step_outcome_word

from ..language import on_language_changed


class SaidOutcomes(QObject):
    """Collects the Outcome column's texts longer than an outcome's word for the run shown, each with its
    kind of failure alone; ``changed`` says (after the paint that found one) that the column's width
    may be another now."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: The whole texts ("failed: timed out") and their kinds of failure ("timed out").
        self.texts: dict[str, str] = {}
        #: :meth:`usual` in the language of the moment (a page of rows read asks it for each of its steps).
        self._usual: list[str] = []
        #: The kinds of failure of the run's failed calls read ahead of their rows (:meth:`note_failures`).
        self._ahead: set[str] = set()
        # Said again in the new language, at the next paint: the old ones no longer need room.
        on_language_changed(self, self._language_changed)

    def _language_changed(self) -> None:
        self.texts.clear()
        self._usual = []
        self.note_failures(self._ahead)

    def note_failures(self, failures: set[str]) -> None:
        """Remember the texts of failed tool calls of these kinds ("timed_out": "failed: timed out"), read ahead of
        their rows (a long run's call further down that timed out widened the column as it scrolled into view)."""
        self._ahead = set(failures)
        for failure in sorted(failures):
            self.note(failed_outcome_text("tool", "failed", failure), failure_word(failure))

    def note(self, text: str, failure: str = "") -> None:
        """Remember ``text`` (of kind of failure ``failure``) if the column's usual words do not include it."""
        if text and text not in self.texts and text not in (self._usual or self.usual()):
            self.texts[text] = failure or text
            # Not while the view paints the cell: its column is fitted once the paint is done.
            QTimer.singleShot(0, self, self.changed.emit)

    def forget(self) -> None:
        """Another run is shown: its own texts will be noted as they are painted."""
        self._ahead = set()
        if self.texts:
            self.texts.clear()
            QTimer.singleShot(0, self, self.changed.emit)

    def usual(self) -> list[str]:
        """Every step's possible words without a kind of failure, in the current language."""
        self._usual = [outcome_word(outcome) for outcome in ("cancelled", "failed", "ok")] + [
            step_outcome_word("tool", None)]
        return self._usual

    def whole(self) -> list[str]:
        """The texts the column fits where it has the room."""
        return self.usual() + sorted(self.texts)

    def least(self) -> list[str]:
        """The texts it fits at least: the kinds of failure in place of the whole texts."""
        return self.usual() + sorted(set(self.texts.values()))


__all__ = ["SaidOutcomes"]
