"""The quick test of whether text may hold a credential says what the pattern it stands in for says."""

from __future__ import annotations

import importlib
import random
import string

from inspector.traces.redact import redact_text

redact_module = importlib.import_module("inspector.traces.redact")  # the package's ``redact`` is the function


def test_the_quick_test_agrees_with_the_pattern_on_ascii_text() -> None:
    planted = [*redact_module._SUSPECT_WORDS, "pin", "otp", "-u", "Pin.", "x-u", "--User", "GHP_", "EyJ", "AKIA",
               "HOOKS.SLACK", "Bearer", "sId"]
    chance = random.Random(25)
    for _ in range(5000):
        size = chance.randint(0, 600)
        text = "".join(chance.choice(string.ascii_letters + " -_:/.=\n") for _ in range(size))
        if chance.random() < 0.5:
            at = chance.randint(0, size)
            text = text[:at] + chance.choice(planted) + text[at:]
        assert redact_module._suspect(text) == bool(redact_module._SUSPECT.search(text)), text


def test_a_long_body_still_loses_its_token() -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    text = "lorem ipsum dolor " * 2000 + token + " and more"
    assert token not in redact_text(text)
    assert redact_text("lorem ipsum dolor " * 2000) == "lorem ipsum dolor " * 2000


def _every_pattern(text: str) -> str:
    """What :func:`redact_text` did before each pattern was guarded by the literal it needs: every
    pattern over every suspect text, in the same order."""
    m = redact_module
    if not m._suspect(text):
        return text
    text = m._PRIVATE_KEY.sub(m._private_key, text)
    text = m.hide_quoted_values(text, m.REDACTED, m.names_a_key)
    text = m._BEARER.sub(rf"\1\2{m.REDACTED}", text)
    text = m._BASIC.sub(m._basic, text)
    text = m._HEADER_LINE.sub(m._header_line, text)
    text = m._redact_assignments(text)
    text = m.hide_user_infos(text, m.REDACTED)
    text = m.hide_user_passwords(text, m.REDACTED)
    text = m.hide_database_passwords(text, m.REDACTED)
    text = m._SECRET_OPTION.sub(m._secret_option, text)
    if "</" in text:
        text = m._XML_ELEMENT.sub(m._xml_element, text)
    if "'" in text or '"' in text:
        text = m._TEXT_PAIR.sub(m._text_pair, text)
        text = m._TEXT_NAME_VALUE.sub(m._text_pair, text)
    return m.hide_token_shapes(text, m.REDACTED)


def test_guarding_each_pattern_by_the_literal_it_needs_changes_no_result() -> None:
    pieces = ["Bearer ", "BASIC ", "basic dXNlcjpwYXNz", "Authorization: ", "\n", "api_key=", '"token": "',
              "'", '"', "[", "]", ",", "https://", "user:pw@", "@", "-u ", "--user ", "--token ", "mysql -p",
              "MariaDB -p", "<password>", "</password>", "eyJhbGciOiJ.eyJzdWIiOi.sig", "sk-" + "a" * 20,
              "ghp_" + "b" * 24, "xoxb-" + "1" * 12, "AKIA" + "C" * 16, "sk_live_" + "d" * 12, "hf_" + "e" * 32,
              "hooks.slack.com/services/T0/B1/x", "-----BEGIN RSA PRIVATE KEY-----abc-----END RSA PRIVATE KEY-----",
              "name", "value", ":", "=", " ", "\t", "ſ", "K", "ß", "ÿ", "password", "session", "pin", "otp",
              '{"name": "X-Api-Key", "value": "v"}', '["Cookie", "c=1"]', "key: v", "x", "7", "/", "-", "--"]
    chance = random.Random(38)
    for _ in range(20000):
        text = "".join(chance.choice(pieces) for _ in range(chance.randint(1, 12)))
        assert redact_text(text) == _every_pattern(text), text
