"""The Wire tab of the step detail: what went over the wire, leg by leg.

A tree of the step's legs in order, each opening to its request and its answer (and the answer's
events, each at its time from the leg's start); the text of what is selected below it, JSON
pretty-printed (beside the tree when the tab is low and wide: under a timeline at 1,024 by 768
pixels the two one above the other showed a row and a half each); and two buttons that copy the
selected leg as JSON or as a ``curl`` command (without its secrets). Every text is plain: it is what
a server sent (see :mod:`.wire_text`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.refused_probe import legs_seen

from ..language import translated
from .plain_text import clip_text
from .wire_text import (
    answer_text,
    answer_title,
    curl_command,
    cut_text,
    event_text,
    event_title,
    exchange_json,
    exchange_of,
    leg_title,
    request_text,
    request_title,
)

#: The role an item keeps its text and its leg's number under.
_TEXT, _LEG = Qt.ItemDataRole.UserRole, Qt.ItemDataRole.UserRole + 1
#: The tree and the text stand side by side in a view at least this many times as wide as it is high
#: (and this wide): each then has the whole height. The tree takes :data:`BESIDE_TREE_SHARE` of the width.
BESIDE_FROM_RATIO = 3
BESIDE_FROM_PX = 480
BESIDE_TREE_SHARE = 2 / 5


class WireView(QWidget):
    """Shows the exchanges of a step's legs; ``said`` carries what a Copy button put on the clipboard (a
    callable that makes the sentence, again in a new language)."""

    said = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        translated(self.tree, "setAccessibleName", lambda: _("Legs and what they sent and received"))
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        translated(self.text, "setAccessibleName", lambda: _("What the selected part of the leg held"))
        self.split = split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.tree)
        split.addWidget(self.text)
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        self.copy_json = translated(QPushButton(), "setText", lambda: _("Copy as JSON"))
        translated(self.copy_json, "setAccessibleName", lambda: _("Copy the selected leg's exchange as JSON"))
        self.copy_curl = translated(QPushButton(), "setText", lambda: _("Copy as curl"))
        translated(self.copy_curl, "setAccessibleName",
                   lambda: _("Copy the selected leg's request as a curl command, without its secrets"))
        self.copy_json.clicked.connect(self.copy_leg_json)
        self.copy_curl.clicked.connect(self.copy_leg_curl)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addStretch(1)
        buttons.addWidget(self.copy_json)
        buttons.addWidget(self.copy_curl)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        self._legs: list[tuple[str, Any]] = []  # (method, exchange or None) per leg
        #: The last three legs shown and their items: a leg's title may change with the legs after it (a
        #: probe never answered is told by the ``initialize`` that follows it, one refused where no server
        #: answered by the two legs after it).
        self._recent: list[tuple[Any, QTreeWidgetItem]] = []
        self.tree.currentItemChanged.connect(self._show_item)
        # As small as the other tabs: beside the timeline the detail has little height to give.
        for part in (self.tree, self.text):
            part.setMinimumHeight(24)
        self.setMinimumHeight(1)
        self.show_legs([])

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        size = event.size()
        beside = size.width() >= max(BESIDE_FROM_PX, BESIDE_FROM_RATIO * size.height())
        wanted = Qt.Orientation.Horizontal if beside else Qt.Orientation.Vertical
        if self.split.orientation() != wanted:
            self.split.setOrientation(wanted)
            whole = max(size.width() if beside else size.height(), 2)
            first = int(whole * BESIDE_TREE_SHARE) if beside else whole // 2
            self.split.setSizes([first, whole - first])

    def show_legs(self, legs: Sequence[Any]) -> bool:
        """Show ``legs`` (``runs.Leg``); True when at least one kept its exchange."""
        self.tree.clear()
        self._legs = []
        self._recent = []
        return self.append_legs(legs)

    def _retitle_before_last(self, number: int) -> None:
        """Tell the two legs before the last one (leg ``number``) again, now that the legs after them
        are known: the one just before it by its follower (an unanswered probe, the refused POST that found
        the older transport), a probe by the two after it (refused where no server answered)."""
        recent = self._recent
        for index in range(len(recent) - 1):
            before, before_item = recent[index]
            after = recent[index + 1][0]
            title = leg_title(number - (len(recent) - 1 - index), before.method, before, exchange_of(before),
                              after.method, getattr(after, "outcome", None),
                              legs_seen([leg for leg, _item in recent[index + 1:]]))
            before_item.setText(0, title)
            before_item.setToolTip(0, title)

    def append_legs(self, legs: Sequence[Any]) -> bool:
        """Add ``legs`` after the legs shown (a running operation's, as each ends): the legs shown
        are not made again. True when at least one leg shown kept its exchange."""
        expanded = len(self._legs) <= 6
        for leg in legs:
            method, exchange = leg.method, exchange_of(leg)
            self._legs.append((method, exchange))
            number = len(self._legs)
            item = self._item(self.tree, leg_title(number, method, leg, exchange), "", number)
            self._recent = [*self._recent[-2:], (leg, item)]
            self._retitle_before_last(number)
            if exchange is None:
                item.setData(0, _TEXT, _("This leg kept nothing of what it sent and received (it was recorded "
                                         "before legs kept their exchange, or with the wire setting off)."))
                continue
            # The texts are made when an item is first shown: formatting every exchange as each leg
            # ends would spend the GUI thread's frames on JSON nobody may read.
            self._item(item, request_title(exchange), functools.partial(request_text, exchange), number)
            answer = exchange.get("answer")
            if isinstance(answer, dict):
                shown = self._item(item, answer_title(answer), functools.partial(answer_text, answer), number)
                for event in answer.get("events") or ():
                    if isinstance(event, dict):
                        self._item(shown, event_title(event), functools.partial(event_text, event), number)
            cut = cut_text(exchange)
            if cut:
                self._item(item, cut, cut, number)
            item.setData(0, _TEXT, functools.partial(exchange_json, method, exchange))
        if expanded != (len(self._legs) <= 6) or legs:
            # A few legs open, many closed (the legs shown before close once there are more than six).
            many = len(self._legs) > 6
            start = 0 if expanded and many else len(self._legs) - len(legs)
            for row in range(start, self.tree.topLevelItemCount()):
                self.tree.topLevelItem(row).setExpanded(not many)
        kept = any(exchange is not None for _, exchange in self._legs)
        if self.tree.currentItem() is None:
            if not self._legs:
                self.text.setPlainText(_("This step made no requests of its own."))
            elif not kept:
                self.text.setPlainText(_("The legs of this step kept nothing of what they sent and received."))
            else:
                self.text.setPlainText(_("Select a leg, its request or its answer to see it here."))
        self._sync_buttons()
        return kept

    def _item(self, parent: Any, title: str, text: str | Callable[[], str], number: int) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [title])
        item.setToolTip(0, title)
        item.setData(0, _TEXT, text)
        item.setData(0, _LEG, number)
        return item

    def _show_item(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None = None) -> None:
        if item is not None:
            text = item.data(0, _TEXT)
            if callable(text):
                text = text()
                item.setData(0, _TEXT, text)
            self.text.setPlainText(clip_text(text or ""))
        self._sync_buttons()

    def _selected(self) -> tuple[int, str, Any] | None:
        item = self.tree.currentItem()
        number = item.data(0, _LEG) if item is not None else None
        if not isinstance(number, int) or not 1 <= number <= len(self._legs):
            return None
        method, exchange = self._legs[number - 1]
        return (number, method, exchange) if exchange is not None else None

    def _sync_buttons(self) -> None:
        selected = self._selected()
        self.copy_json.setEnabled(selected is not None)
        self.copy_curl.setEnabled(selected is not None and curl_command(selected[2]) is not None)

    def copy_leg_json(self) -> str:
        """Put the selected leg's exchange on the clipboard as JSON; return the sentence said."""
        selected = self._selected()
        if selected is None:
            return ""
        number, method, exchange = selected
        text = exchange_json(method, exchange)
        return self._copied(text, lambda: ngettext("Copied leg {number} as JSON ({count} character).",
                                                   "Copied leg {number} as JSON ({count} characters).", len(text)),
                            number)

    def copy_leg_curl(self) -> str:
        """Put the selected leg's request on the clipboard as a curl command; return the sentence said."""
        selected = self._selected()
        command = curl_command(selected[2]) if selected is not None else None
        if selected is None or command is None:
            return ""
        return self._copied(command, lambda: _("Copied leg {number} as a curl command (without its secrets)."),
                            selected[0])

    def _copied(self, text: str, sentence: Callable[[], str], number: int) -> str:
        QApplication.clipboard().setText(text)
        count = len(text)

        def words() -> str:  # made again in a new language
            return sentence().format(number=format_number(number), count=format_number(count))

        self.said.emit(words)
        return words()


__all__ = ["WireView"]
