"""The Runs tab's row of filters: outcome, server, source, the search, and the buttons on the selected
runs (Delete; Compare is added before it), wrapping onto a second line in a narrow window."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPushButton

from inspector.i18n import _
from inspector.runs import RUN_SOURCES
from inspector.store.find_text import MAX_SEARCH_CHARS

from ..language import translated, translated_item
from ..widgets.accessibility import label_combo, name_clear_button
from ..widgets.fitted_placeholder import fitted_placeholder
from ..widgets.hints import readable_placeholder
from ..widgets.outcomes import outcome_icon, outcome_word
from ..widgets.wrapping_row import WrappingRow
from .runs_model import source_word

#: Milliseconds the search waits for the typing to pause before it is asked.
SEARCH_PAUSE_MS = 200


class RunFilterRow(WrappingRow):
    """The filters' widgets in a row; :attr:`changed` when one of them is chosen, or typing pauses."""

    changed = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.outcome_filter = QComboBox()
        label_combo(self.outcome_filter, lambda: _("Filter runs by outcome"))
        translated_item(self.outcome_filter, lambda: _("Every outcome"), "")
        for status in ("ok", "failed", "cancelled", "interrupted", "running"):
            translated_item(self.outcome_filter, lambda status=status: outcome_word(status), status,
                            icon=outcome_icon(status))
        self.server_filter = QComboBox()
        label_combo(self.server_filter, lambda: _("Filter runs by server"))
        self.server_filter.setMinimumContentsLength(11)
        self.server_filter.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.source_filter = QComboBox()
        label_combo(self.source_filter, lambda: _("Filter runs by source"))
        translated_item(self.source_filter, lambda: _("Every source"), "")
        for source in RUN_SOURCES:
            translated_item(self.source_filter, lambda source=source: source_word(source), source)
        self.search = QLineEdit()
        self.search.setMaxLength(MAX_SEARCH_CHARS)  # longer, SQLite refuses the pattern
        # The whole sentence where the row has the room, else "Search…" (it was cut to "T…" in German).
        fitted_placeholder(self.search, lambda: _("Search titles, servers, notes, steps…"), lambda: _("Search…"))
        translated(self.search, "setAccessibleName", lambda: _("Search runs"))
        name_clear_button(self.search, lambda: _("Clear the search"))
        readable_placeholder(self.search)
        self.delete_button = translated(QPushButton(), "setText", lambda: _("Delete…"))
        translated(self.delete_button, "setAccessibleName", lambda: _("Delete the selected runs"))
        self.addWidget(translated(QLabel(), "setText", lambda: _("Runs")))
        for combo in self.combos:
            self.addWidget(combo)
            combo.currentIndexChanged.connect(self.changed)
        self.addWidget(self.search, 1)
        self.addWidget(self.delete_button)
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(SEARCH_PAUSE_MS)
        self._typing.timeout.connect(self.changed)
        self.search.textChanged.connect(lambda _text: self._typing.start())

    @property
    def combos(self) -> tuple[QComboBox, QComboBox, QComboBox]:
        return self.outcome_filter, self.server_filter, self.source_filter

    @property
    def typing(self) -> bool:
        """Is a search typed and not yet asked (the typing has not paused)?"""
        return self._typing.isActive()

    def stop(self) -> None:
        """Forget a search typed and not yet asked."""
        self._typing.stop()

    def add_button(self, button: QPushButton) -> None:
        """Another action on the selected runs, before Delete."""
        self.insertWidget(self.indexOf(self.delete_button), button)

    def clear(self) -> None:
        """Every filter back to "every", the search empty, without saying :attr:`changed`."""
        for combo in self.combos:
            combo.blockSignals(True)
            combo.setCurrentIndex(0)
            combo.blockSignals(False)
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
