"""A leg's exchange as the recorder keeps it: redacted before it is cut, bounded, by level."""

from __future__ import annotations

import pytest

from inspector.mcp.secrets import Secrets
from inspector.mcp.wire import MAX_HEAD_BYTES, MAX_WIRE_BYTES, WireRecorder, check_level
from inspector.runs import Leg
from inspector.runs.leg import MAX_EXCHANGE_CHARS, InvalidLegError

SECRET = "s3cr3t-VALUE-0042"


def _recorder(level: str = "full", limit: int = MAX_WIRE_BYTES) -> WireRecorder:
    return WireRecorder(level, secrets=Secrets([SECRET]), secret_headers={"X-Tenant"}, started_ns=1_000_000,
                        limit=limit)


def test_heads_lose_credentials_and_marked_headers() -> None:
    recorder = _recorder()
    recorder.sent("POST", "http://h/mcp", [("Authorization", "Bearer abc"), ("x-tenant", "acme"),
                                           ("Cookie", "a=b"), ("Accept", "application/json"),
                                           ("X-Echo", f"says {SECRET}")], b"{}")
    recorder.answered(200, [("Set-Cookie", "sid=1"), ("Content-Type", "application/json")])
    recorder.body(b'{"ok":true}')
    exchange = recorder.exchange()
    assert exchange["request"]["headers"] == [["Authorization", "[REDACTED]"], ["x-tenant", "[REDACTED]"],
                                              ["Cookie", "[REDACTED]"], ["Accept", "application/json"],
                                              ["X-Echo", "says [REDACTED]"]]
    assert exchange["answer"] == {"status": 200, "headers": [["Set-Cookie", "[REDACTED]"],
                                                             ["Content-Type", "application/json"]],
                                  "body": '{"ok":true}'}
    assert "cut" not in exchange


def test_a_secret_across_the_bound_is_redacted_before_the_cut() -> None:
    recorder = _recorder(limit=100)
    recorder.sent("POST", "http://h/mcp", [], b"x" * 95 + SECRET.encode() + b"y" * 50)
    exchange = recorder.exchange()
    body = exchange["request"]["body"]
    assert SECRET[:5] not in body and len(body.encode()) == 100
    assert body.startswith("x" * 95) and exchange["cut"]["bytes"] > 0


def test_events_keep_their_offsets_and_the_bound() -> None:
    recorder = _recorder(limit=10)
    recorder.sent("POST", "http://h/mcp", [], b"")
    recorder.answered(200, [("Content-Type", "text/event-stream")])
    recorder.event(3_500_000, "abcdef")
    recorder.event(5_000_000, "ghijkl")
    exchange = recorder.exchange()
    assert exchange["answer"]["events"] == [{"atMs": 2.5, "data": "abcdef"}, {"atMs": 4.0, "data": "ghij"}]
    assert exchange["cut"] == {"bytes": 2, "events": 0}


def test_headers_level_keeps_no_body_and_off_keeps_nothing() -> None:
    heads = _recorder("headers")
    heads.sent("POST", "http://h/mcp", [("Accept", "*/*")], b"{}")
    heads.answered(200, [])
    heads.body(b"{}")
    assert heads.exchange() == {"level": "headers", "request": {"method": "POST", "url": "http://h/mcp",
                                                                "headers": [["Accept", "*/*"]]},
                                "answer": {"status": 200, "headers": []}}
    off = _recorder("off")
    off.sent("POST", "http://h/mcp", [], b"{}")
    assert off.exchange() is None
    with pytest.raises(ValueError):
        check_level("some")


def test_a_leg_keeps_its_exchange_through_its_stored_form() -> None:
    exchange = {"level": "full", "request": {"method": "POST", "url": "u", "headers": [["a", "b"]], "body": "{}"}}
    leg = Leg("tools/call", 20, 1.5, 200, "ok", exchange)
    assert Leg.from_dict(leg.to_dict()) == leg
    plain = Leg("tools/call", 20, 1.5, 200, "ok")
    assert "exchange" not in plain.to_dict() and Leg.from_dict(plain.to_dict()) == plain
    with pytest.raises(InvalidLegError):
        Leg.from_dict({**plain.to_dict(), "exchange": "text"})
    with pytest.raises(InvalidLegError):
        Leg.from_dict({**plain.to_dict(), "exchange": {"body": "x" * (MAX_EXCHANGE_CHARS + 1)}})
    with pytest.raises(InvalidLegError):
        Leg.from_dict({**plain.to_dict(), "exchange": {"n": float("nan")}})


def test_heads_of_any_size_keep_a_leg_storable_and_their_cut_is_counted() -> None:
    """Header text was kept whole: an agent's header of 1 MB (or 100,000 small ones) made the exchange larger than
    a leg takes, and the recording proxy's run was not recorded ('exchange must take at most 262144 characters')."""
    recorder = _recorder()
    recorder.sent("POST", "http://h/mcp", [("Accept", "*/*"), ("X-Big", "a" * 1_000_000), ("X-Echo", SECRET),
                                           ("Authorization", "Bearer " + "t" * 500_000)], b"{}")
    recorder.answered(200, [(f"X-{number}", "v" * 10) for number in range(100_000)])
    recorder.body(b'{"ok":true}')
    exchange = recorder.exchange()
    Leg("tools/call", 20, 1.5, 200, "ok", exchange)  # storable
    request = exchange["request"]["headers"]
    assert request[0] == ["Accept", "*/*"] and request[1][0] == "X-Big"
    assert len("".join(name + value for name, value in request).encode()) == MAX_HEAD_BYTES
    assert len(exchange["answer"]["headers"]) < 100_000 and exchange["answer"]["body"] == '{"ok":true}'
    answer_heads = sum(len(f"X-{number}") + 10 for number in range(100_000))
    whole = 9 + 5 + 1_000_000 + 6 + len(SECRET) + 13 + 500_007 + answer_heads
    kept = sum(len((name + value).encode()) for head in ("request", "answer")
               for name, value in exchange[head]["headers"])
    assert exchange["cut"]["bytes"] == whole - kept
