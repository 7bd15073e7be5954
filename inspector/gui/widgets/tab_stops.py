"""Tab moves between controls in the order the eye reads them; arrows move inside a control.

Qt's Tab order is the order in which widgets joined the window, so a widget added later (a
tab built after the first paint, a panel put under the server list) was reached last, after the
Server log. :func:`stops_in` and :func:`chain_after` move such a widget's Tab stops to where it
is shown. They walk only the added widget's own stops: walking the whole window's chain met
widgets half deleted (PySide 6.11 aborted in ``getTypeForQObject``), and asking Qt's widgets for
``focusProxy()`` left other widgets' Python wrappers deleted. A widget that hands focus to a focus
proxy cannot be moved (``setTabOrder`` moves the proxy): the schema form's fields have none, their
controls are the stops (``Field.tab_stops``), which ``SchemaForm.order_tabs`` puts in place.

A table is one Tab stop: Qt's tables move Tab from cell to cell by default, so leaving a run list
of a hundred runs took six hundred presses. :func:`one_tab_stop` turns that off (arrows, Home,
End and Page keys still move inside it).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QWidget


def one_tab_stop(view: QAbstractItemView) -> QAbstractItemView:
    """Make ``view`` one Tab stop (Tab leaves it; arrows move inside it); returns it."""
    view.setTabKeyNavigation(False)
    return view


def _is_stop(widget: QWidget) -> bool:
    return bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)


def stops_in(container: QWidget) -> list[QWidget]:
    """The Tab stops of ``container`` and its children, in their order in the focus chain (its
    children joined the chain together, after it); a control's own parts (a spin box's line
    edit, an editable combo's) are left to the control."""
    stops: list[QWidget] = []
    widget = container
    while True:
        if _is_stop(widget) and not any(stop.isAncestorOf(widget) for stop in stops):
            stops.append(widget)
        widget = widget.nextInFocusChain()
        if widget is container or not container.isAncestorOf(widget):
            return stops


def chain_after(first: QWidget | None, stops: Sequence[QWidget]) -> None:
    """Put ``stops`` right after ``first`` in the Tab order, in the order given."""
    for widget in stops:
        if first is not None and first is not widget:
            QWidget.setTabOrder(first, widget)
        first = widget
