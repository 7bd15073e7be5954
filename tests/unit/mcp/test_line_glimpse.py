"""Whose answer a line is, from its edges alone; and the whole message at the end of a faulty line."""

from __future__ import annotations

import json

import pytest

from inspector.mcp.channels.line_faults import not_json
from inspector.mcp.channels.line_glimpse import EDGE_BYTES, glimpse, last_object_start

BIG = 'x\\"y}{]["' * 100_000  # escaped quotes and brackets inside the huge string


def edges(message: dict) -> tuple[bytes, bytes]:
    line = (json.dumps(message) + "\n").encode()
    assert len(line) > 2 * EDGE_BYTES
    return line[:EDGE_BYTES], line[-EDGE_BYTES:]


@pytest.mark.parametrize(("message", "answer_id"), [
    ({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": BIG}]}}, 7),  # Python SDK order
    ({"result": {"content": [{"type": "text", "text": BIG}]}, "jsonrpc": "2.0", "id": 8}, 8),  # TypeScript order
    ({"result": {"a": [BIG], "b": [1, {"c": "}\\\\"}]}, "jsonrpc": "2.0", "id": "s\"9"}, 's"9'),
    ({"jsonrpc": "2.0", "error": {"code": -1, "message": BIG}, "id": 10}, 10),
    # Not answers: a notification, a request of the server's own with an id like the client's.
    ({"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": BIG}}, None),
    ({"jsonrpc": "2.0", "id": 3, "method": "sampling/createMessage", "params": {"data": BIG}}, None),
    ({"method": "sampling/createMessage", "params": {"data": BIG}, "jsonrpc": "2.0", "id": 3}, None),
    # An id between two huge values is not seen: not placed.
    ({"result": {"data": BIG}, "id": 4, "_meta": {"data": BIG}}, None),
    ({"jsonrpc": "2.0", "id": True, "result": {"data": BIG}}, None),
])
def test_whose_answer_a_huge_line_is_shows_at_its_edges(message: dict, answer_id: object) -> None:
    assert glimpse(*edges(message)).answer_id == answer_id


def test_the_object_that_ends_a_line_is_matched_back_from_its_closing_brace() -> None:
    whole = '{"jsonrpc":"2.0","id":2,"result":{"text":"a \\"}{\\" b\\\\","n":[1,{"x":"]"}]}}'
    for before in ("", "Loading...", '{"jsonrpc":"2.0","id":2,"result":{"text":"cut in a str', '{"a":"\\'):
        assert last_object_start(before + whole + "\n") == len(before)
    assert last_object_start("no object\n") is None and last_object_start('"}"') is None


def test_a_broken_off_answer_before_a_notification_fails_its_request_and_the_notification_is_read() -> None:
    note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}}
    broken = b'{"jsonrpc": "2.0", "id": 5, "result": {"text": "cut'
    fault = not_json(broken + json.dumps(note).encode() + b"\n")
    assert fault.message == note and fault.lost == 5 and len(broken) == 51
    assert str(fault.error) == ("the server broke off its answer on stdout after 51 bytes and wrote another "
                                "message after it")
    assert str(fault.problem).startswith("the server left 51 bytes on stdout without ending the line")


def test_a_line_that_is_not_json_and_ends_in_no_message_reads_nothing() -> None:
    fault = not_json(b"Server v1.0 ready!\n")
    assert fault.message is None and fault.lost is None
    assert str(fault.problem) == "the server wrote a line on stdout that is not JSON: Server v1.0 ready!"
    # A line that is an answer, broken inside: its request fails at once.
    broken = not_json(b'{"jsonrpc": "2.0", "id": 6, "result": {"text": NaNish}}\n')
    assert broken.message is None and broken.lost == 6 and str(broken.error) == "its answer on stdout is not JSON"


def test_a_line_that_is_json_but_not_utf8_is_named_so_not_said_to_be_no_json() -> None:
    # A server writing Latin-1 (or a cp1252 console's bytes): the line looks like JSON, and "not JSON"
    # would send the reader looking for a syntax error that is not there.
    line = '{"jsonrpc":"2.0","id":4,"result":{"text":"café"}}\n'.encode("latin-1")
    fault = not_json(line)
    assert fault.lost == 4 and str(fault.error) == "its answer on stdout is not UTF-8 text"
    assert str(fault.problem) == ("the server wrote a line on stdout that is not UTF-8 text (byte 46 is 0xE9; MCP "
                                  'messages are UTF-8): {"jsonrpc":"2.0","id":4,"result":{"text":"caf\ufffd"}}')
