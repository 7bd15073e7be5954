"""A status line whose last sentence follows the language: a sentence given as a callable that makes
it ("Exported 6 runs to …") is made again after a switch of language, as the labels around it are;
a sentence given as text is shown as it is (its sayer says it again itself, or it is the server's).
A sentence said is also said to a screen reader at once (it said "Exported 6 runs to …" only when
the line was visited); made again in another language, it is not said again."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from ..language import on_language_changed
from .accessibility import announce
from .fitted_label import FittedLabel

#: A sentence made in the current language.
Words = Callable[[], str]


class SaidLine(FittedLabel):
    """A :class:`FittedLabel` told what to say with :meth:`say`."""

    def __init__(self, parent: QWidget | None = None, *, max_lines: int | None = None) -> None:
        super().__init__("", parent, max_lines=max_lines)
        self._words: Words | None = None
        on_language_changed(self, self._say_again)

    def say(self, words: str | Words) -> None:
        """Show ``words``: made now and again after each switch of language, or text as it is."""
        self._words = words if callable(words) else None
        self.setText(words() if callable(words) else words)
        if self.text():
            announce(self, self.text())

    def _say_again(self) -> None:
        if self._words is not None:  # "Exported 6 runs to …" stayed English in a German window
            self.setText(self._words())


__all__ = ["SaidLine", "Words"]
