"""Notes in the Runs tab: what a reviewer wrote about the selected run or step, shown under its
heading, and the dialog that writes it (an empty note removes it)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QDialog, QInputDialog, QLabel, QMessageBox, QPlainTextEdit, QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import translate
from inspector.store import RunStore, StoreError
from inspector.store.notes import MAX_NOTE_CHARS, write_run_note, write_step_note

from ..language import translated
from ..widgets.plain_text import visible

#: How much of a long note the label under a heading shows (the dialog shows it whole).
SHOWN_CHARS = 400
#: How many of a note's lines the label shows (a customer's note and support's answer under it, say).
SHOWN_LINES = 5


def note_lines(note: str) -> str:
    """A note as the label under a heading shows it: its lines as written (blank ones left out), each
    with its controls visible, at most :data:`SHOWN_LINES` of them and :data:`SHOWN_CHARS` characters,
    cut with "…". A note's lines are its parts: the customer's words, then support's answer."""
    lines = [visible(line.replace("\t", " ")).strip() for line in note[:SHOWN_CHARS + 1].splitlines()]
    lines = [line for line in lines if line]
    text = "\n".join(lines[:SHOWN_LINES])
    cut = len(lines) > SHOWN_LINES or len(note) > SHOWN_CHARS
    return text[:SHOWN_CHARS - 1] + "…" if cut else text


class NoteLabel(QLabel):
    """A note under a heading, as plain text on a quiet band; hidden when there is none."""

    def __init__(self, name: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # A band of its own that reads in greyscale too: a dark edge on a light ground.
        self.setStyleSheet("QLabel { background: #F6F1DE; color: #2B2B2B; border-left: 4px solid #7A6A2E;"
                           " padding: 3px; }")
        translated(self, "setAccessibleName", name)
        self.note = ""
        self.hide()

    def show_note(self, note: str) -> None:
        self.note = note
        self.setText(_("Note: {note}").format(note=note_lines(note)) if note else "")
        self.setVisible(bool(note))


class _NoteDialog(QInputDialog):
    """Qt's text dialog, opening with the cursor after the note there is rather than all of it selected:
    what is typed is written under it (support's answer to a customer's note, which the customer's import
    then takes), and the first key pressed no longer wipes out the customer's words."""

    def setVisible(self, visible: bool) -> None:  # noqa: N802
        super().setVisible(visible)  # selects the whole text as it shows
        if visible:
            for editor in self.findChildren(QPlainTextEdit):
                editor.moveCursor(QTextCursor.MoveOperation.End)


def ask_for_note(parent: QWidget, title: str, question: str, current: str) -> str | None:
    """The note the user typed (``""`` to remove it), or ``None`` when they cancelled. Its lines wrap at
    the editor's width, as a note's words are read (Qt's own multi-line dialog kept each paragraph on one
    line, scrolled sideways)."""
    dialog = _NoteDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setLabelText(question)
    dialog.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput)
    dialog.setTextValue(current)
    for editor in dialog.findChildren(QPlainTextEdit):
        editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        editor.setTabChangesFocus(True)  # Tab goes on to OK: a note has no use for a tab character
        editor.setAccessibleName(title)  # Qt's dialog names its editor nothing
        editor.setAccessibleDescription(question)
    try:
        return dialog.textValue() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()


class NoteWriter(QObject):
    """Writes the notes the user asks for; says what happened."""

    #: A note was written: the run's id (its list row and heading read again).
    run_note_written = Signal(int)
    #: A step's note was written: the step's id.
    step_note_written = Signal(int)
    #: A sentence for the tab's status line: a callable making it in the current language.
    said = Signal(object)

    def __init__(self, store: RunStore, host: QWidget) -> None:
        super().__init__(host)
        self.store = store
        self.host = host

    def edit_run_note(self, run_id: int, current: str) -> None:
        text = ask_for_note(self.host, _("Note on run {id}").format(id=run_id),
                            _("What you found (at most {limit} characters; empty removes the note):").format(
                                limit=format_number(MAX_NOTE_CHARS)), current)
        if text is None:
            return
        if self._written(lambda: write_run_note(self.store, run_id, text)):
            self.run_note_written.emit(run_id)
            self.said.emit(lambda: _("The note of run {id} was saved.").format(id=run_id) if text.strip() else
                           _("The note of run {id} was removed.").format(id=run_id))

    def edit_step_note(self, step_id: int, sequence: int, current: str) -> None:
        text = ask_for_note(self.host, _("Note on step {sequence}").format(sequence=sequence),
                            _("What you found (at most {limit} characters; empty removes the note):").format(
                                limit=format_number(MAX_NOTE_CHARS)), current)
        if text is None:
            return
        if self._written(lambda: write_step_note(self.store, step_id, text)):
            self.step_note_written.emit(step_id)
            self.said.emit(lambda: _("The note of step {sequence} was saved.").format(sequence=sequence)
                           if text.strip() else _("The note of step {sequence} was removed.").format(sequence=sequence))

    def _written(self, write: Callable[[], object]) -> bool:
        try:
            write()
        except StoreError as exc:
            box = QMessageBox(QMessageBox.Icon.Warning, _("Run Inspector"), visible(translate(exc.sentence)),
                              QMessageBox.StandardButton.Ok, self.host.window())
            box.setTextFormat(Qt.TextFormat.PlainText)
            box.setWindowModality(Qt.WindowModality.WindowModal)
            box.open()
            return False
        return True
