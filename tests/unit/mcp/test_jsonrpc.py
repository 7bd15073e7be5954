"""Deciding what an answer body means, in the reference decoding order (§2)."""

from __future__ import annotations

import pytest

from inspector.mcp.jsonrpc import NotAnAnswer, RpcAnswer, decode_answer, decode_body, is_answer


@pytest.mark.parametrize(("body", "why"), [
    (b"", "the body is empty"),
    (b"   \r\n\t ", "the body is empty"),
    (b"{not json", "the body is not valid JSON"),
    (b"<html><body>Bad gateway</body></html>", "the body is not valid JSON"),
    (b"\xff\xfe\x00garbage", "the body is not valid JSON"),
    (b"[1, 2, 3]", "the answer is not a JSON object"),
    (b'"a string"', "the answer is not a JSON object"),
    (b"null", "the answer is not a JSON object"),
    (b"42", "the answer is not a JSON object"),
    (b'{"jsonrpc": "2.0", "id": 1}', "it carries neither a result nor an error"),
    (b'{"jsonrpc": "2.0", "id": 1, "result": "yes"}', "its result is not a JSON object"),
    (b'{"jsonrpc": "2.0", "id": 1, "result": [1]}', "its result is not a JSON object"),
    (b'{"jsonrpc": "2.0", "id": 1, "result": null}', "its result is not a JSON object"),
    (b'{"jsonrpc": "2.0", "id": 1, "error": "bad"}', "its error is not a JSON object"),
    (b'{"jsonrpc": "2.0", "id": 1, "error": "bad", "result": 1}', "its error is not a JSON object"),
])
def test_bodies_that_are_not_answers(body, why):
    with pytest.raises(NotAnAnswer) as caught:
        decode_body(body)
    assert str(caught.value) == why


def test_not_an_answer_is_a_value_error():
    assert issubclass(NotAnAnswer, ValueError)


def test_a_result_object():
    answer = decode_body(b'{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}')
    assert answer == RpcAnswer(result={"tools": []})
    assert not answer.is_error


def test_an_empty_result_object_is_a_result():
    answer = decode_body(b'{"jsonrpc": "2.0", "id": 1, "result": {}}')
    assert answer.result == {}
    assert not answer.is_error


@pytest.mark.parametrize(("error", "code", "message", "sent"), [
    ({"code": -32601, "message": "Method not found"}, -32601, "Method not found", None),
    ({"code": -32601.0, "message": "float code"}, -32601, "float code", None),
    ({"code": "-32601", "message": "text code"}, 0, "text code", '"-32601"'),
    ({"code": 1.5, "message": "float code"}, 0, "float code", "1.5"),
    ({"code": True, "message": "bool code"}, 0, "bool code", "true"),
    ({"code": None}, 0, "no message", "null"),
    ({"code": [1, 2]}, 0, "no message", "[…]"),
    ({"code": {"a": 1}}, 0, "no message", "{…}"),
    ({"code": "x" * 100}, 0, "no message", '"' + "x" * 40 + '…"'),
    ({"code": 7}, 7, "no message", None),
    ({"code": 7, "message": 12}, 7, "no message", None),
    ({}, 0, "no message", None),
])
def test_error_objects(error, code, message, sent):
    """A code that is not an integer is kept as it was sent (JSON text, clipped), to be said so."""
    answer = decode_answer({"jsonrpc": "2.0", "id": 1, "error": error})
    assert answer.is_error
    assert (answer.error_code, answer.error_message, answer.error_code_sent) == (code, message, sent)


def test_an_error_object_wins_over_a_result():
    answer = decode_answer({"id": 1, "error": {"code": 3, "message": "m"}, "result": {"x": 1}})
    assert answer.is_error
    assert answer.error_code == 3


def test_the_order_is_empty_then_json_then_object():
    # Whitespace only: empty, even though it is also not JSON.
    with pytest.raises(NotAnAnswer, match="empty"):
        decode_body(b"\n")
    # Not JSON wins over "not an object".
    with pytest.raises(NotAnAnswer, match="not valid JSON"):
        decode_body(b"[1, 2")


@pytest.mark.parametrize("depth", [100_000, 1_000_000])
def test_hostile_nesting_is_malformed_not_a_crash(depth):
    """A body nested deeper than the interpreter's recursion limit is just not an answer:
    it must raise NotAnAnswer, not let a RecursionError out of the transport."""
    with pytest.raises(NotAnAnswer):
        decode_body(b"[" * depth)


@pytest.mark.parametrize(("obj", "expected"), [
    ({"jsonrpc": "2.0", "id": 1, "result": {}}, True),
    ({"jsonrpc": "2.0", "id": 1, "error": {}}, True),
    ({"jsonrpc": "2.0", "id": 1, "result": "not an object"}, True),  # an answer, if a bad one
    ({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}}, False),
    ({"jsonrpc": "2.0", "id": 9, "method": "roots/list", "result": {}}, False),  # a server request
    ({"jsonrpc": "2.0", "id": 1}, False),
    ([{"result": {}}], False),
    ("result", False),
    (None, False),
])
def test_is_answer(obj, expected):
    assert is_answer(obj) is expected
