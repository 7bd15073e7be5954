"""At start-up, when the run database cannot be used: what is wrong, and what the user can do.

The window never ends silently on a bad database (someone who started it from a menu sees no
terminal): this dialog names the file and the problem and offers the ways on. It only reports
the choice; the start-up code acts on it (see :mod:`inspector.gui.database_start`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.store import StoreError
from inspector.store.faults import DamagedDatabaseError, LockedDatabaseError

from ..language import translated
from ..widgets.plain_text import label_text
from .database_choice import DatabaseChoice

DIALOG_WIDTH = 560


def choices_for(problem: StoreError) -> tuple[DatabaseChoice, ...]:
    """The ways on for this problem, the one suggested first."""
    if isinstance(problem, DamagedDatabaseError):
        return DatabaseChoice.MOVE_ASIDE, DatabaseChoice.OTHER, DatabaseChoice.QUIT
    if isinstance(problem, LockedDatabaseError):
        return DatabaseChoice.RETRY, DatabaseChoice.OTHER, DatabaseChoice.QUIT
    return DatabaseChoice.OTHER, DatabaseChoice.QUIT


def choice_label(choice: DatabaseChoice) -> str:
    return {DatabaseChoice.MOVE_ASIDE: _("Move it aside and start a fresh database"),
            DatabaseChoice.RETRY: _("Try again"),
            DatabaseChoice.OTHER: _("Open another database…"),
            DatabaseChoice.QUIT: _("Quit")}[choice]


class DatabaseProblemDialog(QDialog):
    """Says why the run database at ``path`` cannot be used and offers :func:`choices_for` it.

    ``choice`` holds the button pressed (``QUIT`` when the dialog is closed otherwise). ``from_settings``:
    ``path`` is the run database of the settings, which the sentence's --db and RUN_INSPECTOR_DB do not
    change, and it is said where it is changed for good (else each start asks again)."""

    def __init__(self, problem: StoreError, path: Path, parent: QWidget | None = None, *,
                 from_settings: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Run Inspector: the run database cannot be used"))
        self.choice = DatabaseChoice.QUIT
        layout = QVBoxLayout(self)
        heading = QLabel(_("Run Inspector cannot open its run database."))
        heading.setTextFormat(Qt.TextFormat.PlainText)
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        layout.addWidget(heading)
        # The sentence names the file and says what is wrong; a path is the user's text: plain.
        self.sentence = QLabel(label_text(translate(problem)))
        self.sentence.setTextFormat(Qt.TextFormat.PlainText)
        self.sentence.setWordWrap(True)
        self.sentence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.sentence)
        if isinstance(problem, DamagedDatabaseError):
            note = QLabel(_("Moving it aside renames the file (nothing is deleted): {name}").format(
                name=label_text(f"{path.name}.damaged-…")))
            note.setTextFormat(Qt.TextFormat.PlainText)
            note.setWordWrap(True)
            layout.addWidget(note)
        if from_settings:
            where = QLabel(_("This is the run database chosen in File › Settings…: once the window is open, "
                             "choose another there, or leave it empty for the default, so that the next start "
                             "does not ask again."))
            where.setObjectName("from-settings")
            where.setTextFormat(Qt.TextFormat.PlainText)
            where.setWordWrap(True)
            layout.addWidget(where)
        buttons = QDialogButtonBox()
        self.buttons: dict[DatabaseChoice, QPushButton] = {}
        for position, choice in enumerate(choices_for(problem)):
            role = (QDialogButtonBox.ButtonRole.RejectRole if choice is DatabaseChoice.QUIT
                    else QDialogButtonBox.ButtonRole.AcceptRole if position == 0
                    else QDialogButtonBox.ButtonRole.ActionRole)
            button = buttons.addButton("", role)
            translated(button, "setText", lambda chosen=choice: choice_label(chosen))  # as Qt's own buttons
            button.clicked.connect(lambda _checked=False, chosen=choice: self._choose(chosen))
            self.buttons[choice] = button
        self.buttons[choices_for(problem)[0]].setDefault(True)
        layout.addWidget(buttons)
        self.resize(DIALOG_WIDTH, max(self.sizeHint().height(), self.heightForWidth(DIALOG_WIDTH)))

    def _choose(self, choice: DatabaseChoice) -> None:
        self.choice = choice
        if choice is DatabaseChoice.QUIT:
            self.reject()
        else:
            self.accept()


__all__ = ["DatabaseChoice", "DatabaseProblemDialog", "choice_label", "choices_for"]
