"""A `server/discover` probe at an address where no MCP server answers (404 to every request), in the
window: its bar segment (label, tooltip, spoken description) and its Wire tab said "not offered: the server
speaks the handshake era" although the handshake was refused too and the call failed. They say what it saw,
"no era found: answered HTTP 404", in English and German; live, the bar tells it once the legs after the
probe show that no server answered (a server of the older transport's stream opening keeps the era)."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette

from inspector.gui.language import switch_language
from inspector.gui.widgets.budget_bar_words import leg_label, leg_tooltip
from inspector.gui.widgets.budget_state import ERA_FOUND, BarState, leg_kind
from tests.gui.test_screenshots import save
from tests.gui.test_step_wire import shown
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here

SAID = {"en": ("no era found: answered HTTP 404", "answered HTTP 404"),
        "de": ("keine Ära gefunden: Antwort HTTP 404", "Antwort HTTP 404")}


def test_the_stored_probe_where_no_server_answers_says_what_it_saw(qtbot, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with serve_asgi(Starlette(), "/") as url:
        assert cli_here("call", url, "echo", "--db", str(db)).returncode != 0
    step = shown(qtbot, db, 1)
    step.resize(900, 600)
    step.show()
    qtbot.waitExposed(step)
    step.tabs.setCurrentWidget(step.exchanges)
    try:
        for language, (words, label) in SAID.items():
            switch_language(language)
            geometry = step.bar.current_geometry()
            probe = geometry.segments[0]
            assert probe.method == "server/discover" and probe.kind == ERA_FOUND  # neither ok nor failed
            assert probe.tooltip.splitlines()[0] == f"server/discover: {words}", probe.tooltip
            assert probe.label.startswith(f"server/discover: {label}, "), probe.label
            assert words in geometry.description and "era" not in geometry.description.replace("no era", "")
            title = step.exchanges.tree.topLevelItem(0).text(0)
            assert title.startswith("1. server/discover · HTTP 404 · ") and title.endswith(words), title
            save(step, f"probe-no-server-step-{language}")
    finally:
        switch_language("en")


def test_live_the_probe_is_told_by_the_legs_after_it() -> None:
    """The probe refused with 404 first reads as the era (nothing else is known yet); the refused
    ``initialize`` and the event stream that does not open make it "answered HTTP 404"; where the stream
    opens (a server of the older transport) the era holds."""
    for opened, era in (("failed", False), ("ok", True)):
        state = BarState(20)
        state.leg_started("server/discover", 20, 0.0)
        state.leg_finished("server/discover", 20, 0.02, "ok", 404)
        probe = state.legs[0]
        assert probe.refused_probe and not probe.unserved_probe
        state.leg_started("initialize", 20, 0.02)
        state.leg_finished("initialize", 20, 0.01, "failed", 404)
        state.leg_started("connect", 20, 0.03)
        assert probe.refused_probe, "a stream being opened may yet find the older transport"
        state.leg_finished("connect", 20, 0.01, opened, 200 if era else None)
        assert (probe.refused_probe, probe.unserved_probe) == (era, not era)
        assert leg_kind(probe) == ERA_FOUND
        words = leg_tooltip(probe, 0.02).splitlines()[0]
        assert words == ("server/discover: not offered: the server speaks the handshake era" if era
                         else "server/discover: no era found: answered HTTP 404"), words
        assert leg_label(probe, 0.02).startswith("server/discover: not offered" if era
                                                 else "server/discover: answered HTTP 404")


def test_the_wire_tab_tells_the_probe_again_as_the_legs_after_it_arrive(qtbot) -> None:
    """A running operation's Wire tab adds each leg as it ends: the probe's title changes once the
    ``connect`` after the refused ``initialize`` has failed too (or stays the era where it opened)."""
    from inspector.gui.widgets.wire_view import WireView
    from inspector.runs import Leg

    for opened, said in (("failed", SAID["en"][0]), ("ok", "not offered: the server speaks the handshake era")):
        wire = WireView()
        qtbot.addWidget(wire)
        wire.show_legs([Leg("server/discover", 20, 20.0, 404, "ok")])
        assert "· not offered: the server speaks the handshake era ·" in wire.tree.topLevelItem(0).text(0)
        wire.append_legs([Leg("initialize", 20, 10.0, 404, "failed")])
        wire.append_legs([Leg("connect", 20, 10.0, None, opened)])
        assert f"· {said} · nothing kept" in wire.tree.topLevelItem(0).text(0), wire.tree.topLevelItem(0).text(0)
        assert wire.tree.topLevelItem(1).text(0).startswith("2. initialize · HTTP 404")
