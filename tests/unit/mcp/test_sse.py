"""Unframing server-sent events (reference §2), whole and fed one character at a time."""

from __future__ import annotations

import pytest

from inspector.mcp.sse import EventStreamParser, unframe


def feed_piecewise(text: str, size: int = 1) -> list[str]:
    parser = EventStreamParser()
    events: list[str] = []
    for start in range(0, len(text), size):
        events += parser.feed(text[start:start + size])
    return events + parser.close()


CASES = [
    ("lf", "data: a\n\ndata: b\n\n", ["a", "b"]),
    ("crlf", "data: a\r\n\r\ndata: b\r\n\r\n", ["a", "b"]),
    ("cr", "data: a\r\rdata: b\r\r", ["a", "b"]),
    ("mixed line ends", "data: a\r\n\ndata: b\r\rdata: c\n\r\n", ["a", "b", "c"]),
    ("comments ignored", ": keep-alive\n\n:another\ndata: x\n\n", ["x"]),
    ("event id retry ignored", "event: message\nid: 7\nretry: 1000\ndata: x\n\n", ["x"]),
    ("multi-line data joined with LF", "data: one\ndata: two\ndata:three\n\n", ["one\ntwo\nthree"]),
    ("only one leading space dropped", "data:  two spaces\ndata:   \n\n", [" two spaces\n  "]),
    ("no space after colon", "data:{\"a\":1}\n\n", ['{"a":1}']),
    ("last event without blank line", "data: a\n\ndata: last", ["a", "last"]),
    ("last event ends in a line break only", "data: a\n\ndata: last\n", ["a", "last"]),
    ("last event ends in CR only", "data: last\r", ["last"]),
    ("blank lines without data make no event", "\n\n\nevent: x\n\n: c\n\n", []),
    ("empty data line is an event", "data:\n\n", [""]),
    ("unknown fields ignored", "foo: bar\ndata: x\nbaz\n\n", ["x"]),
    ("colon inside the value kept", "data: a: b: c\n\n", ["a: b: c"]),
    ("empty stream", "", []),
    ("unicode", "data: grüße ✓\n\n", ["grüße ✓"]),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_unframe(text, expected):
    assert unframe(text) == expected


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_fed_one_character_at_a_time(text, expected):
    assert feed_piecewise(text, 1) == expected


@pytest.mark.parametrize("size", [2, 3, 5, 7])
@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_fed_in_odd_pieces(text, expected, size):
    assert feed_piecewise(text, size) == expected


def test_a_split_crlf_is_one_line_end_not_two():
    parser = EventStreamParser()
    assert parser.feed("data: a\r") == []
    assert parser.feed("\ndata: b\r") == []
    assert parser.feed("\n\r\n") == ["a\nb"]


def test_events_come_out_as_soon_as_their_blank_line_arrives_lf():
    parser = EventStreamParser()
    assert parser.feed("data: first\n") == []
    assert parser.feed("\n") == ["first"]
    assert parser.feed("data: second\n\n") == ["second"]


@pytest.mark.parametrize("line_end", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_a_complete_event_is_returned_without_waiting_for_more_text(line_end):
    """A stream that stays open after an event must not hold that event back: a complete
    CRLF pair is not the first half of anything. (The official SDK frames with CRLF.)"""
    parser = EventStreamParser()
    assert parser.feed(f"data: answer{line_end}{line_end}") == ["answer"]


def test_crlf_event_fed_bytewise_completes_on_its_last_character():
    parser = EventStreamParser()
    text = "data: answer\r\n\r\n"
    seen = []
    for ch in text:
        seen += parser.feed(ch)
    assert seen == ["answer"]


def test_a_lone_cr_at_the_end_waits_for_a_possible_lf():
    parser = EventStreamParser()
    assert parser.feed("data: x\r\r") == []  # the second CR may be half of CRLF
    assert parser.feed("\n") == ["x"]
    assert parser.close() == []


def test_close_is_final():
    parser = EventStreamParser()
    parser.feed("data: a")
    assert parser.close() == ["a"]
    assert parser.close() == []


def test_event_ids_and_retry_are_kept_for_resumption() -> None:
    parser = EventStreamParser()
    # The priming event: an id and empty data; then a message with an id of its own.
    assert parser.feed("id: ev-1\nretry: 500\ndata: \n\n") == [""]
    assert (parser.last_event_id, parser.retry_ms) == ("ev-1", 500)
    assert parser.feed('id: ev-2\ndata: {"a":1}\n\nretry: soon\n\n') == ['{"a":1}']
    assert (parser.last_event_id, parser.retry_ms) == ("ev-2", 500)  # a retry that is not digits is ignored
    parser.feed("id: bad\x00id\n\n")
    assert parser.last_event_id == "ev-2"  # an id with NUL is ignored, as the SSE standard says

