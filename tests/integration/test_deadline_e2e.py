"""The deadline arithmetic of §1 end to end: real loopback server, real monotonic clock.

The server's handshake is slow on purpose, so the grants of later legs shrink by what the
earlier legs spent (rounded up to whole seconds), and a spent budget sends nothing.
"""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import pytest

from inspector.mcp import ErrorKind, LegOutcome, McpTransportError, ServerEndpoint
from tests.support.fault_server import FaultServer, operate


@pytest.mark.parametrize("profile", ["stateless", "session"])
def test_a_slow_handshake_shrinks_the_later_grants(profile):
    delays = {"initialize": 2.0, "notifications/initialized": 1.0}
    with FaultServer(profile, delays=delays) as server:
        [ran] = operate(ServerEndpoint(server.url, era="handshake"), budget_s=5)
        assert ran.error is None, ran.error
        assert ran.recorder.grants == [5, 3, 2]
        assert [leg.method for leg in ran.recorder.legs_started] == [
            "initialize", "notifications/initialized", "tools/call"]
        offsets = [leg.offset_s for leg in ran.recorder.legs_started]
        assert offsets[0] < 0.5
        assert 2.0 <= offsets[1] < 2.5
        assert 3.0 <= offsets[2] < 3.5
        assert ran.recorder.finished.outcome == "ok"
        assert 3.0 <= ran.elapsed_s < 4.0
        assert server.posts("tools/call"), "the work was sent"


def test_a_spent_budget_does_not_send_the_call():
    # initialize 1.5 s leaves 0.5 s, granted as 1 s; the notification then takes 0.6 s (well
    # inside its own one-second grant, even on a busy machine), after which nothing is left:
    # tools/call is refused before it is built.
    delays = {"initialize": 1.5, "notifications/initialized": 0.6}
    with FaultServer("session", delays=delays) as server:
        endpoint = ServerEndpoint(server.url, era="handshake", name="slow-handshake")
        [ran] = operate(endpoint, budget_s=2)
        error = ran.error
        assert isinstance(error, McpTransportError), error
        assert error.kind is ErrorKind.EXHAUSTED_BUDGET
        assert error.method == "tools/call"
        assert "2-second budget" in error.message
        assert "slow-handshake" in error.message
        assert "cancel" not in error.message.lower()
        assert ran.recorder.grants == [2, 1]
        last = ran.recorder.legs[-1]
        assert last.method == "tools/call"
        assert last.outcome is LegOutcome.NOT_SENT
        assert last.granted_s is None and last.http_status is None and last.bytes_received == 0
        assert ran.recorder.finished.outcome == "failed"
        assert ran.recorder.finished.error is error
        assert 2.1 <= ran.elapsed_s < 2.8, "refused at once, no waiting for a leg that is not sent"
        assert server.posts("tools/call") == [], "the server never received tools/call"
        assert server.rpc_methods == ["initialize", "notifications/initialized"]
        assert server.wait_idle(3)


def test_a_leg_is_bounded_by_its_whole_second_grant():
    """What is left after initialize (0.8 s) is granted as 1 s, and that grant is a hard bound:
    a notification answer that takes 1.5 s ends the operation about 1 s later."""
    delays = {"initialize": 1.2, "notifications/initialized": 1.5}
    with FaultServer("stateless", delays=delays) as server:
        [ran] = operate(ServerEndpoint(server.url, era="handshake"), budget_s=2)
        error = ran.error
        assert isinstance(error, McpTransportError), error
        assert error.kind is ErrorKind.TIMED_OUT
        assert error.method == "notifications/initialized"
        assert ran.recorder.grants == [2, 1]
        assert 2.1 <= ran.elapsed_s < 2.7
        assert ran.recorder.legs[-1].outcome is LegOutcome.FAILED
        assert server.posts("tools/call") == []
