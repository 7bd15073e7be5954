"""The budget field of the server and settings dialogs: what is typed, and at once what it means.

The client does not use a typed budget as is (:func:`inspector.mcp.read_budget`): a value below
the one-second leg floor is raised to it, and each leg is granted the time left rounded up to
whole seconds, so an operation may run up to just under a second past its budget. The field says
the budget operations will get and that rule while the user types, so that the dialog, the
workbench's header and the budget bar all name the same number.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from babel import numbers as babel_numbers
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QVBoxLayout, QWidget

from inspector.i18n import _, current_locale
from inspector.i18n.formatting import HUGE_SECONDS, format_number, format_seconds
from inspector.mcp import MAXIMUM_BUDGET_SECONDS, MINIMUM_LEG_SECONDS, BudgetVerdict, read_budget

from ..language import on_language_changed, translated
from .hints import PROBLEM_STYLE


@dataclass(frozen=True)
class BudgetEntry:
    """What the field holds: the number typed (``None`` when empty) or the problem with it."""

    given: float | None
    problem: str | None = None


def read_entry(text: str, *, empty_allowed: bool) -> BudgetEntry:
    """Read a typed budget; a decimal comma ("2,5", as written in German) is a decimal point."""
    text = text.strip().replace(",", ".")
    if not text:
        if empty_allowed:
            return BudgetEntry(None)
        return BudgetEntry(None, _("The budget must be a positive number of seconds, e.g. 20."))
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        return BudgetEntry(None, _("The budget must be a positive number of seconds, e.g. 20."))
    if seconds > MAXIMUM_BUDGET_SECONDS:  # as `--budget`: a bigger one is a typo and never ends
        return BudgetEntry(None, _("The budget can be at most {most} seconds (a week).").format(
            most=format_number(MAXIMUM_BUDGET_SECONDS)))
    return BudgetEntry(seconds)


def effective_sentence(given: float | None, default_s: float) -> str:
    """The budget operations get for ``given`` (``None``: the default applies) and the rule behind it."""
    reading = read_budget(default_s if given is None else given)
    seconds = format_seconds(reading.seconds)
    # Each leg ends before the deadline plus one second (its grant is rounded up to whole seconds).
    limit = format_seconds(reading.seconds + MINIMUM_LEG_SECONDS)
    floor = format_seconds(MINIMUM_LEG_SECONDS)
    if given is None:
        return _("Empty: the default budget applies, {seconds} s. Each request is granted the time left, "
                 "rounded up to whole seconds and at least {floor} s, so an operation may run up to just "
                 "under {limit} s.").format(seconds=seconds, floor=floor, limit=limit)
    if reading.verdict is BudgetVerdict.RAISED:
        return _("Operations get {seconds} s: {given} s is below the {floor}-second floor and is raised to it. "
                 "Each request is granted the time left, rounded up to whole seconds and at least {floor} s, "
                 "so an operation may run up to just under {limit} s.").format(
                     seconds=seconds, given=format_seconds(given), floor=floor, limit=limit)
    return _("Operations get {seconds} s. Each request is granted the time left, rounded up to whole seconds "
             "and at least {floor} s, so an operation may run up to just under {limit} s.").format(
                 seconds=seconds, floor=floor, limit=limit)


def budget_label(budget_s: object, stored: float | None = None) -> str:
    """The workbench's short line for a server's budget: the seconds the client uses, and why if raised;
    ``stored``: the budget kept for the server, when it cannot be used (the default applies)."""
    reading = read_budget(budget_s)
    if stored is not None:
        return _("Budget: {seconds} s, the default (this server's stored {stored} s cannot be used)").format(
            seconds=format_seconds(reading.seconds), stored=format_seconds(stored))
    if reading.verdict is BudgetVerdict.RAISED and reading.requested is not None:
        return _("Budget: {seconds} s ({given} s raised to the {floor}-second floor)").format(
            seconds=format_seconds(reading.seconds), given=format_seconds(reading.requested),
            floor=format_seconds(MINIMUM_LEG_SECONDS))
    return _("Budget: {seconds} s").format(seconds=format_seconds(reading.seconds))


def budget_text(seconds: float | None) -> str:
    """A budget as the field shows it: the language's decimal sign, no grouping (it must read back). One far
    beyond a week (a database of an older version may keep 1e308 s) is written as the labels write it,
    "1E308": it reads back, and is refused with the largest allowed (:func:`read_entry`), as ``--budget`` is;
    written out it had 309 digits, and from 1e19 s on the dialog did not open (decimal.InvalidOperation)."""
    if seconds is None:
        return ""
    if math.isfinite(seconds) and seconds >= HUGE_SECONDS:
        return format_seconds(seconds)
    return babel_numbers.format_decimal(seconds, format="0.#########", locale=current_locale())


class BudgetField(QWidget):
    """A budget in seconds, with the budget operations will get and the rule, said as it is typed.

    ``default_s`` is what an empty field means (``None``: empty is not allowed); a callable is
    asked each time, so a changed default shows. ``edit`` is the line edit, ``error`` the problem
    with what is typed, ``effective`` the explanation; one of the two shows, live.
    """

    def __init__(self, seconds: float | None = None, *, default_s: Callable[[], float] | None = None,
                 accessible_name: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._default_s = default_s
        self.edit = QLineEdit(budget_text(seconds))
        translated(self.edit, "setAccessibleName", accessible_name)
        if default_s is not None:
            translated(self.edit, "setPlaceholderText", lambda: _("default"))
        self.error = QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setWordWrap(True)
        self.error.setStyleSheet(PROBLEM_STYLE)
        self.error.hide()
        self.effective = QLabel()
        self.effective.setTextFormat(Qt.TextFormat.PlainText)
        self.effective.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit)
        layout.addWidget(self.error)
        layout.addWidget(self.effective)
        self.edit.textChanged.connect(self._typed)
        self._typed()
        on_language_changed(self, self._typed)

    def entry(self) -> BudgetEntry:
        return read_entry(self.edit.text(), empty_allowed=self._default_s is not None)

    def check(self) -> BudgetEntry:
        """Read the field and show what it means, or its problem, next to it."""
        entry = self.entry()
        self._show(entry)
        return entry

    def _typed(self) -> None:
        """Said again at every keystroke, and in a new language after a switch."""
        self._show(self.entry())

    def _show(self, entry: BudgetEntry) -> None:
        if entry.problem is not None:
            self.effective.hide()
            self.error.setText(entry.problem)
            self.error.show()
            self.edit.setAccessibleDescription(entry.problem)
            return
        self.error.hide()
        default = self._default_s() if self._default_s is not None else 0.0
        self.effective.setText(effective_sentence(entry.given, default))
        self.effective.show()
        # A screen reader says the explanation with the field, not only when it reaches the label.
        self.edit.setAccessibleDescription(self.effective.text())


__all__ = ["BudgetEntry", "BudgetField", "budget_label", "budget_text", "effective_sentence", "read_entry"]
