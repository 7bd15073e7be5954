"""The one transport exception: stable codes, messages that name the server (§1, §2)."""

from __future__ import annotations

import pytest

from inspector.mcp import ERROR_CODES, ErrorKind, McpTransportError
from inspector.mcp.messages import N_, Message
from inspector.mcp.output_schema import check_structured
from inspector.mcp.signin.challenge import bearer_challenge

SERVER = "http://tools.example.test/mcp"

STABLE_CODES = {
    "unreachable": 1001, "http_status": 1002, "malformed": 1003, "rpc_error": 1004,
    "content_type": 1005, "too_large": 1006, "protocol_version": 1007, "session_expired": 1008,
    "exhausted_budget": 1009, "timed_out": 1010, "cancelled": 1011, "output_schema": 1012,
    "signin_required": 1013, "signin_failed": 1014, "skill_verification": 1015, "not_offered": 1016,
}


def every_error() -> list[McpTransportError]:
    return [
        McpTransportError.unreachable(SERVER, "initialize", "Connection refused"),
        McpTransportError.connection_lost(SERVER, "tools/call", ""),
        McpTransportError.http_status(SERVER, "tools/call", 503, "Service Unavailable"),
        McpTransportError.http_status(SERVER, "tools/call", 302, "Found", "https://elsewhere.test/"),
        McpTransportError.http_status(SERVER, "tools/call", 401, "Unauthorized"),
        McpTransportError.malformed(SERVER, "tools/call", "the body is empty"),
        McpTransportError.rpc_error(SERVER, "tools/call", -32602, "Unknown tool"),
        McpTransportError.content_type(SERVER, "tools/call", "text/html; charset=utf-8"),
        McpTransportError.too_large(SERVER, "tools/call", 2 * 1024 * 1024),
        McpTransportError.protocol_version(SERVER, "1999-01-01", ("2025-11-25", "2025-06-18")),
        McpTransportError.session_expired(SERVER, "tools/call"),
        McpTransportError.exhausted_budget(SERVER, "tools/call", 20),
        McpTransportError.timed_out(SERVER, "tools/call", 20, 3),
        McpTransportError.cancelled(SERVER, "tools/call", in_flight=True),
        McpTransportError.cancelled(SERVER, "initialize", in_flight=False),
        McpTransportError.output_schema(SERVER, "quote", check_structured(
            {"name": "quote", "outputSchema": {"type": "object", "required": ["total"]}},
            {"structuredContent": {}}, server=SERVER)),
        McpTransportError.signin_required(SERVER, "tools/call", 401, None, sent_token=False),
        McpTransportError.signin_required(SERVER, "tools/call", 401, None, sent_token=True),
        McpTransportError.signin_required(SERVER, "tools/call", 403, bearer_challenge('Bearer scope="files:write"'),
                                          sent_token=True),
        McpTransportError.signin_required(SERVER, "tools/call", 403, None, sent_token=True),
        McpTransportError.signin_failed(SERVER, "sign-in: browser",
                                        Message(N_("the browser came back without a code"))),
        McpTransportError.skill_verification(SERVER, "resources/read",
                                             Message(N_("{file}: {size} bytes, the listing says {listed}"),
                                                     {"file": "FORMS.md", "size": 812, "listed": 790})),
        McpTransportError.not_offered(SERVER, "skills/list", Message(N_("the skills extension"))),
    ]


def test_the_kinds_are_the_stable_strings():
    assert {kind.value for kind in ErrorKind} == set(STABLE_CODES)


def test_codes_are_stable():
    assert {kind.value: code for kind, code in ERROR_CODES.items()} == STABLE_CODES


def test_codes_are_unique_and_cover_every_kind():
    assert set(ERROR_CODES) == set(ErrorKind)
    assert len(set(ERROR_CODES.values())) == len(ERROR_CODES)


@pytest.mark.parametrize("error", every_error(), ids=lambda e: f"{e.kind.value}-{e.method}")
def test_every_error_names_the_server_and_carries_its_code(error):
    assert SERVER in error.message
    assert error.server == SERVER
    assert error.code == ERROR_CODES[error.kind]
    assert str(error) == error.message
    assert error.to_dict() == {"kind": error.kind.value, "code": error.code, "message": error.message}
    assert "\n" not in error.message


@pytest.mark.parametrize("error", every_error(), ids=lambda e: f"{e.kind.value}-{e.method}")
def test_only_the_cancelled_factory_makes_a_cancellation(error):
    assert error.is_cancellation is (error.kind is ErrorKind.CANCELLED)


def test_a_cancellation_is_not_recognised_by_its_code_alone():
    forged = McpTransportError(ErrorKind.CANCELLED, SERVER, "looks cancelled")
    assert forged.code == ERROR_CODES[ErrorKind.CANCELLED]
    assert forged.is_cancellation is False


def test_exhausted_budget_message():
    error = McpTransportError.exhausted_budget(SERVER, "tools/call", 20)
    text = error.message
    assert error.kind is ErrorKind.EXHAUSTED_BUDGET
    assert "20-second budget" in text
    assert SERVER in text
    assert "was not asked" in text
    assert "configured" in text and "setting" in text
    assert "not a server that failed to answer" in text
    assert "cancel" not in text.lower()
    assert "unreachable" not in text.lower() and "could not reach" not in text.lower()
    assert error.budget_s == 20
    assert error.is_cancellation is False


def test_exhausted_budget_shows_fractional_budgets_plainly():
    assert "2.5-second budget" in McpTransportError.exhausted_budget(SERVER, "tools/list", 2.5).message


def test_timed_out_message():
    error = McpTransportError.timed_out(SERVER, "tools/call", 2, 2)
    assert error.kind is ErrorKind.TIMED_OUT
    assert "2-second budget" in error.message
    assert "setting" in error.message
    assert SERVER in error.message
    assert "cancel" not in error.message.lower()


def test_timed_out_and_exhausted_are_different_kinds_and_codes():
    exhausted = McpTransportError.exhausted_budget(SERVER, "tools/call", 20)
    timed_out = McpTransportError.timed_out(SERVER, "tools/call", 20, 1)
    assert exhausted.code != timed_out.code


def test_redirect_message_says_it_was_not_followed_and_where_it_pointed():
    error = McpTransportError.http_status(SERVER, "tools/call", 307, "", "https://elsewhere.test/x")
    assert "not followed" in error.message
    assert "https://elsewhere.test/x" in error.message
    assert error.http_status == 307


def test_too_large_message_names_the_cap():
    assert "2 MiB" in McpTransportError.too_large(SERVER, "tools/call", 2 * 1024 * 1024).message


def test_remote_text_in_messages_is_sanitised():
    error = McpTransportError.rpc_error(SERVER, "tools/call", 1, "evil\nsecond line\x1b[2J" + "x" * 500)
    assert "\n" not in error.message
    assert "\x1b" not in error.message
    assert "…" in error.message
    assert len(error.message) < 400


def test_rpc_error_keeps_the_remote_code():
    error = McpTransportError.rpc_error(SERVER, "tools/call", -32602, "Unknown tool: x")
    assert error.rpc_code == -32602
    assert "-32602" in error.message
    assert "Unknown tool: x" in error.message


def test_cancelled_says_whether_the_request_had_gone_out():
    in_flight = McpTransportError.cancelled(SERVER, "tools/call", in_flight=True)
    before = McpTransportError.cancelled(SERVER, "initialize", in_flight=False)
    assert in_flight.in_flight is True and before.in_flight is False
    assert "unknown" in in_flight.message
    assert "not sent" in before.message


def test_timed_out_says_the_grant_and_why_it_was_larger_than_what_remained():
    error = McpTransportError.timed_out(SERVER, "tools/call", 2.5, 3, remaining_s=2.1)
    text = error.message
    assert "within the 2.5-second budget" not in text  # the step ran 3 s: that would not be true
    assert "3 s granted" in text and "2.1 s of the 2.5-second budget" in text
    assert "each request is granted whole seconds" in text and "ran past its budget" in text
    first = McpTransportError.timed_out(SERVER, "initialize", 2.5, 3, remaining_s=2.5)
    assert "The budget of this operation is 2.5 s" in first.message
    # A run's step is something else: the grant is the request's (the leg's).
    assert " step " not in text and " step " not in first.message


def test_timed_out_when_the_grant_is_what_remained():
    text = McpTransportError.timed_out(SERVER, "tools/call", 20, 12, remaining_s=12.0).message
    assert "within the 12 s left of the 20-second budget" in text and "whole seconds" not in text


def test_a_server_message_ending_in_a_full_stop_ends_the_sentence_once():
    """prompts/get without a required argument: the demo server says "summarize needs the argument
    text." and the sentence around it ended in "text..": the server's full stop now goes."""
    error = McpTransportError.rpc_error(SERVER, "prompts/get", -32602, "summarize needs the argument text.")
    assert error.message.endswith("-32602: summarize needs the argument text.")
    assert McpTransportError.rpc_error(SERVER, "tools/call", 1, "no stop").message.endswith(": no stop.")
