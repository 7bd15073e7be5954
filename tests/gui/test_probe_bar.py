"""A `server/discover` probe whose refusal (HTTP) or silence (a command server) found the handshake
era is the probe's finding, not a failure: its stored outcome stays as it is (``ok`` and ``failed``),
but every bar draws it as what it is, a finished leg neither ok nor failed: a light neutral grey in a
dark outline, no end mark, told apart in greyscale from ok, failed, timed out and cancelled. The
colours are sampled from what real widgets paint offscreen (the full bar, the operations list's mini
bars, the Runs tab's step bar; the Play tab draws with the same two painters), converted to
greyscale as Qt converts a screenshot. Before, the unanswered probe was a vermillion leg with a cross.

The same legs' tooltips say what travelled in the words of their transport: a leg on a command's
pipes in lines written to stdin and read from stdout (it has no HTTP status and no byte count), a
leg of the older HTTP+SSE transport in POSTs and the event stream; HTTP legs as before."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QEvent, QPoint, QRect, QRectF
from PySide6.QtGui import QColor, QHelpEvent, QImage, QPainter
from PySide6.QtWidgets import QApplication, QToolTip

from inspector.gui.language import switch_language
from inspector.gui.widgets.budget_bar import BudgetBar
from inspector.gui.widgets.budget_state import BarState
from inspector.gui.widgets.mini_bar import paint_mini_bar, spans
from inspector.mcp import ServerEndpoint
from inspector.mcp.server_command import ServerCommand
from inspector.runs import Leg
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_budget_endings import finished
from tests.gui.test_command_servers import ROOT, wait_tools
from tests.gui.test_outcome_contrast import LIGHTNESS_APART, finished_task, grey, level, levels
from tests.gui.test_screenshots import save
from tests.gui.test_step_wire import shown
from tests.support.stateless_server import StatelessServer, serve_stateless

#: The kind of segment a probe that found the era is drawn as.
ERA_FOUND = "era_found"
REFUSAL = {"level": "full", "request": {"method": "POST", "url": "http://127.0.0.1:9/mcp", "headers": []},
           "answer": {"status": 400, "headers": [],
                      "body": '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'}}
LINE_SENT = {"level": "full", "request": {"method": "stdin", "url": "", "headers": [], "body": "{}"}}
LINE_ANSWERED = {**LINE_SENT, "answer": {"status": None, "headers": [], "body": "{}"}}


def refused_probe() -> BarState:
    """Live, as the client reports it: the probe refused with HTTP 400 (stored ok), then the handshake."""
    state = BarState(10.0)
    state.leg_started("server/discover", 10, 0.0)
    state.leg_finished("server/discover", 10, 4.0, "ok", 400, 83, exchange=REFUSAL)
    state.leg_started("initialize", 6, 4.05)
    state.leg_finished("initialize", 6, 1.0, "ok", 200, 412)
    state.finish(5.1, "ok")
    return state


def unanswered_probe() -> BarState:
    """Live, over a command's pipes: the probe never answered (stored failed), then the handshake."""
    state = BarState(10.0, transport="stdio")
    state.leg_started("server/discover", 10, 0.0)
    state.leg_finished("server/discover", 10, 4.0, "failed", None, 0, exchange=LINE_SENT)
    state.leg_started("initialize", 5, 4.05)
    state.leg_finished("initialize", 5, 1.0, "ok", None, 180, exchange=LINE_ANSWERED)
    state.finish(5.1, "ok")
    return state


def fill_level(bar: BudgetBar, index: int) -> tuple[int, QColor]:
    """The greyscale level and the colour of a full bar's leg, inside its outline, above its label."""
    bar.repaint()
    image = bar.grab().toImage()
    track = bar._track_rect()
    segment = bar.current_geometry().segments[index]
    inner = QRect(int(track.left() + segment.x) + 3, int(track.top()) + 3, int(segment.width) - 6, 2)
    return level(grey(image), inner), image.pixelColor(inner.center())


def neutral(colour: QColor) -> bool:
    """A grey: no outcome's hue (ok's green, failed's vermillion, cancelled's blue)."""
    return max(colour.red(), colour.green(), colour.blue()) - min(colour.red(), colour.green(), colour.blue()) < 12


def assert_apart_from_the_outcomes(probe: int, outcomes: dict[str, int]) -> None:
    for outcome, shade in outcomes.items():
        assert abs(probe - shade) >= LIGHTNESS_APART, (probe, outcome, shade)


def outcome_levels(qtbot) -> dict[str, int]:
    """The full bar's fills of ok (both shades), failed and timed out, in greyscale."""
    found = {}
    for ending in ("ok", "failed", "timed_out"):
        bar = BudgetBar()
        qtbot.addWidget(bar)
        bar.resize(600, 60)
        bar.show_live(finished_task(0, ending, spent=8.0).state, 100.0)
        found[ending], _colour = fill_level(bar, 0)
    found["ok (its neighbour's shade)"], _colour = fill_level(_bar(qtbot, refused_probe()), 1)
    return found


def _bar(qtbot, state: BarState) -> BudgetBar:
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(600, 60)
    bar.show_live(state, 0.0)
    return bar


@pytest.mark.parametrize("make", [refused_probe, unanswered_probe])
def test_the_full_bar_draws_a_probe_that_found_the_era_neutral_apart_from_every_outcome(qtbot, make) -> None:
    state = make()
    assert [leg.outcome for leg in state.legs][0] == ("ok" if make is refused_probe else "failed")  # as stored
    bar = _bar(qtbot, state)
    probe = bar.current_geometry().segments[0]
    assert (probe.kind, probe.end_mark) == (ERA_FOUND, "")  # no cross: nothing failed
    shade, colour = fill_level(bar, 0)
    assert neutral(colour), colour.name()
    assert_apart_from_the_outcomes(shade, outcome_levels(qtbot))
    # Solid, not hatched as cancelled is; its outline keeps it apart from the track (240) in greyscale.
    image = grey(bar.grab().toImage())
    track = bar._track_rect()
    left = int(track.left() + probe.x)
    edge = levels(image, QRect(left, int(track.top()) + 6, 1, 8))
    assert max(edge) < 120, sorted(edge)
    right_part = QRect(left + int(probe.width) - 30, int(track.top()) + 3, 26, int(track.height()) - 6)
    assert len(levels(image, right_part)) == 1  # one solid grey: no end mark, no stripes
    # The label and the tooltip say what it found, and that it is no failure.
    assert "failed" not in probe.label and "failed" not in probe.tooltip
    assert "the probe's finding, not a failure" in probe.tooltip


@pytest.mark.parametrize("make", [refused_probe, unanswered_probe])
def test_the_mini_bar_draws_a_probe_that_found_the_era_neutral(qapp, make) -> None:
    state = make()
    image = QImage(420, 14, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    paint_mini_bar(painter, QRectF(0, 0, 420, 14), state, 0.0)
    painter.end()
    _deadline, placed = spans(state, 0.0, 418)
    assert [span.kind for span in placed] == [ERA_FOUND, "ok"]
    probe, after = placed
    inside = QRect(int(1 + probe.x) + 2, 4, int(probe.width) - 4, 6)
    assert neutral(image.pixelColor(inside.center()))
    shades = grey(image)
    found = level(shades, inside)
    ok = level(shades, QRect(int(1 + after.x) + 2, 4, int(after.width) - 4, 6))
    assert abs(found - ok) >= LIGHTNESS_APART, (found, ok)
    failed = finished_task(0, "failed", spent=4.0).state
    other = QImage(420, 14, QImage.Format.Format_RGB32)
    other.fill(QColor("white"))
    painter = QPainter(other)
    paint_mini_bar(painter, QRectF(0, 0, 420, 14), failed, 0.0)
    painter.end()
    assert abs(found - level(grey(other), QRect(4, 4, 20, 6))) >= LIGHTNESS_APART
    assert max(levels(shades, QRect(int(1 + probe.x), 4, 1, 6))) < 120  # its outline


def test_a_quick_probe_keeps_its_width_in_the_mini_bar_and_the_legs_after_it_follow_it() -> None:
    # Refused in 3 ms of a 20 s budget: 6 px wide, and the handshake after it is not drawn over it.
    state = BarState(20.0)
    state.leg_started("server/discover", 20, 0.0)
    state.leg_finished("server/discover", 20, 0.003, "ok", 400, 83, exchange=REFUSAL)
    for number, method in enumerate(("initialize", "notifications/initialized", "tools/list")):
        state.leg_started(method, 19, 0.004 + number * 0.002)
        state.leg_finished(method, 19, 0.002, "ok", 200, 100)
    state.leg_started("tools/call", 19, 0.012)  # still running
    _deadline, placed = spans(state, 0.5, 124)
    probe, *after = placed
    assert (probe.kind, probe.width) == (ERA_FOUND, 6.0)
    ends = probe.x + probe.width
    for span in after:
        assert span.x >= ends, placed
        ends = span.x + span.width


def test_a_stored_probe_replays_neutral_and_a_stored_pipe_leg_claims_no_http() -> None:
    switch_language("en")
    legs = [Leg("server/discover", 10, 4000.0, None, "failed"), Leg("initialize", 5, 300.0, None, "ok"),
            Leg("notifications/initialized", 5, 2.0, None, "ok"), Leg("tools/call", 5, 900.0, None, "failed")]
    state = BarState.replay(legs, 10, "failed", transport="stdio")
    assert state.legs[0].unanswered_probe
    from inspector.gui.widgets.budget_bar_layout import layout

    segments = layout(state, 0.0, 600).segments
    assert [segment.kind for segment in segments] == [ERA_FOUND, "ok", "ok", "failed"]
    tips = [segment.tooltip.splitlines()[-1] for segment in segments]
    assert tips == ["what was written and read is not recorded", "1 line written to stdin, 1 line read from stdout",
                    "1 line written to stdin (a notification: no answer expected)",
                    "what was written and read is not recorded"]
    assert not any("HTTP" in segment.tooltip or "bytes" in segment.tooltip for segment in segments)
    start = BarState.replay([Leg("start", 10, 300.0, None, "ok")], 10, "ok", transport="stdio")
    assert layout(start, 0.0, 600).segments[0].tooltip.endswith(
        "\nstarts the server's program; no message travels in this leg")
    # The older HTTP+SSE transport: a POST and the event stream, no HTTP status of the leg's own.
    legacy = BarState(10.0, transport="sse")
    legacy.leg_started("tools/call", 10, 0.0)
    legacy.leg_finished("tools/call", 10, 1.0, "ok", None, 57)
    legacy.leg_started("tools/list", 9, 1.0)
    legacy.leg_finished("tools/list", 9, 2.0, "cancelled", None, 0)
    legacy.finish(3.0, "cancelled")
    tips = [segment.tooltip.splitlines()[-1] for segment in layout(legacy, 0.0, 600).segments]
    assert tips == ["sent by POST, its answer read from the event stream", "no answer on the event stream"]
    # HTTP legs as before; a leg never sent says nothing of the wire.
    http = BarState.replay([Leg("initialize", 10, 100.0, 200, "ok"), Leg("tools/call", None, None, None, "not_sent")],
                           10, "failed")
    tips = [segment.tooltip for segment in layout(http, 0.0, 600).segments]
    assert tips[0].endswith("\nHTTP 200")
    assert tips[1] == "tools/call: not sent: the budget was used up\ngrant none, spent 0 s"
    switch_language("de")
    tip = layout(BarState.replay(legs, 10, "failed", transport="stdio"), 0.0, 600).segments[1].tooltip
    assert tip.endswith("\n1 Zeile auf stdin geschrieben, 1 Zeile von stdout gelesen"), tip
    switch_language("en")


def _look(qtbot, window, task, name: str) -> None:
    """The operation selected in the list, its full bar and its mini bar sampled; saved in en and de,
    in colour and grey."""
    operations = window.workbench.operations
    operations.select(task)
    qtbot.waitUntil(operations.detail.isVisible)
    for language in ("en", "de"):
        switch_language(language)
        save(window, f"{name}-workbench-{language}", grey=True)
        save(operations.detail, f"{name}-bar-{language}", grey=True)
        _hover_probe(qtbot, operations.detail, f"{name}-tooltip-{language}")
    switch_language("en")
    detail = operations.detail
    [index] = [number for number, segment in enumerate(detail.current_geometry().segments)
               if segment.method == "server/discover"]
    shade, colour = fill_level(detail, index)
    assert detail.current_geometry().segments[index].kind == ERA_FOUND and neutral(colour), colour.name()
    assert_apart_from_the_outcomes(shade, outcome_levels(qtbot))
    # The line's mini bar.
    view = operations.view
    rect = view.visualRect(operations.row_for(task).index)
    bar = operations.delegate.parts(rect, view.fontMetrics()).bar
    _deadline, placed = spans(task.state, 0.0, bar.width() - 2)
    [probe] = [span for span in placed if span.kind == ERA_FOUND]
    image = view.viewport().grab().toImage()
    point = QRect(int(bar.left() + 1 + probe.x + probe.width / 2), bar.center().y(), 1, 1)
    assert neutral(image.pixelColor(point.topLeft())), image.pixelColor(point.topLeft()).name()


def _hover_probe(qtbot, bar: BudgetBar, name: str) -> None:
    """Hover the probe's segment as a reader does: the tooltip shown is its tooltip; saved as a picture."""
    segments = bar.current_geometry().segments
    [segment] = [segment for segment in segments if segment.method == "server/discover"]
    track = bar._track_rect()
    at = QPoint(int(track.left() + segment.x + segment.width / 2), int(track.center().y()))
    QApplication.sendEvent(bar, QHelpEvent(QEvent.Type.ToolTip, at, bar.mapToGlobal(at)))
    qtbot.waitUntil(QToolTip.isVisible)
    assert segment.tooltip.splitlines()[0] in QToolTip.text()
    [tip] = [widget for widget in QApplication.topLevelWidgets() if widget.inherits("QTipLabel") and widget.isVisible()]
    save(tip, name, grey=True)
    QToolTip.hideText()


def _stored_step(qtbot, name: str):
    """The stored step of the window's first run, in the Runs tab's step detail: its bar replays the probe neutral."""
    with RunStore.open(resolve_db_path()) as store:
        run = store.list_runs()[-1]
    step = shown(qtbot, resolve_db_path(), run.id)
    step.resize(900, 600)
    step.show()
    qtbot.waitExposed(step)
    [index] = [number for number, segment in enumerate(step.bar.current_geometry().segments)
               if segment.method == "server/discover"]
    assert step.bar.current_geometry().segments[index].kind == ERA_FOUND
    _shade, colour = fill_level(step.bar, index)
    assert neutral(colour), colour.name()
    for language in ("en", "de"):
        switch_language(language)
        save(step.bar, f"{name}-step-bar-{language}", grey=True)
    switch_language("en")
    return step


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the tooltip, offscreen
def test_a_refused_http_probe_is_drawn_neutral_in_the_workbench_and_the_runs_tab(qtbot, make_window) -> None:
    switch_language("en")
    with serve_stateless(StatelessServer(legacy=True)) as (_server, url):
        window = make_window((url, "handshake only"))
        window.resize(1280, 800)
        [catalogue] = [task for task in window.workbench.operations.model.tasks if task.state.legs]
        finished(qtbot, catalogue)
        assert (catalogue.state.legs[0].method, catalogue.state.legs[0].outcome) == ("server/discover", "ok")
        _look(qtbot, window, catalogue, "probe-refused")
        tip = window.workbench.operations.detail.current_geometry().segments[0].tooltip
        assert tip.splitlines()[-1].startswith("HTTP 400, ")  # an HTTP leg says it as before
    _stored_step(qtbot, "probe-refused")


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the tooltip, offscreen
def test_an_unanswered_stdio_probe_is_drawn_neutral_and_its_legs_speak_of_pipes(qtbot, make_window) -> None:
    switch_language("en")
    window = make_window()
    window.resize(1280, 800)
    silent = ServerCommand(sys.executable, ("-m", "tests.support.stdio_limits", "silent-probe"), cwd=str(ROOT))
    window.admin.save_server(ServerEndpoint.for_command(silent).key, "silent", 4, {}, set(), command=silent,
                             era="auto")
    wait_tools(qtbot, window)
    [catalogue] = [task for task in window.workbench.operations.model.tasks if task.state.legs]
    finished(qtbot, catalogue)
    assert catalogue.outcome.status == "ok"
    probe = next(leg for leg in catalogue.state.legs if leg.method == "server/discover")
    assert probe.outcome == "failed"  # as stored: no answer came
    _look(qtbot, window, catalogue, "probe-unanswered")
    segments = window.workbench.operations.detail.current_geometry().segments
    for segment in segments:
        assert "HTTP" not in segment.tooltip and "bytes" not in segment.tooltip, segment.tooltip
    by_method = {segment.method: segment.tooltip.splitlines()[-1] for segment in segments}
    assert by_method["server/discover"] == "1 line written to stdin, no answer read from stdout"
    assert by_method["initialize"] == "1 line written to stdin, 1 line read from stdout"
    switch_language("de")
    segments = window.workbench.operations.detail.current_geometry().segments
    assert segments[[s.method for s in segments].index("server/discover")].tooltip.splitlines()[-1] == \
        "1 Zeile auf stdin geschrieben, keine Antwort von stdout gelesen"
    switch_language("en")
    # The Wire tab's leg says it too, once the leg after it (initialize) is known.
    tree = window.workbench.detail.wire.tree
    titles = [tree.topLevelItem(row).text(0) for row in range(tree.topLevelItemCount())]
    assert [title for title in titles if "server/discover" in title][0].endswith(
        " · no answer: taken for the handshake era"), titles
    step = _stored_step(qtbot, "probe-unanswered")
    tree = step.exchanges.tree
    titles = [tree.topLevelItem(row).text(0) for row in range(tree.topLevelItemCount())]
    assert [title for title in titles if "server/discover" in title][0].endswith(
        " · no answer: taken for the handshake era"), titles


def test_the_older_http_sse_transports_legs_speak_of_posts_and_the_event_stream(qtbot, make_window) -> None:
    # An address of the older transport, found out by the operation itself (it is configured as an address).
    from tests.support.asgi_server import serve_asgi
    from tests.support.stdio_server import server as sdk_server

    switch_language("en")
    with serve_asgi(sdk_server.sse_app(), "/sse") as url:
        window = make_window((url, "old"))
        [catalogue] = [task for task in window.workbench.operations.model.tasks if task.state.legs]
        finished(qtbot, catalogue)
        assert catalogue.outcome.status == "ok" and catalogue.state.transport == "sse"
        window.workbench.operations.select(catalogue)
        segments = window.workbench.operations.detail.current_geometry().segments
        last = {segment.method: segment.tooltip.splitlines()[-1] for segment in segments}
        assert last["connect"] == "opens the event stream (a GET); no message travels in this leg"
        assert last["tools/list"] == "sent by POST, its answer read from the event stream"
        assert last["notifications/initialized"] == "sent by POST (a notification: no answer expected)"
        after_connect = segments[[segment.method for segment in segments].index("connect") + 1:]
        assert not any("HTTP" in segment.tooltip or "bytes" in segment.tooltip for segment in after_connect)
        switch_language("de")
        tip = window.workbench.operations.detail.current_geometry().segments[-1].tooltip
        assert tip.endswith("\nper POST gesendet, die Antwort aus dem Ereignisstrom gelesen"), tip
        switch_language("en")
