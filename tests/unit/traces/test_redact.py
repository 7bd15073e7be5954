"""Redaction: credentials are removed from anything exported, wherever and however they appear."""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.runs import RunStep
from inspector.traces.redact import REDACTED, is_secret_key, redact, redact_text

PAYLOAD_KEYS = [
    "kind", "round", "durationMs", "messagesSent", "toolSpecs", "content", "thinking", "finishReason",
    "promptTokens", "completionTokens", "totalTokens", "estimatedCost", "requestedToolCalls", "raw",
    "droppedSources", "toolName", "toolArguments", "toolResult", "toolIsError", "toolOutcome", "toolArtifacts",
    "contextBudget", "writeTargetTable", "writeTargetUid", "legs", "cancelledInFlight",
    "method", "grantedS", "elapsedMs", "httpStatus", "outcome", "sequence", "started_at", "payload",
]  # fmt: skip
SECRET_KEYS = [
    "authorization", "Authorization", "Proxy-Authorization", "cookie", "Set-Cookie", "token", "access_token",
    "refreshToken", "X-Auth-Token", "id_token", "api_key", "apikey", "x-api-key", "X_API_KEY", "apiKey",
    "password", "new_password", "passwd", "pwd", "secret", "client_secret", "clientSecret", "credential",
    "credentials", "session_id", "sessionId", "Mcp-Session-Id", "PHPSESSID", "private_key", "oauth",
]  # fmt: skip
HARMLESS_KEYS = ["max_tokens", "input_tokens", "promptTokens", "token_count", "author", "keyboard", "monkey",
                 "description", "name", "value", "key", "passenger", "tokens"]


@pytest.mark.parametrize("name", SECRET_KEYS)
def test_secret_key_names_are_recognised_in_any_spelling(name: str) -> None:
    assert is_secret_key(name)


@pytest.mark.parametrize("name", PAYLOAD_KEYS + HARMLESS_KEYS)
def test_payload_keys_and_counts_named_like_tokens_are_not_secrets(name: str) -> None:
    assert not is_secret_key(name)


def test_secret_values_go_at_any_depth_and_the_rest_stays() -> None:
    value = {
        "headers": {"Authorization": "Bearer abc", "X-Api-Key": 12345, "Accept": "application/json"},
        "list": [[{"client_secret": {"nested": "deep"}}], ("tuple", {"PASSWORD": "x"})],
        "promptTokens": 3, "cookie": None, "token": False, "q": "cats",
    }
    assert redact(value) == {
        "headers": {"Authorization": REDACTED, "X-Api-Key": REDACTED, "Accept": "application/json"},
        "list": [[{"client_secret": REDACTED}], ["tuple", {"PASSWORD": REDACTED}]],
        "promptTokens": 3, "cookie": None, "token": False, "q": "cats",  # null/false hold no secret
    }
    assert value["headers"]["Authorization"] == "Bearer abc"  # the input is not changed


def test_name_and_value_pairs_lose_the_value() -> None:
    headers = [{"name": "Authorization", "value": "Basic xyz"}, {"key": "http.request.header.cookie",
                                                                 "value": {"stringValue": "s=1"}},
               {"name": "Accept", "value": "text/html"}]
    assert redact(headers) == [{"name": "Authorization", "value": REDACTED},
                               {"key": "http.request.header.cookie", "value": REDACTED},
                               {"name": "Accept", "value": "text/html"}]


def test_a_step_payload_keeps_its_shape() -> None:
    step = RunStep.from_payload({"kind": "tool", "round": 1, "durationMs": 1.0, "toolName": "t",
                                 "toolArguments": {"api_key": "k", "limit": 2}, "toolResult": "ok",
                                 "toolIsError": False, "toolOutcome": "ok", "promptTokens": 7,
                                 "legs": [{"method": "tools/call", "grantedS": 20, "elapsedMs": 1.5,
                                           "httpStatus": 200, "outcome": "ok"}]})
    redacted = redact(step.to_payload())
    assert redacted["toolArguments"] == {"api_key": REDACTED, "limit": 2}
    assert RunStep.from_payload(redacted).legs == step.legs  # still a valid step


BASIC = base64.b64encode(b"bob:hunter2").decode()


@pytest.mark.parametrize(("text", "expected"), [
    ("Authorization: Bearer abc.def-123", "Authorization: [REDACTED]"),
    ("curl -H 'Authorization: Bearer abcdefgh' x", "curl -H 'Authorization: [REDACTED]' x"),
    ("send bearer abc123 please", "send bearer [REDACTED] please"),
    (f"Basic {BASIC}", "Basic [REDACTED]"),
    ("Basic understanding of basics", "Basic understanding of basics"),
    ("https://bob:hunter2@example.com/x", "https://[REDACTED]@example.com/x"),
    ("git+ssh://ghp_token@github.com/a/b", "git+ssh://[REDACTED]@github.com/a/b"),
    ("https://example.com/x?api_key=XYZ&page=2", "https://example.com/x?api_key=[REDACTED]&page=2"),
    ('{"access_token":"tok123","expires_in":3600}', '{"access_token":"[REDACTED]","expires_in":3600}'),
    (r'{\"api_key\": \"k3y\", \"q\": 1}', r'{\"api_key\": \"[REDACTED]\", \"q\": 1}'),
    ("{'password': 'x y z'}", "{'password': '[REDACTED]'}"),
    ("password=hunter2; user=bob", "password=[REDACTED]; user=bob"),
    ("Cookie: a=b; c=d\nAccept: */*", "Cookie: [REDACTED]\nAccept: */*"),
    ("X-Api-Key: k9 and more", "X-Api-Key: [REDACTED]"),
    ("id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcDEF", "id [REDACTED]"),
    ("key sk-proj-abcdefghijklmnop1234", "key [REDACTED]"),
    ("ghp_abcdefghijklmnopqrstuvwxyz0123 used", "[REDACTED] used"),
    ("slack xoxb-1234567890-abcdefghij", "slack [REDACTED]"),
    ("aws AKIAABCDEFGHIJKLMNOP", "aws [REDACTED]"),
    ("max_tokens=100, tokens: 5, token_count=3", "max_tokens=100, tokens: 5, token_count=3"),
    ("mail bob@example.com or git@github.com:x/y", "mail bob@example.com or git@github.com:x/y"),
    ('{"password": null, "a": 1}', '{"password": null, "a": 1}'),
])  # fmt: skip
def test_credentials_inside_strings_are_removed(text: str, expected: str) -> None:
    assert redact_text(text) == expected


def test_deep_nesting_does_not_exhaust_the_stack() -> None:
    value: object = {"password": "x"}
    for _ in range(10_000):
        value = [value]
    redacted = redact(value)
    for _ in range(10_000):
        redacted = redacted[0]
    assert redacted == {"password": REDACTED}


JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30)
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=25)
SECRET = st.from_regex(r"[A-Za-z0-9]{12,24}", fullmatch=True).map(lambda text: f"Q{text}Z")


def _plant(document: object, path: list[int], key: str, secret: str) -> object:
    """Put {key: secret} into ``document`` somewhere along ``path``."""
    if isinstance(document, dict) and path:
        keys = sorted(document)
        if keys:
            chosen = keys[path[0] % len(keys)]
            return {**document, chosen: _plant(document[chosen], path[1:], key, secret)}
    if isinstance(document, list) and document and path:
        index = path[0] % len(document)
        return [*document[:index], _plant(document[index], path[1:], key, secret), *document[index + 1:]]
    return {"holder": document, key: secret}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=JSON_VALUES, path=st.lists(st.integers(0, 10), max_size=6), key=st.sampled_from(SECRET_KEYS),
       secret=SECRET)
def test_a_planted_secret_never_survives(document: object, path: list[int], key: str, secret: str) -> None:
    redacted = redact(_plant(document, path, key, secret))
    assert secret not in json.dumps(redacted)


@settings(max_examples=300, deadline=None)
@given(before=st.text(max_size=40), after=st.text(max_size=40), secret=SECRET,
       form=st.sampled_from(["Bearer {}", "Authorization: {}", "api_key={}", '"password": "{}"',
                             "https://user:{}@host/", "token = {}", "X-Api-Key: {}"]))
def test_a_secret_in_free_text_never_survives(before: str, after: str, secret: str, form: str) -> None:
    text = f"{before}\n{form.format(secret)} {after}"
    assert secret not in redact_text(text)


@settings(max_examples=200, deadline=None)
@given(document=JSON_VALUES)
def test_redacting_twice_changes_nothing_more(document: object) -> None:
    once = redact(document)
    assert redact(once) == once


def test_a_bearer_scheme_glued_to_a_word_still_loses_its_token() -> None:
    # Found by hypothesis: a word just before "Bearer" hid the scheme from a \b-anchored pattern.
    assert "Q000000000000Z" not in redact_text("BEARERBearer Q000000000000Z")


def test_a_bearer_scheme_repeated_on_the_next_line_does_not_shield_the_token() -> None:
    # Found by hypothesis: "BEARER" took the next line's "Bearer" as its token and left the real one.
    for text in ("BEARER\nBearer Q000000000000Z ", "bearer bearer Q000000000000Z", "Bearer\tBEARER\nQ000000000000Z",
                 "BEARER\nAuthorization: Q000000000000Z", "Bearer token = Q000000000000Z",
                 "bearer X-Api-Key: Q000000000000Z", "bearer api_key=Q000000000000Z"):
        assert "Q000000000000Z" not in redact_text(text), text
    for token in ("bearerXYZ123", "tokenXYZ123", "passwordless123"):  # tokens that start like a name
        assert token not in redact_text(f"Bearer {token}"), token


def test_lines_of_text_are_not_taken_for_a_name_and_its_value() -> None:
    # A server's stderr kept in a step: the first line names a credential; the second is no value of it.
    lines = ["Authorization: Bearer abc123", "connected to the database"]
    assert redact(lines) == [f"Authorization: {REDACTED}", "connected to the database"]
    assert redact(["Authorization", "opaque-value"]) == ["Authorization", REDACTED]  # a pair still is one
