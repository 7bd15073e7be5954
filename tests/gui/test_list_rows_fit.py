"""The rows of the window's lists at 16 pt: each shown whole, as high as its (wrapped) words need.

At 16 pt on 1280 by 720 the Servers panel's list was three lines high (68 pixels of the 100 an entry
needs) while an entry wraps onto four: its counts showed as "1 ok · 0 failed ·" and "0 cancelled" lay
under the list's bottom edge."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtWidgets import QAbstractItemView, QStyle

from inspector.gui.language import switch_language

#: Where a test saves its pictures of the panel (RUN_INSPECTOR_SHOTS=folder), to be looked at.
SHOTS = os.environ.get("RUN_INSPECTOR_SHOTS")


def text_height(view: QAbstractItemView, index: QModelIndex, width: int) -> int:
    """The height ``index``'s words need at ``width`` (the row's width less the text's margins)."""
    text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    flags = int(Qt.TextFlag.TextWordWrap) if view.wordWrap() else 0
    return view.fontMetrics().boundingRect(QRect(0, 0, width - 2 * margin, 100000), flags, text).height()


def cut_rows(view: QAbstractItemView) -> list[tuple[str, int, int, int]]:
    """The rows not shown whole, scrolled to: (words, the row's height, the list's, the words' height).
    A row lower than its words cuts them; so does a list lower than a row's words (scrolling to the
    row shows no more of it)."""
    model = view.model()
    cut = []
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        rect = view.visualRect(index)
        needs = text_height(view, index, rect.width())
        if min(rect.height(), view.viewport().height()) < needs:
            cut.append((index.data(), rect.height(), view.viewport().height(), needs))
    return cut


@pytest.mark.parametrize(("language", "points"), [("en", 16), ("de", 16)], ids=["en-16pt", "de-16pt"],
                         indirect=["points"])
def test_the_servers_list_shows_an_entry_s_wrapped_lines_whole(qtbot, make_window, sdk_server, language,
                                                               points) -> None:
    window = make_window((sdk_server.url, "A server with a long name"))
    switch_language(language)
    try:
        window.resize(1280, 720)
        view = window.servers.view
        qtbot.waitUntil(lambda: "1\u00a0ok" in str(view.model().index(0, 0).data()), timeout=10000)
        qtbot.wait(100)  # the rows laid out at the panel's width, the list's least height asked again
        if SHOTS:
            window.servers.grab().save(os.path.join(SHOTS, f"servers-{language}-16pt.png"))
        index = view.model().index(0, 0)
        assert text_height(view, index, view.visualRect(index).width()) >= 3 * view.fontMetrics().lineSpacing()
        assert cut_rows(view) == []
        assert window.size().toTuple() == (1280, 720)  # and the window still fits the screen
    finally:
        switch_language("en")
