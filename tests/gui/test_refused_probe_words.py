"""A `server/discover` probe a server of the handshake era refused, in the window: stored `ok` (the
refusal is the probe's finding, not a fault), and said in words wherever the leg is shown, in
English and in German: the live budget bar's tooltip, label and spoken description, the operation's
Wire tab, and a stored step's bar and Wire tab in the Runs tab. Before, each said a bare "ok"
beside "HTTP 400"."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_budget_endings import finished
from tests.gui.test_screenshots import save
from tests.gui.test_step_wire import shown
from tests.support.stateless_server import StatelessServer, serve_stateless

EN = "not offered: the server speaks the handshake era"
DE = "nicht angeboten: der Server spricht die Handshake-Ära"


def _probe_shown(bar, wire, word: str) -> None:
    """The bar's first segment and the Wire tab's first leg say ``word``, never a bare "ok"."""
    segment = bar.current_geometry().segments[0]
    assert segment.method == "server/discover"
    first_line = segment.tooltip.splitlines()[0]
    assert first_line == f"server/discover: {word}", segment.tooltip
    assert "400" in segment.tooltip
    # The refusal's body was read (its JSON-RPC error says why): its bytes are counted, not "0 bytes".
    assert " 0 bytes" not in segment.tooltip and " 0 Bytes" not in segment.tooltip, segment.tooltip
    assert segment.label.startswith("server/discover: ") and segment.label != "server/discover: ok"
    assert word in bar.current_geometry().description
    title = wire.tree.topLevelItem(0).text(0)
    assert title.startswith("1. server/discover · HTTP 400 · ") and title.endswith(word), title


def _hovered(qtbot, bar, word: str, name: str) -> None:
    """Hover the probe's segment as a reader does: the tooltip shown says ``word``; saved as a picture."""
    segment = bar.current_geometry().segments[0]
    track = bar._track_rect()
    at = QPoint(int(track.left() + segment.x + segment.width / 2), int(track.center().y()))
    QApplication.sendEvent(bar, QHelpEvent(QEvent.Type.ToolTip, at, bar.mapToGlobal(at)))
    qtbot.waitUntil(QToolTip.isVisible)
    assert f"server/discover: {word}" in QToolTip.text()  # (escaped, in a pre-wrap paragraph)
    [tip] = [widget for widget in QApplication.topLevelWidgets()
             if widget.inherits("QTipLabel") and widget.isVisible()]
    save(tip, name)
    QToolTip.hideText()


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the tooltip, offscreen
def test_a_refused_probe_reads_as_not_offered_in_the_workbench_and_the_runs_tab(qtbot, make_window,
                                                                                 german) -> None:
    switch_language("en")
    with serve_stateless(StatelessServer(legacy=True)) as (server, url):
        window = make_window((url, "handshake only"))  # the era: auto, the default
        window.resize(1280, 800)
        operations = window.workbench.operations
        # The catalogue's operation made the probe (the era is then remembered).
        [catalogue] = [task for task in operations.model.tasks if task.state.legs]
        assert [(leg.method, leg.outcome, leg.http_status) for leg in catalogue.state.legs][0] == \
            ("server/discover", "ok", 400)
        finished(qtbot, catalogue)
        operations.select(catalogue)
        detail = window.workbench.detail
        detail.setCurrentWidget(detail.wire)
        _probe_shown(operations.detail, detail.wire, EN)
        save(window, "refused-probe-workbench-en")
        _hovered(qtbot, operations.detail, EN, "refused-probe-tooltip-en")
        switch_language("de")
        _probe_shown(operations.detail, detail.wire, DE)
        save(window, "refused-probe-workbench-de")
        _hovered(qtbot, operations.detail, DE, "refused-probe-tooltip-de")
        switch_language("en")
        assert "server/discover" in server.methods()
    # The stored step: its leg is still `ok`, and the Runs tab's step detail says what happened.
    with RunStore.open(resolve_db_path()) as store:
        [run] = store.list_runs()  # the catalogue's operation, stored as every operation is
        [probe] = [leg for leg in store.steps_page(run.id)[0].step.legs if leg.method == "server/discover"]
    assert (probe.outcome, probe.http_status) == ("ok", 400)
    step = shown(qtbot, resolve_db_path(), run.id)
    step.resize(900, 600)
    step.show()  # shown, as in the window: a hidden one's tab titles are not laid out again in German
    qtbot.waitExposed(step)
    step.tabs.setCurrentWidget(step.exchanges)
    _probe_shown(step.bar, step.exchanges, EN)
    save(step, "refused-probe-step-en")
    switch_language("de")
    _probe_shown(step.bar, step.exchanges, DE)
    save(step, "refused-probe-step-de")
