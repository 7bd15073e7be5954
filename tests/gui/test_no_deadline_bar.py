"""A step whose legs were granted no time had no deadline, and its budget bar says so.

A call the recording proxy passed through without a budget of ours (the agent's own), or a step read
from another tool's trace, keeps legs with no grant. The step detail drew its bar with the step's own
duration as the "deadline": "2.6 s of 2.625 s spent", a deadline line at the track's end, and told a
screen reader "ok after 2.6 s of a 2.625 s budget". Now the legs lie on a time axis of the step's
duration, no deadline line is drawn, and the header and the description say that none was set and
why, in English and German. A step with a budget is drawn as before.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import anyio
import pytest
from mcp.client import Client
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage

from inspector.capture.proxy import ProxyServer
from inspector.demo import DemoServer
from inspector.gui.language import switch_language
from inspector.gui.runs.step_detail import StepDetail
from inspector.gui.widgets.budget_bar import BudgetBar
from inspector.gui.widgets.budget_bar_paint import TICK_AREA_PX
from inspector.runs import Leg, RunTrace, ToolResult
from inspector.store import RunStore, resolve_db_path
from inspector.store.browse import step_in_full, timeline_page
from tests.gui.test_screenshots import save
from tests.support.sample_runs import T0

HEADER = {"en": r"\d\.\d+ s · no deadline: the agent's own call, passed through",
          "de": r"\d,\d+ s · keine Frist: der eigene Aufruf des Agenten, durchgereicht"}
SAID = {"en": r"ok after \d\.\d+ s, no deadline: the agent's own call, passed through; initialize ok in ",
        "de": r"ok nach \d,\d+ s, keine Frist: der eigene Aufruf des Agenten, durchgereicht; initialize ok in "}


def proxied_echo(db: Path, budget_s: float | None = None) -> int:
    """A real agent's echo call through the real recording proxy (``budget_s``: its ``--budget``) to the
    demo server."""
    async def agent(url: str) -> None:
        async with Client(url, mode="legacy") as client:
            await client.call_tool("echo", {"text": "passed through"})

    with DemoServer() as demo, ProxyServer(demo.url, db, budget_s=budget_s) as proxy:
        anyio.run(agent, proxy.url)
    with RunStore.open(db) as store:
        return next(run.id for run in store.list_runs(limit=None) if run.title == "tools/call echo · proxy")


def stored_step(source: str, legs: tuple[Leg, ...], duration_ms: float) -> int:
    """A run of ``source`` (live, imported) with one echo step of these legs."""
    with RunStore.open(resolve_db_path()) as store:
        run_id = store.start_run("tools/call echo", source, None, started_at=T0)
        store.append_step(run_id, RunTrace().record_tool_result(0, "echo", {"text": "x"}, ToolResult.text("x"),
                                                                duration_ms, legs=legs), T0)
        store.finish_run(run_id, "ok", T0 + timedelta(seconds=3))
    return run_id


def shown(qtbot, run_id: int) -> StepDetail:
    detail = StepDetail()
    qtbot.addWidget(detail)
    detail.resize(560, 330)
    with RunStore.open(resolve_db_path()) as store:
        (row,) = timeline_page(store, run_id, 0, 10)
        detail.show_step(step_in_full(store, row.id))
    detail.show()
    qtbot.waitExposed(detail)
    return detail


def painted_header(bar: BudgetBar) -> tuple[str, str]:
    bar.grab()  # a paint: the header is worded as it is drawn
    return bar.header_shown


def deadline_drawn(bar: BudgetBar) -> bool:
    """Whether anything is drawn between the header and the track (where the deadline's label and
    the top of its line go): the band is the window's colour alone when there is no deadline."""
    image = bar.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    top = bar.fontMetrics().height() + 2
    band = image.copy(QRect(0, top, bar.width(), TICK_AREA_PX - 1))
    return len({band.pixel(x, y) for x in range(band.width()) for y in range(band.height())}) > 1


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_call_the_proxy_passed_through_shows_no_deadline(qtbot, language) -> None:
    run_id = proxied_echo(resolve_db_path())
    detail = shown(qtbot, run_id)
    switch_language(language)
    try:
        bar = detail.bar
        assert bar.isVisible()
        spent, ending = painted_header(bar)
        assert re.fullmatch(HEADER[language], spent), spent
        assert ending == "✓ ok"
        assert re.match(SAID[language], bar.accessibleDescription()), bar.accessibleDescription()
        assert not deadline_drawn(bar)
        # The legs on the step's own time: the last one ends at the track's end, not at 91 % of it.
        geometry = bar.current_geometry()
        last = geometry.segments[-1]
        assert last.x + last.width == pytest.approx(geometry.width, abs=1.5)
        assert not any(segment.overrun_width for segment in geometry.segments)
        save(detail, f"runs-step-no-deadline-proxied-{language}")
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_step_from_another_tools_trace_shows_no_deadline(qtbot, language) -> None:
    run_id = stored_step("imported", (Leg("initialize", None, 310.0, 200, "ok"),
                                      Leg("tools/call", None, 1490.0, 200, "ok")), 1840.0)
    detail = shown(qtbot, run_id)
    switch_language(language)
    try:
        spent, ending = painted_header(detail.bar)
        description = detail.bar.accessibleDescription()
    finally:
        switch_language("en")
    if language == "en":
        assert spent == "1.8 s · no deadline: the trace records none"
        assert description == ("ok after 1.8 s, no deadline: the trace records none; initialize ok in 0.31 s; "
                               "tools/call ok in 1.5 s")
    else:
        assert spent == "1,8 s · keine Frist: der Trace verzeichnet keine"
        assert description.startswith("ok nach 1,8 s, keine Frist: der Trace verzeichnet keine; initialize ok in")
    assert ending == "✓ ok"
    assert not deadline_drawn(detail.bar)


def test_a_step_with_a_budget_keeps_its_deadline(qtbot) -> None:
    switch_language("en")
    run_id = stored_step("live", (Leg("initialize", 20, 400.0, 200, "ok"), Leg("tools/call", 19, 2200.0, 200, "ok")),
                         2600.0)
    bar = shown(qtbot, run_id).bar
    assert painted_header(bar) == ("2.6 s of 20 s spent", "✓ ok")
    assert bar.accessibleDescription().startswith("ok after 2.6 s of a 20 s budget; ")
    assert deadline_drawn(bar)


def test_a_call_the_proxy_gave_a_budget_keeps_its_deadline(qtbot) -> None:
    """``proxy --budget 5``: the proxy granted the agent's legs time; that deadline is drawn and said."""
    switch_language("en")
    bar = shown(qtbot, proxied_echo(resolve_db_path(), budget_s=5.0)).bar
    spent, _ending = painted_header(bar)
    assert re.fullmatch(r"\d\.\d+ s of 5 s spent", spent), spent
    assert " of a 5 s budget; " in bar.accessibleDescription()
    assert deadline_drawn(bar)
