"""A row of controls that wraps onto more lines where the window is narrow (a projector at 150 %, a
large font), rather than making the whole window wider than the screen.

Where the row has the room it is a QHBoxLayout: each control between its least and its wished width,
what is left to the stretching ones (a stretch added: to it). Where it has not, the controls that no
longer fit start a new line (its height is asked through heightForWidth); there a line's spare room goes
to its stretching controls only (a button alone on a line keeps its width). The row's least width is its
widest control's."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QSpacerItem, QStyle, QWidget, QWidgetItem


class WrappingRow(QLayout):
    """Lays its items out left to right, on as many lines as the width needs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._stretch: list[int] = []
        #: The width the row was last given and how many lines it took there: its least height follows
        #: them, so a splitter or a box gives the wrapped row its lines rather than laying them over the
        #: widget below (heightForWidth alone is not asked by a QSplitter).
        self._given: tuple[int, int] | None = None
        if parent is None:
            self.setContentsMargins(0, 0, 0, 0)

    # -- building ------------------------------------------------------------------------------------

    def addWidget(self, widget: QWidget, stretch: int = 0) -> None:  # noqa: N802 - as QBoxLayout's
        self.insertWidget(len(self._items), widget, stretch)

    def insertWidget(self, index: int, widget: QWidget, stretch: int = 0) -> None:  # noqa: N802
        self.addChildWidget(widget)
        self._insert(index, QWidgetItem(widget), stretch)

    def addStretch(self, stretch: int = 1) -> None:  # noqa: N802
        spacer = QSpacerItem(0, 0, QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
        self._insert(len(self._items), spacer, stretch)

    def _insert(self, index: int, item: QLayoutItem, stretch: int) -> None:
        self._items.insert(index, item)
        self._stretch.insert(index, stretch)
        self.invalidate()

    # -- QLayout -------------------------------------------------------------------------------------

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802
        self._insert(len(self._items), item, 0)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        if not 0 <= index < len(self._items):
            return None
        self._stretch.pop(index)
        item = self._items.pop(index)
        self.invalidate()
        return item

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802
        return Qt.Orientation.Horizontal

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return self._arrange(QRect(0, 0, width, 0), place=False)

    def sizeHint(self) -> QSize:  # noqa: N802 - one line, every control as wide as it wishes
        shown = self._shown()
        gaps = self._gap(Qt.Orientation.Horizontal) * _gaps(shown)
        width = sum(item.sizeHint().width() for item, _stretch in shown) + gaps
        height = max((item.sizeHint().height() for item, _stretch in shown), default=0)
        return self._with_margins(QSize(width, height))

    def minimumSize(self) -> QSize:  # noqa: N802 - the widest control; the height of one line
        shown = self._shown()
        width = max((item.minimumSize().width() for item, _stretch in shown), default=0)
        if self._given is not None and self._given[1] > 1:
            return QSize(self._with_margins(QSize(width, 0)).width(), self.heightForWidth(self._given[0]))
        height = max((item.minimumSize().height() for item, _stretch in shown), default=0)
        return self._with_margins(QSize(width, height))

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        self._arrange(rect, place=True)
        margins = self.contentsMargins()
        lines = len(self._lines(rect.width() - margins.left() - margins.right()))
        before, self._given = self._given, (rect.width(), lines)
        if before is not None and before[1] != lines:
            self.invalidate()  # its least height changed: the layouts above ask again (a posted request)

    # -- the lines -----------------------------------------------------------------------------------

    def _shown(self) -> list[tuple[QLayoutItem, int]]:
        """The items laid out: the shown controls and the stretches (a spacer is "empty" to Qt)."""
        return [(item, stretch) for item, stretch in zip(self._items, self._stretch, strict=True)
                if not item.isEmpty() or item.spacerItem() is not None]

    def _gap(self, orientation: Qt.Orientation) -> int:
        if self.spacing() >= 0:
            return self.spacing()
        metric = (QStyle.PixelMetric.PM_LayoutHorizontalSpacing if orientation == Qt.Orientation.Horizontal
                  else QStyle.PixelMetric.PM_LayoutVerticalSpacing)
        parent = self.parentWidget()
        style = parent.style() if parent is not None else None
        return max(0, style.pixelMetric(metric)) if style is not None else 6

    def _with_margins(self, size: QSize) -> QSize:
        margins = self.contentsMargins()
        return QSize(size.width() + margins.left() + margins.right(),
                     size.height() + margins.top() + margins.bottom())

    def _lines(self, width: int) -> list[list[tuple[QLayoutItem, int]]]:
        """The items on each line: as many as fit at their least widths."""
        gap = self._gap(Qt.Orientation.Horizontal)
        lines: list[list[tuple[QLayoutItem, int]]] = []
        used = 0
        for entry in self._shown():
            least = entry[0].minimumSize().width()
            line = lines[-1] if lines else []
            before = gap if _gaps([*line, entry]) > _gaps(line) else 0
            # A stretch stays on the line it follows (it takes no room a control needs).
            if line and (used + before + least <= width or entry[0].spacerItem() is not None):
                lines[-1].append(entry)
                used += before + least
            else:
                lines.append([entry])
                used = least
        return lines

    def _arrange(self, rect: QRect, *, place: bool) -> int:
        """Place the items in ``rect`` (when ``place``); return the height they take, margins included."""
        margins = self.contentsMargins()
        inner = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        gap = self._gap(Qt.Orientation.Horizontal)
        y = inner.y()
        lines = self._lines(inner.width())
        for line in lines:
            height = max(item.sizeHint().height() for item, _stretch in line)
            if place:
                widths = _widths(line, inner.width() - gap * _gaps(line), wrapped=len(lines) > 1)
                x = inner.x()
                for index, ((item, _stretch), width) in enumerate(zip(line, widths, strict=True)):
                    x += gap if _gaps(line[:index + 1]) > _gaps(line[:index]) else 0
                    item.setGeometry(QRect(x, y, width, height))
                    x += width
            y += height + self._gap(Qt.Orientation.Vertical)
        if lines:
            y -= self._gap(Qt.Orientation.Vertical)
        return y - inner.y() + margins.top() + margins.bottom()


def _gaps(line: list[tuple[QLayoutItem, int]]) -> int:
    """How many gaps ``line`` has: between its controls (as in a QHBoxLayout, none beside a stretch)."""
    return max(0, sum(1 for item, _stretch in line if item.spacerItem() is None) - 1)


def _policy(item: QLayoutItem) -> int:
    widget, spacer = item.widget(), item.spacerItem()
    policy = widget.sizePolicy() if widget is not None else spacer.sizePolicy() if spacer is not None else None
    return policy.horizontalPolicy().value if policy is not None else 0


def _widths(line: list[tuple[QLayoutItem, int]], room: int, *, wrapped: bool = False) -> list[int]:
    """Each item's width on a line of ``room`` pixels: its least, then toward its wish, then the rest
    to the stretching items (as a QHBoxLayout shares it; on a ``wrapped`` row's line to stretching and
    expanding items only: buttons there keep their widths, the room after them stays empty)."""
    widths = [item.minimumSize().width() for item, _stretch in line]
    wishes = [max(item.sizeHint().width(), least) for (item, _stretch), least in zip(line, widths, strict=True)]
    spare = room - sum(widths)
    wanted = sum(wish - least for wish, least in zip(wishes, widths, strict=True))
    if spare > 0 and wanted > 0:
        share = min(1.0, spare / wanted)
        widths = [least + int((wish - least) * share) for wish, least in zip(wishes, widths, strict=True)]
        spare = room - sum(widths)
    stretches = [stretch for _item, stretch in line]
    if not any(stretches):  # as a QHBoxLayout: to the expanding items, else to every one that may grow
        flags = [QSizePolicy.PolicyFlag.ExpandFlag] + ([] if wrapped else [QSizePolicy.PolicyFlag.GrowFlag])
        for flag in flags:
            stretches = [int(bool(_policy(item) & flag.value)) for item, _stretch in line]
            if any(stretches):
                break
    total = sum(stretches)
    if spare > 0 and total > 0:
        given = 0
        for index, stretch in enumerate(stretches):
            extra = spare * stretch // total
            widths[index] += extra
            given += extra
        widths[max(range(len(line)), key=lambda index: stretches[index])] += spare - given
    if len(line) == 1 and spare < 0:
        widths[0] = max(0, room)  # a lone control narrower than its least width: the room there is
    return widths


__all__ = ["WrappingRow"]
