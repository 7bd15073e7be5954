"""The tool catalogue's freshness in the window: "fresh for …" counting down, reused while fresh
when its server is selected again (never a private one for other credentials), forgotten and
marked stale when the server says its tools changed, "not to be kept" for a ttl of 0.

The client of main does not read ``ttlMs`` yet (the lead's stateless client will, through
``catalogue_freshness``); here the catalogue it returns is given the freshness the server says."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from inspector.mcp import McpClient
from tests.support.asgi_server import serve_asgi
from tests.support.listen_servers import build_listen_server

#: What the servers say of their catalogues in these tests: (ttlMs, cacheScope).
SAID = {"ttl_ms": 3_540_000, "cache_scope": "private"}


@pytest.fixture
def freshness_said(monkeypatch) -> dict:
    said = dict(SAID)
    original = McpClient.list_tools

    async def list_tools(self, server, **kwargs):
        catalogue = await original(self, server, **kwargs)
        return dataclasses.replace(catalogue, ttl_ms=said["ttl_ms"], cache_scope=said["cache_scope"])

    monkeypatch.setattr(McpClient, "list_tools", list_tools)
    return said


@pytest.fixture
def two_servers() -> Iterator[tuple[str, str]]:
    with serve_asgi(build_listen_server().streamable_http_app()) as first, \
            serve_asgi(build_listen_server().streamable_http_app()) as second:
        yield first, second


def listings(window) -> int:
    return sum(1 for task in window.engine._tasks if task.kind == "list")


def opened_with(make_window, servers: tuple[str, str], era: str | None = None):
    """The window on both servers, and (the server it selected on opening, the other one)."""
    window = make_window((servers[0], "one"), (servers[1], "two"), era=era)
    opened = window.servers.current().url
    return window, opened, servers[1] if opened == servers[0] else servers[0]


def select(qtbot, window, url: str) -> None:
    window.admin.reload_servers(select_url=url)
    tools = window.workbench.tools
    qtbot.waitUntil(lambda: tools.model.rowCount() == 3 and (tools.task is None or not tools.task.running),
                    timeout=10000)


def test_a_fresh_catalogue_is_shown_again_on_selection_and_counts_down(qtbot, make_window, freshness_said,
                                                                      two_servers) -> None:
    window, first, second = opened_with(make_window, two_servers)
    freshness = window.workbench.tools.freshness
    select(qtbot, window, second)
    assert freshness.isVisible()
    assert freshness.text() == "Fresh for 59 min."
    assert "private" in freshness.toolTip()
    assert listings(window) == 2  # each listed once (the window selected one of them on opening)
    select(qtbot, window, first)
    assert listings(window) == 2  # shown from what was kept: not listed again
    listed = 2
    assert freshness.text().startswith("Kept from ")
    assert freshness.text().endswith("; fresh for 59 min.")
    # Counting down: an hour later it is no longer fresh (the label's clock is moved on).
    start = freshness.kept.received
    freshness._clock = lambda: start + 3540
    freshness._tick()
    assert freshness.text() == "No longer fresh: the tools are listed again when the server is selected."
    # Reload always asks.
    window.workbench.tools.reload_button.click()
    qtbot.waitUntil(lambda: listings(window) == listed + 1, timeout=5000)


def test_a_list_change_marks_the_catalogue_stale_and_it_is_listed_again(qtbot, make_window, freshness_said,
                                                                       two_servers) -> None:
    window, second, first = opened_with(make_window, two_servers)
    select(qtbot, window, first)
    freshness = window.workbench.tools.freshness
    window.workbench.tools_changed(second)  # another server's change: this one stays fresh
    assert freshness.text() == "Fresh for 59 min."
    listed = listings(window)
    window.workbench.tools_changed(first)
    assert listings(window) == listed + 1  # listed again at once
    select(qtbot, window, first)
    select(qtbot, window, second)
    assert listings(window) == listed + 2  # the second server's was forgotten by its change
    select(qtbot, window, first)
    assert listings(window) == listed + 2  # the first's new listing was kept
    # A listing that the change overtook is shown stale and not kept.
    task = window.workbench.load_tools()
    window.workbench.tools_changed(first)  # arrives while the listing runs: not restarted
    qtbot.waitUntil(lambda: not task.running, timeout=10000)
    assert freshness.text() == "Stale: the server said its tools changed."


def test_ttl_zero_is_not_to_be_kept_and_is_listed_each_time(qtbot, make_window, freshness_said,
                                                          two_servers) -> None:
    freshness_said["ttl_ms"] = 0
    window, first, second = opened_with(make_window, two_servers)
    select(qtbot, window, second)
    # What the window does, said as a sentence ("Not to be kept:" read as an order to the user).
    assert window.workbench.tools.freshness.text() == ("This list is not kept: the server asks for its tools to be "
                                                       "listed again each time.")
    listed = listings(window)
    select(qtbot, window, first)
    select(qtbot, window, second)
    assert listings(window) == listed + 2


def test_a_server_that_says_nothing_shows_no_freshness(qtbot, make_window, two_servers) -> None:
    # The handshake era has no ttlMs: its catalogues say nothing about freshness.
    window, first, second = opened_with(make_window, two_servers, era="handshake")
    select(qtbot, window, second)
    assert not window.workbench.tools.freshness.isVisible()
    listed = listings(window)
    select(qtbot, window, first)
    select(qtbot, window, second)
    assert listings(window) == listed + 2
