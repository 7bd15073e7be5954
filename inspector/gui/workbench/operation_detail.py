"""The selected operation's detail in the Workbench: its result, and what went over the wire.

Two tabs: :class:`.result_view.ResultView`, and the shared :class:`~..widgets.wire_view.WireView`
fed with the legs that have ended so far (it grows while the operation runs: each leg appears
when it ends, with what it sent and received).
"""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from inspector.i18n import _

from ..language import on_language_changed, translated, translated_tab
from ..widgets.steady_tabs import SteadyTabs
from ..widgets.wire_view import WireView
from .link_follower import LinkFollower
from .operation_task import OperationTask
from .result_view import ResultView


class OperationDetail(SteadyTabs):
    """The Result and Wire tabs of the selected operation."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        translated(self, "setAccessibleName", lambda: _("Operation detail"))
        self.result = ResultView()
        self.links = LinkFollower()  # the resource links a tool's answer carried, to read
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.result, 1)
        layout.addWidget(self.links)
        self.wire = WireView()
        translated_tab(self, page, lambda: _("Result"))
        translated_tab(self, self.wire, lambda: _("Wire"))
        self.task: OperationTask | None = None
        self._shown_legs = -1
        # The Wire tab's titles and texts are words too (a refused probe's among them): said again
        # in the language just chosen, as the Runs tab's step detail says its step again.
        on_language_changed(self, self._say_again)

    def _say_again(self) -> None:
        self._shown_legs = -1
        self._legs_changed(self.task)

    def show_task(self, task: OperationTask | None) -> None:
        if task is not None and not getattr(task, "followed_by_wire", False):
            task.followed_by_wire = True  # one connection per task, however often it is selected
            task.changed.connect(lambda task=task: self._legs_changed(task))
        self.task = task
        self.result.show_task(task)
        self._shown_legs = -1
        self._legs_changed(task)

    def _legs_changed(self, task: OperationTask | None) -> None:
        if task is not self.task:
            return
        if task is None or not task.running or self._shown_legs < 0:
            self.links.show_task(task)  # the links are in the answer: none while it runs
        legs = task.finished_legs if task is not None else []
        if len(legs) != self._shown_legs:  # a leg ended (a repaint of the bar changes nothing here)
            if 0 <= self._shown_legs < len(legs):
                self.wire.append_legs(legs[self._shown_legs:])  # the legs shown stay as they are
            else:
                self.wire.show_legs(list(legs))
            self._shown_legs = len(legs)


__all__ = ["OperationDetail"]
