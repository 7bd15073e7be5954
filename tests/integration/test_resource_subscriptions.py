"""Resource subscriptions (issue 25) on a listening session, against real servers on 127.0.0.1: the
demo server (the official SDK's lowlevel server) in both eras, and misbehaving ones: a server that
refuses ``resources/subscribe``, one that does not offer it (nothing is sent), one that sends
updates for a resource never subscribed to (not handed on), one that floods updates (bounded),
and a stateless one whose acknowledgement does not honour the resource."""

from __future__ import annotations

import asyncio
import time

import pytest

from inspector.demo import DemoServer
from inspector.demo.options import DemoOptions
from inspector.demo.subscriptions import CLOCK_URI
from inspector.mcp import McpTransportError, OperationRecorder, ServerEndpoint
from inspector.mcp.errors import ErrorKind
from inspector.mcp.listening import ListenerState, ServerListener
from inspector.mcp.resource_subscriptions import SUBSCRIBE, UNSUBSCRIBE, ResourceUpdate
from inspector.mcp.standalone import ServerNotification
from tests.support.asgi_server import serve_asgi
from tests.support.hostile_streams import run_bounded
from tests.support.listen_servers import ScriptedListens
from tests.support.subscription_servers import FLOOD, OTHER, WATCHED, subscription_server


@pytest.fixture(scope="module")
def demo():
    with DemoServer(DemoOptions(update_interval_s=0.2)) as server:
        yield server


async def until(condition, limit_s: float = 10) -> None:
    end = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


class _Heard:
    """What the listening session heard, and the updates among it (told apart as they arrive)."""

    def __init__(self) -> None:
        self.notes: list[ServerNotification] = []
        self.listener: ServerListener | None = None
        self._updates: list[ResourceUpdate] = []

    def __call__(self, note: ServerNotification) -> None:
        self.notes.append(note)
        assert self.listener is not None
        update = self.listener.subscriptions.update_of(note)
        if update is not None:
            self._updates.append(update)

    def updates(self) -> list[ResourceUpdate]:
        return list(self._updates)


async def _listening(endpoint: ServerEndpoint) -> tuple[ServerListener, asyncio.Task[None], _Heard]:
    heard = _Heard()
    listener = ServerListener(endpoint, on_notification=heard)
    heard.listener = listener
    task = asyncio.create_task(listener.run())
    await until(lambda: listener.status.state is ListenerState.LISTENING)
    return listener, task, heard


@pytest.mark.parametrize("era", ["handshake", "stateless"])
def test_subscribe_hears_updates_and_unsubscribe_ends_them_in_both_eras(demo, era: str) -> None:
    async def go() -> None:
        listener, task, heard = await _listening(ServerEndpoint(demo.url, era=era))
        assert listener.subscriptions.offered() is True
        recorder = OperationRecorder()
        change = await listener.subscriptions.change(SUBSCRIBE, CLOCK_URI, budget_s=5, observer=recorder)
        assert change.subscribed and change.era == era
        assert [leg.method for leg in recorder.legs] == (
            ["resources/subscribe"] if era == "handshake" else ["subscriptions/listen"])
        assert recorder.finished.outcome == "ok" and recorder.finished.era == era
        if era == "stateless":
            assert change.honoured == (CLOCK_URI,)
        await until(lambda: len(heard.updates()) >= 2)
        update = heard.updates()[0]
        assert update.uri == CLOCK_URI and update.via == ("GET" if era == "handshake" else "subscriptions/listen")
        await listener.subscriptions.change(UNSUBSCRIBE, CLOCK_URI, budget_s=5)
        await asyncio.sleep(0.3)  # an update already on its way
        count = len(heard.notes)
        await asyncio.sleep(0.6)  # three ticks
        assert len(heard.notes) == count
        if era == "handshake":
            assert demo.state.ticker.subscribed_sessions == 0
        await listener.stop(task)

    run_bounded(go, 30)


def test_a_server_that_refuses_subscribe_fails_the_operation_and_nothing_stays_subscribed() -> None:
    seen: list[str] = []

    async def go() -> McpTransportError:
        listener, task, _heard = await _listening(ServerEndpoint(url, era="handshake"))
        try:
            with pytest.raises(McpTransportError) as refused:
                await listener.subscriptions.change(SUBSCRIBE, WATCHED, budget_s=5)
            assert listener.subscriptions.wanted == []
            return refused.value
        finally:
            await listener.stop(task)

    with subscription_server("refuses", seen) as url:
        error = run_bounded(go, 30)
    assert seen == [f"subscribe {WATCHED}"]
    assert error.kind is ErrorKind.RPC_ERROR and "subscriptions are closed today" in error.message


def test_a_server_that_does_not_offer_subscriptions_is_not_asked() -> None:
    seen: list[str] = []

    async def go() -> McpTransportError:
        listener, task, _heard = await _listening(ServerEndpoint(url, era="handshake"))
        try:
            assert listener.subscriptions.offered() is False
            recorder = OperationRecorder()
            with pytest.raises(McpTransportError) as refused:
                await listener.subscriptions.change(SUBSCRIBE, WATCHED, budget_s=5, observer=recorder)
            assert recorder.legs == [] and recorder.finished.outcome == "failed"
            return refused.value
        finally:
            await listener.stop(task)

    with subscription_server("plain", seen) as url:
        error = run_bounded(go, 30)
    assert seen == []
    assert error.kind.value == "not_offered"
    assert error.message == (f"The server {url} does not offer resource subscriptions (resources.subscribe): its "
                             "capabilities do not declare it, so resources/subscribe was not sent.")


def test_updates_for_a_resource_never_subscribed_to_are_not_handed_on() -> None:
    async def go() -> tuple[list[ResourceUpdate], int]:
        listener, task, heard = await _listening(ServerEndpoint(url, era="handshake"))
        await listener.subscriptions.change(SUBSCRIBE, WATCHED, budget_s=5)
        await until(lambda: bool(heard.updates()))
        await until(lambda: len(heard.notes) >= 4)
        updates = heard.updates()
        await listener.stop(task)
        return updates, listener.subscriptions.unsolicited

    with subscription_server("unsolicited") as url:
        updates, unsolicited = run_bounded(go, 30)
    assert [update.uri for update in updates] == [WATCHED]
    assert unsolicited == 3 and OTHER not in [update.uri for update in updates]


def test_a_flood_of_updates_is_read_to_its_end_and_the_session_stays_usable() -> None:
    async def go() -> tuple[int, float]:
        listener, task, heard = await _listening(ServerEndpoint(url, era="handshake"))
        await listener.subscriptions.change(SUBSCRIBE, WATCHED, budget_s=5)
        started = time.monotonic()
        await until(lambda: len(heard.notes) >= FLOOD, 30)
        took = time.monotonic() - started
        # Still a working session: unsubscribing goes through at once.
        await listener.subscriptions.change(UNSUBSCRIBE, WATCHED, budget_s=5)
        await listener.stop(task)
        return len(heard.updates()), took

    with subscription_server("flood") as url:
        updates, took = run_bounded(go, 60)
    assert updates == FLOOD
    assert took < 30


def test_a_stateless_acknowledgement_that_does_not_honour_the_resource_fails_the_subscribe() -> None:
    scripted = ScriptedListens(["ack-hold"])

    async def go() -> McpTransportError:
        listener, task, _heard = await _listening(ServerEndpoint(url, era="stateless"))
        try:
            with pytest.raises(McpTransportError) as refused:
                await listener.subscriptions.change(SUBSCRIBE, "test://x", budget_s=5)
            assert listener.subscriptions.wanted == []
            await until(lambda: len(scripted.listens) == 3)  # and listened to again without it
            return refused.value
        finally:
            await listener.stop(task)

    with serve_asgi(scripted.app()) as url:
        error = run_bounded(go, 30)
    first, second, third = (message["params"]["notifications"] for _when, message, _headers in scripted.listens)
    assert "resourceSubscriptions" not in first and "resourceSubscriptions" not in third
    assert second["resourceSubscriptions"] == ["test://x"]
    assert "its acknowledgement did not honour it" in error.message


def test_a_subscribe_waiting_for_an_acknowledgement_fails_at_once_when_the_session_stops() -> None:
    scripted = ScriptedListens(["ack-hold", "drop"])  # the second listen request never acknowledged

    async def go() -> tuple[McpTransportError, float]:
        listener, task, _heard = await _listening(ServerEndpoint(url, era="stateless"))
        waiting = asyncio.create_task(listener.subscriptions.change(SUBSCRIBE, "test://x", budget_s=30))
        await until(lambda: len(scripted.listens) >= 2)
        started = time.monotonic()
        await listener.stop(task)
        with pytest.raises(McpTransportError) as stopped:
            await waiting
        return stopped.value, time.monotonic() - started

    with serve_asgi(scripted.app()) as url:
        error, took = run_bounded(go, 30)
    assert took < 2 and "the listening session was stopped" in error.message


def test_a_session_without_a_stream_offers_no_subscriptions_and_sends_nothing() -> None:
    scripted = ScriptedListens(["unknown"])  # a stateless server that does not know subscriptions/listen

    async def go() -> tuple[bool | None, McpTransportError, float]:
        listener = ServerListener(ServerEndpoint(url, era="stateless"))
        task = asyncio.create_task(listener.run())
        await until(lambda: listener.status.state is ListenerState.NO_STREAM)
        started = time.monotonic()
        with pytest.raises(McpTransportError) as refused:
            await listener.subscriptions.change(SUBSCRIBE, "test://x", budget_s=20)
        took = time.monotonic() - started
        offered = listener.subscriptions.offered()
        await listener.stop(task)
        return offered, refused.value, took

    with serve_asgi(scripted.app()) as url:
        offered, error, took = run_bounded(go, 30)
    assert offered is False and took < 1
    assert "a stream to send the updates on" in error.message
    assert len(scripted.listens) == 1  # nothing asked again
