"""The quick test of whether text may hold a credential says what the pattern it stands in for says."""

from __future__ import annotations

import importlib
import random
import string

from inspector.traces.redact import redact_text

redact_module = importlib.import_module("inspector.traces.redact")  # the package's ``redact`` is the function


def test_the_quick_test_agrees_with_the_pattern_on_long_ascii_text() -> None:
    planted = [*redact_module._SUSPECT_WORDS, "pin", "otp", "-u", "Pin.", "x-u", "--User", "GHP_", "EyJ", "AKIA",
               "HOOKS.SLACK", "Bearer", "sId"]
    chance = random.Random(25)
    for _ in range(5000):
        size = chance.randint(256, 600)
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
