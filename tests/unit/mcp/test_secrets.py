"""The scrubber of known secrets: the shapes a value comes back in, what it leaves alone, and that
data passed on loses only the values (never a pattern's guess)."""

from __future__ import annotations

import base64
import json

from inspector.mcp import REDACTED, Secrets, ServerEndpoint
from inspector.mcp.messages import Message
from inspector.mcp.secrets import header_secrets, is_secret_header, url_secrets
from inspector.store.secrets import is_secret_header as store_is_secret_header
from inspector.traces.redact import REDACTED as TRACES_REDACTED
from inspector.traces.redact import redact_text
from tests.support.collector_headers import COLLECTOR_PLAIN_HEADERS, COLLECTOR_SECRET_HEADERS

KEY = "sk-proj-Zq7wX2mK9vB4nR8tY1uJ6hG3"


def test_the_value_goes_wherever_it_stands() -> None:
    secrets = Secrets([KEY])
    said = f"Incorrect API key provided: Bearer {KEY}."
    assert secrets.scrub(said) == f"Incorrect API key provided: Bearer {REDACTED}."
    assert secrets.scrub(f"{KEY}{KEY}") == REDACTED * 2
    assert secrets.scrub("nothing here") == "nothing here"


def test_a_header_value_goes_also_without_its_scheme_and_decoded_from_basic() -> None:
    bearer = Secrets([f"Bearer {KEY}"])
    assert KEY not in bearer.scrub(f"the token {KEY} is wrong")
    basic = Secrets(["Basic " + base64.b64encode(b"ada:hunter2-long").decode()])
    assert basic.scrub("user ada:hunter2-long, password hunter2-long") == f"user {REDACTED}, password {REDACTED}"


def test_escaped_shapes_are_found() -> None:
    value = 'a"b\\c/d e'
    secrets = Secrets([value])
    assert secrets.scrub('{"echo": "a\\"b\\\\c/d e"}') == f'{{"echo": "{REDACTED}"}}'
    assert secrets.scrub("?k=a%22b%5Cc%2Fd%20e") == f"?k={REDACTED}"


def test_short_values_are_not_searched_for() -> None:
    assert Secrets(["ab"]).scrub("about a tab") == "about a tab"
    assert not Secrets(["ab", None, ""])


def test_json_is_copied_and_only_values_go() -> None:
    answer = {"content": [{"type": "text", "text": f"key {KEY}"}], KEY: 1, "password": "hunter2", "n": 3}
    secrets = Secrets([KEY], patterns=redact_text)
    scrubbed = secrets.scrub_json(answer)
    assert scrubbed == {"content": [{"type": "text", "text": f"key {REDACTED}"}], REDACTED: 1,
                        "password": "hunter2", "n": 3}
    assert answer["content"][0]["text"] == f"key {KEY}"  # the input is untouched
    # A sentence quoting text gets the patterns too.
    assert secrets.scrub("password=hunter2") == f"password={REDACTED}"


def test_deep_json_does_not_exhaust_the_stack() -> None:
    deep: object = KEY
    for _ in range(50_000):
        deep = [deep]
    scrubbed = Secrets([KEY]).scrub_json(deep)
    for _ in range(50_000):
        scrubbed = scrubbed[0]
    assert scrubbed == REDACTED


def test_messages_have_their_quoted_values_scrubbed() -> None:
    inner = Message("inner {x}", {"x": KEY})
    outer = Secrets([KEY]).scrub_message(Message("said {detail} and {what}",
                                                 {"detail": f"Bearer {KEY}", "what": inner}))
    assert str(outer) == f"said Bearer {REDACTED} and inner {REDACTED}"


def test_a_servers_secrets_are_its_credential_headers_the_marked_ones_and_its_url_password() -> None:
    endpoint = ServerEndpoint("http://ada:pass-word-1@127.0.0.1:1/mcp",
                              headers={"X-Api-Key": "key-value-1", "X-Tenant": "tenant-1", "Accept-Language": "de-DE"},
                              secret_headers=frozenset({"x-tenant"}))
    basic = base64.b64encode(b"ada:pass-word-1").decode()
    text = endpoint.secrets().scrub(f"key-value-1 tenant-1 de-DE pass-word-1 {basic}")
    assert text == f"{REDACTED} {REDACTED} de-DE {REDACTED} {REDACTED}"
    assert repr(endpoint.secrets()) == "Secrets(4 values)"  # never the values
    assert header_secrets({"Cookie": "c=1234"}) == ["c=1234"]
    assert url_secrets("http://127.0.0.1/") == []


def test_the_mark_and_the_header_rule_agree_with_the_rest_of_the_program() -> None:
    assert REDACTED == TRACES_REDACTED
    for name in ("Authorization", "X-Api-Key", "api_key", "Cookie", "X-Auth-Token", "Proxy-Authorization",
                 "X-Session", "Accept", "X-Tenant", "User-Agent", "Content-Type", "X-Auth", "Authentication",
                 "X-Passphrase", "X-Auth-Email", "X-Author",
                 *COLLECTOR_SECRET_HEADERS, *COLLECTOR_PLAIN_HEADERS):
        assert is_secret_header(name) == store_is_secret_header(name), name


def test_parsed_json_is_walked_only_when_its_text_may_hold_a_secret() -> None:
    secrets = Secrets([KEY])
    plain = {"text": "nothing"}
    assert secrets.scrub_parsed(plain, '{"text": "nothing"}') is plain  # not even copied
    # Spelled with escapes, the key is only found in the parsed value: such text is always walked.
    text = '{"text": "\\u0073k-proj-Zq7wX2mK9vB4nR8tY1uJ6hG3"}'
    assert secrets.scrub_parsed(json.loads(text), text) == {"text": REDACTED}
    assert secrets.scrub_parsed({"text": KEY}, f'{{"text": "{KEY}"}}'.encode()) == {"text": REDACTED}


def _grown(secrets: Secrets, pieces: list[str]) -> tuple[list[str], str]:
    growing = secrets.growing()
    told = [growing.add(piece) for piece in pieces]
    return told, growing.finish()


def test_growing_text_never_shows_a_secret_split_across_pieces() -> None:
    secrets = Secrets([KEY])
    text = f"Your key is {KEY}, and {KEY[:6]} is how it starts. {KEY}"
    whole = secrets.scrub_values(text)
    for size in (1, 3, 7, 40):
        pieces = [text[start:start + size] for start in range(0, len(text), size)]
        told, final = _grown(secrets, pieces)
        assert final == whole
        # Each text told is the start of the scrubbed whole: nothing shown is taken back, no piece of a key.
        assert all(whole.startswith(shown) for shown in told), size
        assert all(KEY[:8] not in shown for shown in told)
    # A key's start is held back while it may go on; once the text goes elsewhere it is shown.
    told, final = _grown(secrets, ["Here: ", KEY[:10], "?", " Done."])
    assert told == ["Here: ", "Here: ", f"Here: {KEY[:10]}?", f"Here: {KEY[:10]}? Done."]
    assert final == told[-1]


def test_growing_text_without_secrets_is_shown_as_it_comes() -> None:
    told, final = _grown(Secrets(), ["a", "bc", ""])
    assert told == ["a", "abc", "abc"] and final == "abc"
    # A whole secret standing across the cut: held back whole, then cut out whole.
    secrets = Secrets(["abcdef", "defghij"])
    told, final = _grown(secrets, ["xx abcdef", "ghi"])
    assert final == secrets.scrub_values("xx abcdefghi") and all(final.startswith(shown) for shown in told)
