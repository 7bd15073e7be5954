"""Structured content as a tree of (key, value) rows, bounded: each level cut by
:func:`~..widgets.plain_text.bounded` (its first 500 items, 40 levels, as the step detail's Structured
tab), and at most :data:`MAX_TREE_ROWS` rows in all; a row says how many more were left out."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtGui import QStandardItem, QStandardItemModel

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number

from ..widgets.plain_text import MAX_DEPTH, MAX_ITEMS, MAX_STRING_CHARS, bounded

#: The most rows the tree is given (a few hundred thousand small values fit the client's body limit,
#: and bounded levels of 500 items still let that many through).
MAX_TREE_ROWS = 5_000


def structured_model(value: Any) -> QStandardItemModel:
    """A two-column model (key, value) of structured content; values are plain text."""
    model = QStandardItemModel(0, 2)
    model.setHorizontalHeaderLabels([_("Key"), _("Value")])
    if isinstance(value, (dict, list)):
        fill_structure(model.invisibleRootItem(), value)
    return model


def fill_structure(parent: QStandardItem, value: Any) -> None:
    """Rows of ``value`` under ``parent``, bounded (see the module)."""
    _fill(parent, bounded(value), value, [MAX_TREE_ROWS])


def _fill(parent: QStandardItem, value: Any, whole: Any, budget: list[int]) -> None:
    """Rows of ``value`` (``whole`` bounded): a list or object is counted whole ("list of 1,200 items"),
    not as far as it was cut (500 items and the row saying how many more)."""
    items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
    for number, (key, child) in enumerate(items):
        if budget[0] <= 0:
            rest = _("… {count} more items are not shown here.").format(count=format_number(len(items) - number))
            parent.appendRow([_item("…"), _item(rest)])
            return
        budget[0] -= 1
        key_item = _item(str(key))
        if isinstance(child, (dict, list)):
            kind = _("object") if isinstance(child, dict) else _("list")
            uncut = _uncut(whole, key, child)
            text = ngettext("{kind} of {count} item", "{kind} of {count} items", len(uncut)).format(
                kind=kind, count=format_number(len(uncut)))
            _fill(key_item, child, uncut, budget)
        else:
            text = child if isinstance(child, str) else json.dumps(child, ensure_ascii=False)
        parent.appendRow([key_item, _item(text)])


def _uncut(whole: Any, key: object, child: dict | list) -> dict | list:
    """The list or object ``child`` (cut) as it is in ``whole`` under ``key``; ``child`` itself where a
    key was cut short (a name longer than the cut keeps)."""
    if isinstance(whole, dict):
        uncut = whole.get(key, child)
    else:
        uncut = whole[key] if isinstance(key, int) and key < len(whole) else child
    return uncut if isinstance(uncut, type(child)) else child


def _item(text: str) -> QStandardItem:
    item = QStandardItem(text)
    item.setEditable(False)
    return item


def tree_cut(value: Any) -> bool:
    """Whether the tree leaves part of ``value`` out: a level of more than 500 items, a level deeper
    than 40, a string longer than :data:`MAX_STRING_CHARS`, or more rows than :data:`MAX_TREE_ROWS`
    (walked without recursion, stopping at the first)."""
    rows = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, str):
            if len(current) > MAX_STRING_CHARS:
                return True
            continue
        if not isinstance(current, (dict, list)):
            continue
        if depth >= MAX_DEPTH or len(current) > MAX_ITEMS:
            return True
        rows += len(current)
        if rows > MAX_TREE_ROWS:
            return True
        children = current.values() if isinstance(current, dict) else current
        stack.extend((child, depth + 1) for child in children)
    return False


__all__ = ["MAX_TREE_ROWS", "fill_structure", "structured_model", "tree_cut"]
