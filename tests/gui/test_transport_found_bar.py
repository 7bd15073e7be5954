"""The `initialize` POST that a server of the older HTTP+SSE transport (MCP 2024-11-05) refuses with
404 or 405 is how the client finds that transport (it then opens the event stream and does the
handshake there, as the specification's backwards-compatibility section prescribes): not a failure.
Its stored outcome stays `failed`, but every bar draws it as the era probe's finding is drawn: a
light neutral grey in a dark outline, no end mark (see test_probe_bar), and its label, tooltip and
the Wire tab's title say what it found, in English and German. Its tooltip says what travelled in
HTTP's words (it was a Streamable HTTP POST), although the operation went on over the event stream.
Before, it was a vermillion leg with a cross in the middle of an operation that ended ok.

A POST refused so at an address without an event stream stays a failure: there it is why the
operation failed."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QRect, QRectF
from PySide6.QtGui import QColor, QHelpEvent, QImage, QPainter
from PySide6.QtWidgets import QApplication, QToolTip

from inspector.gui.language import switch_language
from inspector.gui.widgets.budget_bar import BudgetBar
from inspector.gui.widgets.budget_bar_layout import layout
from inspector.gui.widgets.budget_state import BarState
from inspector.gui.widgets.mini_bar import paint_mini_bar, spans
from inspector.mcp.listening import ListenerState
from inspector.runs import Leg
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_budget_endings import finished
from tests.gui.test_outcome_contrast import LIGHTNESS_APART, grey, level, levels
from tests.gui.test_probe_bar import ERA_FOUND, assert_apart_from_the_outcomes, fill_level, neutral, outcome_levels
from tests.gui.test_screenshots import save
from tests.gui.test_step_wire import shown

EN = "transport found: the server speaks the older HTTP+SSE transport (HTTP 405 to the Streamable HTTP POST)"
DE = "Transport gefunden: der Server spricht den älteren HTTP+SSE-Transport (HTTP 405 auf den Streamable-HTTP-POST)"
HOW_EN = "how the transport was found, not a failure: the operation went on over the older HTTP+SSE transport"


def fallback(connected: str = "ok", status: int = 405) -> BarState:
    """Live, as the client reports it: the POST refused, then the event stream (``connected``) and the handshake."""
    state = BarState(10.0)
    state.leg_started("initialize", 10, 0.0)
    state.leg_finished("initialize", 10, 3.0, "failed", status, 18)
    state.leg_started("connect", 7, 3.05)
    state.leg_finished("connect", 7, 0.5, connected, None, 0)
    if connected != "ok":
        state.finish(3.6, "failed", "http_status")
        return state
    for start, method in ((3.6, "initialize"), (4.2, "notifications/initialized"), (4.3, "tools/list")):
        state.leg_started(method, 6, start)
        state.leg_finished(method, 6, 0.5, "ok", None, 120)
    state.transport = "sse"  # the operation's report names the transport found (engine's _on_finished)
    state.finish(4.9, "ok")
    return state


STORED = [Leg("initialize", 10, 3000.0, 405, "failed"), Leg("connect", 7, 500.0, None, "ok"),
          Leg("initialize", 6, 500.0, None, "ok"), Leg("notifications/initialized", 6, 100.0, None, "ok"),
          Leg("tools/list", 6, 500.0, None, "ok")]


def _bar(qtbot, state: BarState) -> BudgetBar:
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(600, 60)
    bar.show_live(state, 0.0)
    return bar


def test_the_full_bar_draws_the_post_that_found_the_older_transport_neutral(qtbot) -> None:
    switch_language("en")
    state = fallback()
    assert state.legs[0].outcome == "failed" and state.ending == "ok"  # as stored; the operation ok
    bar = _bar(qtbot, state)
    post = bar.current_geometry().segments[0]
    assert (post.kind, post.end_mark) == (ERA_FOUND, "")  # no cross: nothing failed
    shade, colour = fill_level(bar, 0)
    assert neutral(colour), colour.name()
    assert_apart_from_the_outcomes(shade, outcome_levels(qtbot))
    image = grey(bar.grab().toImage())
    track = bar._track_rect()
    left = int(track.left() + post.x)
    assert max(levels(image, QRect(left, int(track.top()) + 6, 1, 8))) < 120  # its outline
    right_part = QRect(left + int(post.width) - 30, int(track.top()) + 3, 26, int(track.height()) - 6)
    assert len(levels(image, right_part)) == 1  # one solid grey: no end mark
    assert post.label == "initialize: older transport found, 3.0 s / grant 10 s"
    lines = post.tooltip.splitlines()
    assert lines[0] == f"initialize: {EN}" and lines[2] == HOW_EN, lines
    assert lines[-1] == "HTTP 405, 18 bytes received"  # a Streamable HTTP POST, not a message of the event stream
    assert "failed" not in post.tooltip and "failed" not in post.label
    assert "initialize in 3.0 s, " + EN in bar.current_geometry().description
    switch_language("de")
    post = bar.current_geometry().segments[0]
    assert post.label == "initialize: älterer Transport gefunden, 3,0 s / Zuteilung 10 s"
    assert post.tooltip.splitlines()[0] == f"initialize: {DE}"
    assert post.tooltip.splitlines()[2] == ("so wurde der Transport gefunden, kein Fehler: der Vorgang ging über den "
                                            "älteren HTTP+SSE-Transport weiter")
    switch_language("en")


def test_while_the_event_stream_opens_the_post_is_drawn_as_its_finding() -> None:
    state = BarState(10.0)
    state.leg_started("initialize", 10, 0.0)
    state.leg_finished("initialize", 10, 0.1, "failed", 404, 9)
    assert layout(state, 0.2, 600).segments[0].kind == "failed"  # nothing yet says what the refusal was
    state.leg_started("connect", 10, 0.15)
    assert layout(state, 0.2, 600).segments[0].kind == ERA_FOUND
    assert "(HTTP 404 to the Streamable HTTP POST)" in layout(state, 0.2, 600).segments[0].tooltip


@pytest.mark.parametrize("connected", ["failed", "cancelled"])
def test_a_refused_post_with_no_event_stream_after_it_stays_a_failure(connected: str) -> None:
    state = fallback(connected)
    segments = layout(state, 0.0, 600).segments
    assert segments[0].kind == "failed" and segments[0].end_mark == "cross"
    assert "transport found" not in segments[0].tooltip
    stored = [Leg("initialize", 10, 3000.0, 405, "failed"), Leg("connect", 7, 500.0, None, connected)]
    assert layout(BarState.replay(stored, 10, "failed"), 0.0, 600).segments[0].kind == "failed"
    alone = [Leg("initialize", 10, 3000.0, 405, "failed")]
    assert layout(BarState.replay(alone, 10, "failed"), 0.0, 600).segments[0].kind == "failed"
    other = [Leg("initialize", 10, 3000.0, 500, "failed"), Leg("connect", 7, 500.0, None, "ok")]
    assert layout(BarState.replay(other, 10, "failed"), 0.0, 600).segments[0].kind == "failed"


def test_a_stored_fallback_replays_neutral_and_its_earlier_posts_speak_http() -> None:
    switch_language("en")
    probe = Leg("server/discover", 10, 100.0, 405, "ok")
    state = BarState.replay([probe, *STORED], 10, "ok", transport="sse")
    assert state.ending == "ok"
    segments = layout(state, 0.0, 600).segments
    assert [segment.kind for segment in segments] == [ERA_FOUND, ERA_FOUND, "ok", "ok", "ok", "ok"]
    tips = [segment.tooltip.splitlines()[-1] for segment in segments]
    assert tips[:3] == ["HTTP 405", "HTTP 405", "opens the event stream (a GET); no message travels in this leg"]
    assert tips[3] == "sent by POST, its answer read from the event stream"


def test_the_mini_bar_draws_the_post_that_found_the_older_transport_neutral(qapp) -> None:
    state = fallback()
    image = QImage(420, 14, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    paint_mini_bar(painter, QRectF(0, 0, 420, 14), state, 0.0)
    painter.end()
    _deadline, placed = spans(state, 0.0, 418)
    assert [span.kind for span in placed] == [ERA_FOUND, "ok", "ok", "ok", "ok"]
    post = placed[0]
    inside = QRect(int(1 + post.x) + 2, 4, int(post.width) - 4, 6)
    assert neutral(image.pixelColor(inside.center()))
    assert abs(level(grey(image), inside) - level(grey(image), QRect(int(1 + placed[1].x) + 2, 4, 3, 6))) \
        >= LIGHTNESS_APART
    assert max(levels(grey(image), QRect(int(1 + post.x), 4, 1, 6))) < 120  # its outline


def _hover(qtbot, bar: BudgetBar, index: int, name: str) -> str:
    """Hover a segment as a reader does; the tooltip shown is saved as a picture and returned."""
    segment = bar.current_geometry().segments[index]
    track = bar._track_rect()
    at = QPoint(int(track.left() + segment.x + segment.width / 2), int(track.center().y()))
    QApplication.sendEvent(bar, QHelpEvent(QEvent.Type.ToolTip, at, bar.mapToGlobal(at)))
    qtbot.waitUntil(QToolTip.isVisible)
    text = QToolTip.text().replace("\xa0", " ")  # the tooltip keeps a number with its unit
    [tip] = [widget for widget in QApplication.topLevelWidgets() if widget.inherits("QTipLabel") and widget.isVisible()]
    save(tip, name, grey=True)
    QToolTip.hideText()
    return text


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the tooltip, offscreen
def test_an_older_transport_server_is_found_without_a_red_leg_in_the_workbench_and_the_runs_tab(
        qtbot, make_window) -> None:
    from tests.support.asgi_server import serve_asgi
    from tests.support.stdio_server import server as sdk_server

    switch_language("en")
    with serve_asgi(sdk_server.sse_app(), "/sse") as url:
        window = make_window((url, "old"))
        window.resize(1280, 800)
        # The listening session may find the older transport before the first catalogue does; once
        # it has, the address is remembered and no operation posts first. So wait for it, forget
        # it, and list the tools again: this operation is refused first, as a new address is.
        qtbot.waitUntil(lambda: window.listener.status.state is ListenerState.NO_STREAM, timeout=15000)
        for task in list(window.engine.tasks):
            finished(qtbot, task)
        endpoint = window.admin.endpoint_for(window.admin.current())
        window.engine.legacy.clear()
        catalogue = window.engine.list_tools(endpoint, 10)
        finished(qtbot, catalogue)
        assert catalogue.outcome.status == "ok"
        legs = [(leg.method, leg.outcome, leg.http_status) for leg in catalogue.state.legs]
        index = legs.index(("initialize", "failed", 405))  # as stored
        assert legs[index + 1][:2] == ("connect", "ok")
        operations = window.workbench.operations
        operations.select(catalogue)
        qtbot.waitUntil(operations.detail.isVisible)
        detail = operations.detail
        segment = detail.current_geometry().segments[index]
        assert (segment.kind, segment.end_mark) == (ERA_FOUND, "")
        _shade, colour = fill_level(detail, index)
        assert neutral(colour), colour.name()
        for language, words in (("en", EN), ("de", DE)):
            switch_language(language)
            save(window, f"transport-found-workbench-{language}", grey=True)
            save(detail, f"transport-found-bar-{language}", grey=True)
            assert words in _hover(qtbot, detail, index, f"transport-found-tooltip-{language}")
        switch_language("en")
        # The line's mini bar.
        view = operations.view
        rect = view.visualRect(operations.row_for(catalogue).index)
        mini = operations.delegate.parts(rect, view.fontMetrics()).bar
        _deadline, placed = spans(catalogue.state, 0.0, mini.width() - 2)
        assert placed[index].kind == ERA_FOUND
        image = view.viewport().grab().toImage()
        point = QPoint(int(mini.left() + 1 + placed[index].x + placed[index].width / 2), mini.center().y())
        assert neutral(image.pixelColor(point)), image.pixelColor(point).name()
    # Stored: the Runs tab's step replays it neutral, and its Wire tab names the finding.
    run_id = catalogue.outcome.run_id
    step = shown(qtbot, resolve_db_path(), run_id)
    step.resize(900, 600)
    step.show()
    qtbot.waitExposed(step)
    segments = step.bar.current_geometry().segments
    assert segments[index].kind == ERA_FOUND and not any(segment.end_mark for segment in segments)
    _shade, colour = fill_level(step.bar, index)
    assert neutral(colour), colour.name()
    for language, words in (("en", EN), ("de", DE)):
        switch_language(language)
        save(step.bar, f"transport-found-step-bar-{language}", grey=True)
        tree = step.exchanges.tree
        step.exchanges.show_legs(list(step_legs(run_id)))
        title = tree.topLevelItem(index).text(0)
        assert title.endswith(f" · {words}"), title
    switch_language("en")


def step_legs(run_id: int) -> list[Leg]:
    from inspector.store.browse import step_in_full, timeline_page

    with RunStore.open(resolve_db_path()) as store:
        (row,) = timeline_page(store, run_id, 0, 10)
        return list(step_in_full(store, row.id).legs)
