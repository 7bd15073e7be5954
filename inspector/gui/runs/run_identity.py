"""Under the selected run's heading: its uid (the run's across databases, where its number is one
database's: an import numbers runs anew) with Copy uid, and where an imported run came from.

Support staff match runs across machines by the uid; ``runs show UID`` finds a run by it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QApplication, QHBoxLayout, QToolButton, QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_number
from inspector.store import RunRecord

from ..language import on_language_changed, translated
from ..widgets.elided_label import ElidedLabel
from ..widgets.plain_text import cell_text

#: How much of a long origin (a file's name) the line shows; its tooltip has it whole.
ORIGIN_CHARS = 80


class RunIdentity(QWidget):
    """The selected run's uid and origin, the origin cut with "…" where the line has no room (its tip
    has it whole) and the uid always whole (the line is never narrower), with Copy uid; hidden without
    a run, and where its pane gives it no room (:meth:`set_room`: a low window keeps the line for a step)."""

    #: A sentence for the tab's status line (what Copy uid put on the clipboard).
    said = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.run: RunRecord | None = None
        self._room = True
        self.line = ElidedLabel()
        translated(self.line, "setAccessibleName", lambda: _("Run uid"))
        self.copy_button = translated(QToolButton(), "setText", lambda: _("Copy uid"))
        translated(self.copy_button, "setAccessibleName", lambda: _("Copy the selected run's uid"))
        translated(self.copy_button, "setToolTip", lambda: _(
            "The uid names the run on every machine (its number belongs to this database)"))
        # Flat and no higher than the line: a low window keeps its room for the steps.
        self.copy_button.setAutoRaise(True)
        self.copy_button.setMaximumHeight(self.line.sizeHint().height())
        self.copy_button.clicked.connect(self.copy_uid)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.line, 1)
        layout.addWidget(self.copy_button)
        self.show_run(None)
        on_language_changed(self, self._show_again)

    def set_room(self, room: bool) -> None:
        """Whether the pane has room for the line (it shows only then, and only with a run)."""
        if room != self._room:
            self._room = room
            self.setVisible(room and self.run is not None)

    def _show_again(self) -> None:
        self.show_run(self.run)

    def show_run(self, run: RunRecord | None) -> None:
        self.run = run
        self.setVisible(run is not None and self._room)
        if run is None:
            self.line.setText("")
            self.line.setToolTip("")
            self.line.setMinimumWidth(1)
            return
        if run.source == "imported" and run.origin:
            origin = cell_text(run.origin, ORIGIN_CHARS)
            text = _("uid {uid} · imported from {origin}").format(uid=run.uid, origin=origin)
            # The origin gives way first: the uid is what the line is for (it was cut in a narrow pane).
            start = text.rfind(origin)
            self.line.set_text_shortening(text, start, start + len(origin))
        else:
            self.line.setText(_("uid {uid}").format(uid=run.uid))
        self._keep_uid_whole()

    def _keep_uid_whole(self) -> None:
        """The line never narrower than the uid and a "…" after it (the rest of the line is cut before it)."""
        if self.run is None:
            return
        text = self.line.text()
        least = text[:text.find(self.run.uid) + len(self.run.uid)] + " …"
        self.line.setMinimumWidth(self.fontMetrics().horizontalAdvance(least) + 2)  # the line has our font

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # View › Zoom: the uid needs more room, or less
            self._keep_uid_whole()
            # The button's words in the new size (they were cut at the foot at 150 %).
            self.copy_button.setMaximumHeight(max(self.line.sizeHint().height(), self.fontMetrics().height()))

    def copy_uid(self) -> str:
        """Put the run's uid on the clipboard and say so; return the sentence."""
        if self.run is None:
            return ""
        QApplication.clipboard().setText(self.run.uid)
        run_id, uid = self.run.id, self.run.uid

        def words() -> str:  # made again in a new language
            return _("Copied the uid of run {id}: {uid}").format(id=format_number(run_id), uid=uid)

        self.said.emit(words)
        return words()


__all__ = ["RunIdentity"]
