"""The recording proxy from the window: start it for a server, give its address to an agent, see the runs."""

from __future__ import annotations

import anyio
import pytest
from mcp.client import Client

from inspector.store import RunStore, resolve_db_path

from .test_screenshots import big_window, save


def _agent_calls(url: str) -> str:
    async def agent() -> str:
        async with Client(url, mode="legacy") as client:
            return (await client.call_tool("echo", {"text": "through the window's proxy"})).content[0].text
    return anyio.run(agent)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_proxy_started_from_the_servers_panel_records_an_agent(qtbot, make_window, demo_server, language) -> None:
    from inspector.gui.language import switch_language

    window = big_window(make_window, (demo_server.url, "Demo server"))
    controls = window.proxies
    switch_language(language)
    try:
        assert controls.isVisible() and controls.start_button.isVisible() and not controls.stop_button.isVisible()
        controls.start_button.click()
        proxy = controls.proxies[demo_server.url]
        assert controls.address.text() == proxy.url and proxy.url.startswith("http://127.0.0.1:")
        assert controls.stop_button.isVisible() and not controls.start_button.isVisible()
        assert _agent_calls(proxy.url) == "through the window's proxy"
        # The call (with the session's handshake), the catalogue the SDK reads, the server's stream, the session's end.
        counted = "4 Läufe bisher aufgezeichnet" if language == "de" else "4 runs recorded so far"
        qtbot.waitUntil(lambda: counted in controls.state.text(), timeout=10000)
        save(window, f"proxy-running-{language}")
        with RunStore.open(resolve_db_path()) as store:
            titles = [run.title for run in store.list_runs(limit=None)]
        assert "tools/call echo · proxy" in titles
        controls.stop_button.click()
        assert demo_server.url not in controls.proxies
        assert controls.start_button.isVisible() and not controls.address.isVisible()
    finally:
        switch_language("en")


def test_a_taken_port_is_said_in_a_sentence(qtbot, make_window, demo_server) -> None:
    import socket

    from inspector.capture.proxy import ProxyServer

    window = make_window((demo_server.url, "Demo server"))
    controls = window.proxies
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        with pytest.raises(Exception, match="cannot listen on 127.0.0.1"):
            ProxyServer(demo_server.url, resolve_db_path(), port=taken.getsockname()[1]).start()
    finally:
        taken.close()
    assert controls.start_selected() and controls.stop_selected() is None
    window.shut_down()
    assert not controls.proxies


def test_screenshot_a_cancelled_call_recorded_by_the_proxy_in_the_runs_tab(qtbot, make_window, runs_tab_showing,
                                                                          demo_server) -> None:
    from inspector.capture.proxy import ProxyServer
    from inspector.gui.runs.timeline_model import OUTCOME_COLUMN, OutcomeRole

    from .test_runs_screenshots import runs_window

    async def agent(url: str) -> None:
        async with Client(url, mode="legacy") as client:
            with anyio.move_on_after(1.0):
                await client.call_tool("hang", {})

    with ProxyServer(demo_server.url, resolve_db_path()) as proxy:
        anyio.run(agent, proxy.url)
    with RunStore.open(resolve_db_path()) as store:
        run_id = next(run.id for run in store.list_runs(limit=None) if run.title == "tools/call hang · proxy")
    shown = runs_tab_showing(run_id, window=runs_window(make_window))
    window, tab = shown.window, shown.tab
    assert tab.timeline.index(0, OUTCOME_COLUMN).data(OutcomeRole) == "cancelled"
    tab.select_step(0)
    assert "hang" in tab.detail.heading.text()
    save(window, "runs-proxy-cancelled")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_proxy_s_address_is_whole_in_a_1024_px_window(qtbot, make_window, demo_server, language) -> None:
    """Beside Copy the address had 136 of the 166 pixels "http://127.0.0.1:34097/mcp" needs at 1024 px: its
    port, the part that differs, was cut off. It has a line of its own; Copy and Stop share the next."""
    from PySide6.QtWidgets import QApplication

    from inspector.gui.language import switch_language

    window = make_window((demo_server.url, "Demo server"))
    switch_language(language)
    try:
        window.resize(1024, 768)
        qtbot.waitUntil(lambda: window.width() == 1024)
        controls = window.proxies
        assert controls.start_selected()
        QApplication.processEvents()
        address = controls.address
        assert address.text() == controls.proxies[demo_server.url].url and address.isVisible()
        # The address's end (where the cursor goes after its last character, the text laid from the field's
        # left) lies inside the field: the whole address shows, its port too.
        address.setCursorPosition(len(address.text()))
        end = address.cursorRect().center().x()
        assert address.fontMetrics().horizontalAdvance(address.text()) <= end < address.contentsRect().right(), (
            address.width(), address.text())
        address.setCursorPosition(0)
        assert controls.copy_button.isVisible() and controls.stop_button.isVisible()
        assert controls.copy_button.y() > address.y()  # on the next line, not taking the address's room
    finally:
        controls.stop_all()
        switch_language("en")
