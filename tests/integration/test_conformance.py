"""Conformance: every failure shape of a misbehaving server, through the real client over HTTP.

Each case runs in two profiles, a stateless server and one that issues a session id, and
checks: the right kind of the one transport exception, the server named in its message, the
operation reported as failed, and nothing left hanging (the client closed every connection,
the session was ended, no thread is left behind).
"""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import json
import threading
import time
from typing import Any

import pytest

from inspector.mcp import ERROR_CODES, ErrorKind, LegOutcome, McpTransportError, ServerEndpoint
from tests.support.asgi_server import closed_port
from tests.support.fault_server import MIB, Exchange, FaultServer, Ran, default_work, operate

PROFILES = ("stateless", "session")


@pytest.fixture(params=PROFILES)
def profile(request) -> str:
    return request.param


@pytest.fixture(autouse=True)
def no_thread_left_behind():
    before = set(threading.enumerate())
    yield
    end = time.monotonic() + 3
    while True:
        extra = [t for t in threading.enumerate() if t not in before and t.is_alive()]
        if not extra or time.monotonic() > end:
            break
        time.sleep(0.02)
    assert not extra, f"threads left running: {[t.name for t in extra]}"


def only(runs: list[Ran]) -> Ran:
    assert len(runs) == 1
    return runs[0]


def assert_failed(ran: Ran, server: FaultServer | None, endpoint: ServerEndpoint, kind: ErrorKind,
                  fragment: str | None = None, *, kinds: tuple[ErrorKind, ...] = (),
                  last_leg: LegOutcome | None = None, session_ended: bool = True) -> McpTransportError:
    """The checks every failure case shares."""
    error = ran.error
    assert isinstance(error, McpTransportError), (
        f"expected the client's McpTransportError, got {type(error).__name__}: {error}")
    allowed = kinds or (kind,)
    assert error.kind in allowed, error.message
    assert error.code == ERROR_CODES[error.kind]
    assert endpoint.label in error.message
    assert error.server == endpoint.label
    if fragment is not None:
        assert fragment in error.message
    finished = ran.recorder.finished
    assert finished is not None and finished.outcome == "failed"
    assert finished.error is error
    assert ran.recorder.legs, "at least one leg was reported"
    if last_leg is None:
        last_leg = LegOutcome.NOT_SENT if error.kind is ErrorKind.EXHAUSTED_BUDGET else LegOutcome.FAILED
    assert ran.recorder.legs[-1].outcome is last_leg
    if error.kind is not ErrorKind.SESSION_EXPIRED:
        assert all(leg.outcome is LegOutcome.OK for leg in ran.recorder.legs[:-1])
    if server is not None:
        assert server.wait_idle(3), "the client left a connection open"
        if server.sessions_issued and session_ended:
            deletes = [r for r in server.received if r.http_method == "DELETE"]
            assert [d.headers.get("mcp-session-id") for d in deletes] == [server.sessions_issued[-1]], (
                "the session was ended once, with its id")
        assert not server.errors, server.errors
    return error


# -- the failure shapes of tools/call ------------------------------------------------------------


def progress_event(token: Any = "run-inspector", progress: int = 1) -> str:
    return json.dumps({"jsonrpc": "2.0", "method": "notifications/progress",
                       "params": {"progressToken": token, "progress": progress}})


def rpc_error_in_stream(ex: Exchange) -> None:
    ex.send_events([progress_event(), json.dumps({"jsonrpc": "2.0", "id": ex.request.rpc_id,
                                                  "error": {"code": -32000, "message": "stream says no"}})])


def oversize_event_stream(ex: Exchange) -> None:
    """One event over the limit (a stream's many events are not bounded together: each is)."""
    params = {"progressToken": "run-inspector", "progress": 1, "message": "x" * 3 * MIB}
    ex.send_events([json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})],
                   framing="close")


FAULTS = [
    pytest.param(lambda ex: ex.send(503, b"down for maintenance", content_type="text/plain"),
                 ErrorKind.HTTP_STATUS, "503", id="5xx"),
    pytest.param(lambda ex: ex.send_json({"jsonrpc": "2.0", "id": ex.request.rpc_id, "result": {}}, status=500),
                 ErrorKind.HTTP_STATUS, "500", id="5xx-with-a-result-body"),
    # A Bearer challenge asks for a sign-in (OAuth), which the caller can then start.
    pytest.param(lambda ex: ex.send(401, b"", headers={"WWW-Authenticate": 'Bearer realm="mcp"'}),
                 ErrorKind.SIGNIN_REQUIRED, "401", id="401"),
    pytest.param(lambda ex: ex.send(401, b"", headers={"WWW-Authenticate": 'Basic realm="mcp"'}),
                 ErrorKind.HTTP_STATUS, "401", id="401-basic"),
    pytest.param(lambda ex: ex.send(403, b"forbidden", content_type="text/plain"),
                 ErrorKind.HTTP_STATUS, "403", id="403"),
    pytest.param(lambda ex: ex.send_rpc_error(-32603, "internal trouble"),
                 ErrorKind.RPC_ERROR, "internal trouble", id="jsonrpc-error"),
    pytest.param(rpc_error_in_stream, ErrorKind.RPC_ERROR, "stream says no", id="jsonrpc-error-in-event-stream"),
    pytest.param(lambda ex: ex.send(200, b"<!doctype html><h1>Welcome to nginx</h1>",
                                    content_type="text/html; charset=utf-8"),
                 ErrorKind.CONTENT_TYPE, "text/html", id="html-page"),
    pytest.param(lambda ex: ex.send(200, b'{"jsonrpc":"2.0","id":3,"result":{}}', content_type="text/plain"),
                 ErrorKind.CONTENT_TYPE, "text/plain", id="wrong-content-type"),
    pytest.param(lambda ex: ex.send_events([progress_event(), progress_event(progress=2)]),
                 ErrorKind.MALFORMED, "without an answer", id="event-stream-without-answer"),
    pytest.param(lambda ex: ex.send_events([]), ErrorKind.MALFORMED, "without an answer",
                 id="empty-event-stream"),
    pytest.param(lambda ex: ex.send_events(["{not json", "also not"]),
                 ErrorKind.MALFORMED, "2 events were not valid JSON", id="event-stream-invalid-json"),
    pytest.param(lambda ex: ex.send_events(["{not json"]),
                 ErrorKind.MALFORMED, "1 event was not valid JSON", id="event-stream-one-invalid-event"),
    pytest.param(lambda ex: ex.send_json({"jsonrpc": "2.0", "id": ex.request.rpc_id}),
                 ErrorKind.MALFORMED, "neither a result nor an error", id="neither-result-nor-error"),
    pytest.param(lambda ex: ex.send_json({"jsonrpc": "2.0", "id": ex.request.rpc_id, "result": "done"}),
                 ErrorKind.MALFORMED, "its result is not a JSON object", id="result-not-an-object"),
    pytest.param(lambda ex: ex.send_json({"jsonrpc": "2.0", "id": ex.request.rpc_id, "result": [1, 2]}),
                 ErrorKind.MALFORMED, "its result is not a JSON object", id="result-a-list"),
    pytest.param(lambda ex: ex.send_rpc_error("x", "oops"), ErrorKind.RPC_ERROR,
                 'a JSON-RPC error whose code, "x", is not an integer: oops', id="error-code-not-an-integer"),
    pytest.param(lambda ex: ex.send(200, b""), ErrorKind.MALFORMED, "empty", id="empty-body"),
    pytest.param(lambda ex: ex.send(200, b"", content_type=None), ErrorKind.MALFORMED, "empty",
                 id="empty-body-without-content-type"),
    pytest.param(lambda ex: ex.send(202, b"", content_type=None), ErrorKind.MALFORMED,
                 "it answered HTTP 202 (Accepted) with no body, as if it were a notification, so no answer came",
                 id="202-to-a-request"),
    pytest.param(lambda ex: ex.send(200, b"{oops"), ErrorKind.MALFORMED, "not valid JSON", id="invalid-json"),
    pytest.param(lambda ex: ex.send(200, b"[1, 2]"), ErrorKind.MALFORMED, "not a JSON object", id="json-array"),
    pytest.param(lambda ex: ex.send_big(2 * MIB + 1), ErrorKind.TOO_LARGE, "2 MiB", id="over-cap-with-length"),
    pytest.param(lambda ex: ex.send_big(3 * MIB, framing="chunked"), ErrorKind.TOO_LARGE, "2 MiB",
                 id="over-cap-chunked"),
    pytest.param(lambda ex: ex.send_big(3 * MIB, framing="close"), ErrorKind.TOO_LARGE, "2 MiB",
                 id="over-cap-close-delimited"),
    pytest.param(oversize_event_stream, ErrorKind.TOO_LARGE, "2 MiB limit for one event",
                 id="over-cap-event-stream"),
    pytest.param(lambda ex: ex.send(200, b"[" * 200_000), ErrorKind.MALFORMED, None,
                 id="hostile-nesting"),
    pytest.param(lambda ex: ex.send_events(["[" * 200_000]), ErrorKind.MALFORMED, None,
                 id="hostile-nesting-in-event-stream"),
    pytest.param(lambda ex: ex.send_gzip_garbage(), ErrorKind.MALFORMED, None, id="corrupt-gzip-body"),
]


@pytest.mark.parametrize(("fault", "kind", "fragment"), FAULTS)
def test_tools_call_failure(profile, fault, kind, fragment):
    with FaultServer(profile, work=fault) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        ran = only(operate(endpoint, budget_s=10))
        # A corrupt compressed body may fairly be called malformed or a broken connection.
        kinds = (ErrorKind.MALFORMED, ErrorKind.UNREACHABLE) if fragment is None and kind is ErrorKind.MALFORMED \
            else ()
        error = assert_failed(ran, server, endpoint, kind, fragment, kinds=kinds)
        assert error.method == "tools/call"
        assert server.rpc_methods == ["initialize", "notifications/initialized", "tools/call"]
        assert [leg.method for leg in ran.recorder.legs] == server.rpc_methods
        # Ended by the fault, well before the budget (2 MiB of events read took 3.7 s beside the suite at load 7).
        assert ran.elapsed_s < 6
        # The failed leg still reports what it saw on the wire.
        assert ran.recorder.legs[-1].http_status == [s for m, s in server.statuses if m == "tools/call"][-1]
        assert ran.recorder.legs[-1].error_kind == error.kind.value


def answer_for_another_request(ex: Exchange) -> None:
    if ex.request.rpc_method == "tools/list":  # the stateless era's call lists the tools first
        default_work(ex)
        return
    ex.send_events([progress_event(), json.dumps({"jsonrpc": "2.0", "id": 99999, "result": {"content": []}})])


@pytest.mark.parametrize("era", ["handshake", "stateless"])
def test_an_event_stream_that_answers_another_request_says_so_and_is_not_sent_again(profile, era):
    """The server answered, under an id that is not the request's: in the stateless era that is no
    broken stream to send again (the tool would run again), in neither era one to resume."""
    with FaultServer(profile, work=answer_for_another_request) as server:
        endpoint = ServerEndpoint(server.url, era=era)
        ran = only(operate(endpoint, budget_s=5))
        calls = server.posts("tools/call")
        error = assert_failed(ran, server, endpoint, ErrorKind.MALFORMED,
                              "its event stream ended without an answer to it; the answer it carried is for "
                              f"another request (id 99999, not {calls[0].rpc_id})")
        assert error.method == "tools/call"
        assert len(calls) == 1, "sent once"
        assert [r.http_method for r in server.received if r.http_method == "GET"] == []


def test_an_answer_below_the_cap_is_read_whole(profile):
    def big_but_allowed(ex: Exchange) -> None:
        pad = "x" * (2 * MIB - 1000)
        ex.send_result({"content": [{"type": "text", "text": pad}]})

    with FaultServer(profile, work=big_but_allowed) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake")))
        assert ran.error is None, ran.error
        assert len(ran.result.content) == 2 * MIB - 1000
        assert ran.recorder.legs[-1].bytes_received > 2 * MIB - 1000


def test_a_gzip_compressed_answer_is_read(profile):
    def compressed(ex: Exchange) -> None:
        ex.send_gzip_json({"jsonrpc": "2.0", "id": ex.request.rpc_id,
                           "result": {"content": [{"type": "text", "text": "squeezed"}]}})

    with FaultServer(profile, work=compressed) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake")))
        assert ran.error is None, ran.error
        assert ran.result.content == "squeezed"


# -- failures in the handshake ----------------------------------------------------------------------


HANDSHAKE_FAULTS = [
    pytest.param("initialize", lambda ex: ex.send(502, b"bad gateway", content_type="text/plain"),
                 ErrorKind.HTTP_STATUS, id="initialize-5xx"),
    pytest.param("initialize", lambda ex: ex.send(200, b"<html></html>", content_type="text/html"),
                 ErrorKind.CONTENT_TYPE, id="initialize-html"),
    pytest.param("initialize", lambda ex: ex.send_rpc_error(-32600, "go away"),
                 ErrorKind.RPC_ERROR, id="initialize-rpc-error"),
    pytest.param("notification", lambda ex: ex.send(500, b"", content_type=None),
                 ErrorKind.HTTP_STATUS, id="initialized-5xx"),
    pytest.param("notification", lambda ex: ex.send(400, b"bad", content_type="text/plain"),
                 ErrorKind.HTTP_STATUS, id="initialized-4xx"),
]


@pytest.mark.parametrize(("where", "fault", "kind"), HANDSHAKE_FAULTS)
def test_handshake_failure(profile, where, fault, kind):
    with FaultServer(profile, **{where: fault}) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        error = assert_failed(only(operate(endpoint)), server, endpoint, kind)
        assert "tools/call" not in server.rpc_methods
        assert error.method == ("initialize" if where == "initialize" else "notifications/initialized")


def test_a_notification_answer_body_is_not_read(profile):
    """A notification's answer is 202 as a rule; a 200 with a body that is not JSON is fine too."""
    with FaultServer(profile, notification=lambda ex: ex.send(200, b"<html>whatever</html>",
                                                             content_type="text/html")) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake")))
        assert ran.error is None, ran.error


def test_protocol_version_the_client_does_not_speak(profile):
    with FaultServer(profile) as server:
        server.initialize = lambda ex: server.answer_initialize(ex, version="1999-01-01")
        endpoint = ServerEndpoint(server.url, era="handshake")
        # The initialize leg itself went well; what it said ends the operation.
        error = assert_failed(only(operate(endpoint)), server, endpoint, ErrorKind.PROTOCOL_VERSION,
                              "1999-01-01", last_leg=LegOutcome.OK, session_ended=False)
        assert "2025-11-25" in error.message
        assert server.rpc_methods == ["initialize"]


def test_the_older_handshake_revision_is_accepted(profile):
    with FaultServer(profile) as server:
        server.initialize = lambda ex: server.answer_initialize(ex, version="2025-06-18")
        ran = only(operate(ServerEndpoint(server.url, era="handshake"), "ping"))
        assert ran.error is None, ran.error
        assert ran.result.protocol_version == "2025-06-18"
        later = server.posts()[1:]
        assert later and all(r.headers.get("mcp-protocol-version") == "2025-06-18" for r in later)


# -- redirects are never followed --------------------------------------------------------------------


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_a_redirect_is_not_followed(profile, status):
    with FaultServer(profile) as target:
        with FaultServer(profile, work=lambda ex: ex.send(status, b"",
                                                          headers={"Location": target.url})) as server:
            endpoint = ServerEndpoint(server.url, era="handshake", headers={"Authorization": "Bearer s3cret"})
            error = assert_failed(only(operate(endpoint)), server, endpoint, ErrorKind.HTTP_STATUS,
                                  str(status))
            assert "not followed" in error.message
            assert target.url in error.message
            assert error.http_status == status
        assert target.received == [], "the redirect target must never be contacted"
        assert "s3cret" not in error.message


def test_a_redirect_of_the_handshake_is_not_followed(profile):
    with FaultServer(profile) as target:
        with FaultServer(profile, initialize=lambda ex: ex.send(302, b"", headers={"Location": target.url})) as server:
            endpoint = ServerEndpoint(server.url, era="handshake")
            assert_failed(only(operate(endpoint)), server, endpoint, ErrorKind.HTTP_STATUS, "302")
        assert target.received == []


# -- sessions: 404 means the session is gone ----------------------------------------------------------


def not_found_first(times: int):
    seen = {"calls": 0}

    def work(ex: Exchange) -> None:
        seen["calls"] += 1
        if seen["calls"] <= times:
            ex.send(404, b"no such session", content_type="text/plain")
        else:
            default_work(ex)

    return work


def test_session_gone_once_recovers_within_the_same_deadline():
    with FaultServer("session", work=not_found_first(1)) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake"), budget_s=5))
        assert ran.error is None, ran.error
        assert ran.result.content == '{"text": "hi"}'
        assert server.rpc_methods == ["initialize", "notifications/initialized", "tools/call"] * 2
        calls = server.posts("tools/call")
        assert [c.headers.get("mcp-session-id") for c in calls] == ["session-1", "session-2"]
        assert server.posts("initialize")[1].headers.get("mcp-session-id") is None, "a fresh start"
        recorder = ran.recorder
        assert recorder.finished.outcome == "ok"
        assert recorder.started.budget_s == 5
        assert len(recorder.legs_started) == 6
        offsets = [leg.offset_s for leg in recorder.legs_started]
        assert offsets == sorted(offsets), "one deadline, spent across both handshakes"
        assert all(grant <= 5 for grant in recorder.grants)
        assert [leg.http_status for leg in recorder.legs][2] == 404
        assert [leg.outcome for leg in recorder.legs] == [LegOutcome.OK] * 2 + [LegOutcome.FAILED] + [LegOutcome.OK] * 3
        assert server.wait_idle(3)
        assert [r.headers.get("mcp-session-id") for r in server.received if r.http_method == "DELETE"] == [
            "session-2"]


def test_session_gone_twice_is_session_expired():
    with FaultServer("session", work=not_found_first(99)) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        error = assert_failed(only(operate(endpoint)), server, endpoint, ErrorKind.SESSION_EXPIRED)
        assert len(server.posts("tools/call")) == 2, "one fresh start, not a loop"
        assert len(server.posts("initialize")) == 2
        assert error.http_status == 404


def test_session_gone_during_a_catalogue_walk_recovers():
    seen = {"pages": 0}

    def work(ex: Exchange) -> None:
        seen["pages"] += 1
        cursor = (ex.request.params or {}).get("cursor")
        if seen["pages"] == 2:
            ex.send(404, b"", content_type=None)
        elif cursor is None:
            ex.send_result({"tools": [{"name": "a"}], "nextCursor": "next"})
        else:
            ex.send_result({"tools": [{"name": "b"}]})

    with FaultServer("session", work=work) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake"), "list"))
        assert ran.error is None, ran.error
        assert ran.result.names == ["a", "b"]
        lists = server.posts("tools/list")
        assert [r.params for r in lists] == [{}, {"cursor": "next"}, {"cursor": "next"}]


def test_without_a_session_a_404_is_an_http_status():
    with FaultServer("stateless", work=not_found_first(99)) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        assert_failed(only(operate(endpoint)), server, endpoint, ErrorKind.HTTP_STATUS, "404")
        assert len(server.posts("tools/call")) == 1


def test_sessions_are_not_shared_between_operations():
    with FaultServer("session") as server:
        runs = operate(ServerEndpoint(server.url, era="handshake"), operations=2)
        assert all(run.error is None for run in runs)
        initializes = server.posts("initialize")
        assert [r.headers.get("mcp-session-id") for r in initializes] == [None, None]
        assert [c.headers.get("mcp-session-id") for c in server.posts("tools/call")] == ["session-1", "session-2"]
        assert server.wait_idle(3)
        assert sorted(r.headers.get("mcp-session-id") for r in server.received
                      if r.http_method == "DELETE") == ["session-1", "session-2"]


def test_a_session_id_with_invisible_characters_is_refused():
    def initialize(ex: Exchange) -> None:
        ex.send_result({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "x"}},
                       headers={"Mcp-Session-Id": "bad id"})

    with FaultServer("session", initialize=initialize) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        assert_failed(only(operate(endpoint)), server, endpoint, ErrorKind.MALFORMED, "session id")


# -- the server is not there ----------------------------------------------------------------------------


def test_unreachable_port():
    endpoint = ServerEndpoint(f"http://127.0.0.1:{closed_port()}/mcp")
    ran = only(operate(endpoint, budget_s=5))
    error = assert_failed(ran, None, endpoint, ErrorKind.UNREACHABLE)
    # The first contact of the default era (auto) is its probe: a server that is not there is no
    # finding about its era, so nothing follows it.
    assert error.method == "server/discover"
    assert ran.elapsed_s < 3
    assert len(ran.recorder.legs) == 1


def test_auto_meets_a_server_of_the_handshake_era_in_both_profiles(profile):
    # The probe is refused the way such servers refuse it (HTTP 400 outside a session, or method
    # not found): its leg went well (the refusal is the answer), and the handshake follows.
    with FaultServer(profile) as server:
        ran = only(operate(ServerEndpoint(server.url)))
        assert ran.error is None, ran.error
        assert [leg.method for leg in ran.recorder.legs] == [
            "server/discover", "initialize", "notifications/initialized", "tools/call"]
        assert all(leg.outcome is LegOutcome.OK for leg in ran.recorder.legs)
        assert ran.recorder.finished.era == "handshake"
        assert server.rpc_methods[:2] == ["server/discover", "initialize"]


def test_a_display_name_is_what_messages_name():
    endpoint = ServerEndpoint(f"http://127.0.0.1:{closed_port()}/mcp?token=secret", name="My Tools")
    error = assert_failed(only(operate(endpoint)), None, endpoint, ErrorKind.UNREACHABLE, "My Tools")
    assert "secret" not in error.message


def test_the_url_label_drops_credentials_and_query():
    port = closed_port()
    endpoint = ServerEndpoint(f"http://user:pw@127.0.0.1:{port}/mcp?key=abc")
    error = assert_failed(only(operate(endpoint)), None, endpoint, ErrorKind.UNREACHABLE)
    assert f"http://127.0.0.1:{port}/mcp" in error.message
    assert "pw" not in error.message and "abc" not in error.message


# -- answers that never end: bounded by the one budget --------------------------------------------------


def test_a_stalled_tools_call_ends_at_the_budget(profile):
    with FaultServer(profile, work=lambda ex: ex.stall()) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        ran = only(operate(endpoint, budget_s=2))
        error = assert_failed(ran, server, endpoint, ErrorKind.TIMED_OUT, "2-second budget")
        assert 1.9 <= ran.elapsed_s <= 3.5, ran.elapsed_s
        assert error.method == "tools/call"
        assert server.wait_gone(2), "the stalled handler saw the client leave"
        assert ("tools/call", "stall") in server.gone
        assert server.released == [], "released by the client, not by the server's shutdown"


def test_a_trickling_event_stream_ends_at_the_budget(profile):
    with FaultServer(profile, work=lambda ex: ex.trickle(0.1)) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        ran = only(operate(endpoint, budget_s=2))
        assert_failed(ran, server, endpoint, ErrorKind.TIMED_OUT, "2-second budget")
        assert 1.9 <= ran.elapsed_s <= 3.5, ran.elapsed_s
        progress = ran.recorder.progress_seen
        assert len(progress) >= 5, "progress was reported while the stream trickled"
        assert {p.method for p in progress} == {"tools/call"}
        assert [p.progress for p in progress] == sorted(p.progress for p in progress)
        assert progress[0].message == "still here"
        assert server.wait_gone(2), "the trickling handler saw the client leave"


def test_a_stalled_handshake_ends_at_the_budget(profile):
    with FaultServer(profile, initialize=lambda ex: ex.stall()) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        ran = only(operate(endpoint, budget_s=1))
        error = assert_failed(ran, server, endpoint, ErrorKind.TIMED_OUT, "1-second budget")
        assert error.method == "initialize"
        assert 0.9 <= ran.elapsed_s <= 2.5
        assert server.wait_gone(2)


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_an_answer_on_a_stream_left_open_is_taken_at_once(profile, newline):
    """The answer event ends the leg even if the server keeps its stream open afterwards."""
    with FaultServer(profile, work=lambda ex: ex.trickle(0.05, answer_after=3, newline=newline)) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake"), budget_s=2))
        assert ran.error is None, f"{type(ran.error).__name__}: {ran.error}"
        assert ran.result.content == "finally"
        assert ran.elapsed_s < 1.5
        assert len(ran.recorder.progress_seen) == 3
        assert server.wait_gone(2), "the client closed the stream it no longer needed"


def test_a_long_event_stream_is_read_to_its_answer(profile):
    """A healthy long call: 3 MiB of progress notes (over the 2 MiB limit of one event), then the result."""
    count = 3 * MIB // len(progress_event())

    def long_stream(ex: Exchange) -> None:
        notes = [progress_event(progress=n) for n in range(1, count + 1)]
        result = {"jsonrpc": "2.0", "id": ex.request.rpc_id, "result": {"content": [{"type": "text", "text": "done"}]}}
        ex.send_events([*notes, json.dumps(result)], framing="close")

    with FaultServer(profile, work=long_stream) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake"), budget_s=20))
        assert ran.error is None, f"{type(ran.error).__name__}: {ran.error}"
        assert ran.result.content == "done"
        assert ran.recorder.legs[-1].bytes_received > 3 * MIB
        # Memory stays bounded however long it goes on: the first notes and the last kept, the rest counted.
        kept = [seen.progress for seen in ran.recorder.progress_seen]
        assert kept == [*range(1, 11), *range(count - 39, count + 1)]
        assert ran.recorder.progress_dropped == count - 50


# -- the catalogue walk -----------------------------------------------------------------------------------


def endless_pages(ex: Exchange) -> None:
    cursor = (ex.request.params or {}).get("cursor")
    page = 1 if cursor is None else int(cursor.removeprefix("c")) + 1
    ex.send_result({"tools": [{"name": f"tool{page}"}, "not an object"], "nextCursor": f"c{page}"})


def test_a_catalogue_that_never_ends_stops_at_50_pages(profile):
    with FaultServer(profile, work=endless_pages) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        ran = only(operate(endpoint, "list", budget_s=20))
        # Every leg went well; the walk as a whole is what failed.
        assert_failed(ran, server, endpoint, ErrorKind.MALFORMED, "did not end within 50 pages",
                      last_leg=LegOutcome.OK)
        lists = server.posts("tools/list")
        assert len(lists) == 50
        assert lists[0].params == {}
        assert [r.params for r in lists[1:]] == [{"cursor": f"c{n}"} for n in range(1, 50)]
        legs = [leg for leg in ran.recorder.legs if leg.method == "tools/list"]
        assert len(legs) == 50 and all(leg.outcome is LegOutcome.OK for leg in legs)
        assert len(ran.recorder.legs) == 52, "the 51st page was never asked for"


def looping_pages(ex: Exchange) -> None:
    """Page 1 gives the cursor "a", page 2 "b", page 3 "a" again: from there the pages go round."""
    cursor = (ex.request.params or {}).get("cursor")
    ex.send_result({"tools": [{"name": f"after-{cursor}"}], "nextCursor": "b" if cursor == "a" else "a"})


@pytest.mark.parametrize("era", ["handshake", "stateless"])
def test_a_catalogue_whose_cursor_comes_again_stops_at_once_and_says_it_loops(profile, era):
    with FaultServer(profile, work=looping_pages) as server:
        endpoint = ServerEndpoint(server.url, era=era)
        ran = only(operate(endpoint, "list", budget_s=20))
        # Every page came back well; a cursor given a second time would ask for a page read already.
        assert_failed(ran, server, endpoint, ErrorKind.MALFORMED,
                      "page 3 gave the same next cursor as page 1, so its pages would go round in a loop",
                      last_leg=LegOutcome.OK)
        assert [r.params.get("cursor") for r in server.posts("tools/list")] == [None, "a", "b"]
        assert ran.elapsed_s < 5, "not walked to the page limit"


def test_a_catalogue_of_several_pages_is_gathered(profile):
    def pages(ex: Exchange) -> None:
        cursor = (ex.request.params or {}).get("cursor")
        page = 1 if cursor is None else int(cursor) + 1
        result: dict[str, Any] = {"tools": [{"name": f"tool{page}"}, 7, None]}
        if page < 3:
            result["nextCursor"] = str(page)
        elif page == 3:
            result["nextCursor"] = ""  # an empty cursor ends the walk
        ex.send_result(result)

    with FaultServer(profile, work=pages) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake"), "list"))
        assert ran.error is None, ran.error
        assert ran.result.names == ["tool1", "tool2", "tool3"]
        assert ran.result.pages == 3


def test_a_page_without_a_list_of_tools_is_malformed(profile):
    with FaultServer(profile, work=lambda ex: ex.send_result({"tools": "echo"})) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        assert_failed(only(operate(endpoint, "list")), server, endpoint, ErrorKind.MALFORMED, "list of tools",
                      last_leg=LegOutcome.OK)


def test_slow_pages_share_one_budget(profile):
    with FaultServer(profile, work=endless_pages, delays={"tools/list": 0.6}) as server:
        endpoint = ServerEndpoint(server.url, era="handshake")
        ran = only(operate(endpoint, "list", budget_s=2))
        error = assert_failed(ran, server, endpoint, ErrorKind.EXHAUSTED_BUDGET,
                              kinds=(ErrorKind.EXHAUSTED_BUDGET, ErrorKind.TIMED_OUT))
        assert "2-second budget" in error.message
        assert ran.elapsed_s < 2 + 1, "the overrun is under one second per operation"
        sent = len(server.posts("tools/list"))
        assert 2 <= sent <= 4, sent
        grants = ran.recorder.grants
        assert grants == sorted(grants, reverse=True) and max(grants) == 2
        assert ran.recorder.legs[-1].method == "tools/list"


# -- what the client sends ---------------------------------------------------------------------------------


def test_the_headers_and_messages_the_client_sends(profile):
    with FaultServer(profile) as server:
        endpoint = ServerEndpoint(server.url, era="handshake", headers={"Authorization": "Bearer s3cret",
                                                                        "X-Team": "blue"})
        ran = only(operate(endpoint, arguments={"text": "hello", "n": 2}))
        assert ran.error is None, ran.error
        assert ran.result.content == '{"n": 2, "text": "hello"}'
        assert server.wait_idle(3)
        posts = server.posts()
        assert [p.rpc_method for p in posts] == ["initialize", "notifications/initialized", "tools/call"]
        for request in server.received:
            assert request.path == "/mcp"
            assert request.headers.get("authorization") == "Bearer s3cret"
            assert request.headers.get("x-team") == "blue"
        for post in posts:
            assert post.headers.get("content-type") == "application/json"
            accepted = {part.strip() for part in post.headers.get("accept", "").split(",")}
            assert {"application/json", "text/event-stream"} <= accepted
            assert post.message["jsonrpc"] == "2.0"
        initialize, initialized, call = posts
        assert "mcp-protocol-version" not in initialize.headers
        assert "mcp-session-id" not in initialize.headers
        assert initialize.params["protocolVersion"] == "2025-11-25"
        assert initialize.params["capabilities"] == {}
        assert set(initialize.params["clientInfo"]) >= {"name", "version"}
        assert initialized.is_notification and "id" not in initialized.message
        assert call.params["name"] == "echo"
        assert call.params["arguments"] == {"text": "hello", "n": 2}
        assert call.rpc_id is not None and call.rpc_id != initialize.rpc_id
        for later in (initialized, call):
            assert later.headers.get("mcp-protocol-version") == "2025-11-25"
            if profile == "session":
                assert later.headers.get("mcp-session-id") == "session-1"
            else:
                assert "mcp-session-id" not in later.headers
        deletes = [r for r in server.received if r.http_method == "DELETE"]
        if profile == "session":
            assert len(deletes) == 1
            assert deletes[0].headers.get("mcp-session-id") == "session-1"
            assert deletes[0].headers.get("mcp-protocol-version") == "2025-11-25"
        else:
            assert deletes == [], "no session, nothing to end"


def test_a_server_that_refuses_delete_is_fine():
    with FaultServer("session", delete_status=405) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake")))
        assert ran.error is None, ran.error
        assert server.wait_idle(3)


def test_ping_is_the_handshake_then_a_ping_request(profile):
    with FaultServer(profile, delays={"ping": 0.2}) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake"), "ping"))
        assert ran.error is None, ran.error
        assert ran.result.protocol_version == "2025-11-25"
        assert ran.result.server_name == "fault-server"
        assert server.rpc_methods == ["initialize", "notifications/initialized", "ping"]
        (ping,) = server.posts("ping")
        assert ping.rpc_id is not None and ping.headers.get("mcp-protocol-version") == "2025-11-25"
        if profile == "session":
            assert ping.headers.get("mcp-session-id") == server.sessions_issued[0]
        assert [leg.method for leg in ran.recorder.legs] == ["initialize", "notifications/initialized", "ping"]
        assert len(ran.recorder.grants) == 3
        # The latency is the ping leg's own, not the handshake's.
        assert 200 <= ran.result.latency_ms < 1000
        assert abs(ran.result.latency_ms - ran.recorder.legs[-1].elapsed_ms) < 50


def test_a_server_that_refuses_ping_fails_the_ping(profile):
    with FaultServer(profile, work=lambda ex: ex.send_rpc_error(-32601, "Method not found")) as server:
        ran = only(operate(ServerEndpoint(server.url, era="handshake"), "ping"))
        assert isinstance(ran.error, McpTransportError) and ran.error.kind is ErrorKind.RPC_ERROR
        assert "ping" in ran.error.message and "-32601" in ran.error.message


# -- the fault server itself: endless answers never block its shutdown ---------------------------------------


@pytest.mark.parametrize("endless", ["stall", "trickle"])
def test_the_fault_server_releases_endless_answers_on_close(endless):
    import socket

    server = FaultServer(work=(lambda ex: ex.stall()) if endless == "stall" else (lambda ex: ex.trickle(0.05)))
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}).encode()
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        assert server.wait_until(lambda: bool(server.posts("tools/call")))
        started = time.monotonic()
        server.close()  # the client is still connected and silent
        assert time.monotonic() - started < 2
    assert server.released == [("tools/call", endless)]
    assert server.gone == []


@pytest.mark.parametrize("framing", ["json", "events-length", "events-chunked"])
def test_one_connection_serves_the_whole_operation(framing: str) -> None:
    """The legs of an operation share one keep-alive connection, also after an event stream."""
    def work(exchange: Exchange) -> None:
        answer = {"jsonrpc": "2.0", "id": exchange.request.rpc_id,
                  "result": {"content": [{"type": "text", "text": "hi"}]}}
        if framing == "json":
            exchange.send_json(answer)
        else:
            exchange.send_events([json.dumps(answer)], framing=framing.split("-")[1])

    with FaultServer("session", work=work) as server:
        (ran,) = operate(ServerEndpoint(server.url, era="handshake"))
        assert ran.error is None
        assert server.wait_until(lambda: any(r.http_method == "DELETE" for r in server.received), 3)
        assert server.connections_accepted == 1
