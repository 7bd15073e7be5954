"""The dialogs a server's requests open: a question (elicitation) or a sampling confirmation.

Each dialog belongs to its pending request and names the operation that carried it; it closes
when the request is withdrawn or its operation ends (finished, cancelled, out of budget). When
the user tells an operation to stop asking, its other open dialogs are declined too."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QWidget

from ..dialogs.elicitation_dialog import ElicitationDialog, SamplingDialog
from .server_requests import PendingQuestion, WindowAnswers


class QuestionDialogs(QObject):
    """Opens a dialog per pending question or sampling request, and closes it when withdrawn."""

    def __init__(self, answers: WindowAnswers, parent: QWidget) -> None:
        super().__init__(parent)
        self.window = parent
        #: The open question and sampling dialogs, by their pending request.
        self.dialogs: dict[int, QDialog] = {}
        answers.question.connect(self.ask_question)
        answers.sampling.connect(self.confirm_sampling)
        answers.withdrawn.connect(self._withdrawn)

    def ask_question(self, pending: PendingQuestion) -> ElicitationDialog:
        """Show a server's question; the dialog answers it (or the budget ends it)."""
        dialog = ElicitationDialog(pending, parent=self.window)
        self._open(pending, dialog)
        return dialog

    def confirm_sampling(self, pending: PendingQuestion) -> SamplingDialog:
        """Ask whether the server may use the model for this request."""
        dialog = SamplingDialog(pending, parent=self.window)
        self._open(pending, dialog)
        return dialog

    def _open(self, pending: PendingQuestion, dialog: ElicitationDialog | SamplingDialog) -> None:
        key = id(pending)
        self.dialogs[key] = dialog
        dialog.finished.connect(lambda _code: self.dialogs.pop(key, None))
        dialog.stop_button.clicked.connect(lambda: self._stop_asking(pending))
        if pending.withdrawn or (pending.asker is not None and pending.asker.over):
            dialog.reject()  # the operation ended while the request crossed to this thread
            return
        dialog.show()

    def _stop_asking(self, pending: PendingQuestion) -> None:
        """The user said stop: the operation's other open dialogs are declined as well."""
        for dialog in list(self.dialogs.values()):
            other = getattr(dialog, "pending", None)
            if other is not pending and other is not None and other.asker is pending.asker:
                dialog.decline()

    def _withdrawn(self, pending: PendingQuestion) -> None:
        dialog = self.dialogs.pop(id(pending), None)
        if dialog is not None:
            dialog.reject()
