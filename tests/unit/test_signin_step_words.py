"""A sign-in's steps in words: every step the flow names has them, in English and German, and the
window's sign-in view and the command line say the same."""

from __future__ import annotations

import io

import pytest

from inspector.cli.signin import SignInPrinter
from inspector.gui.workbench.signin_steps import step_words
from inspector.i18n import set_language
from inspector.mcp.signin import flow
from inspector.mcp.signin.flow import STEP_WORDS, SignInStep

STEPS = sorted(value for name, value in vars(flow).items() if name.startswith("STEP_") and isinstance(value, str))


def test_every_step_of_the_flow_has_words() -> None:
    assert len(STEPS) == 7 and set(STEPS) == set(STEP_WORDS)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_window_and_the_command_line_say_each_step_alike(language: str) -> None:
    assert set_language(language) == language
    said = set()
    for step in STEPS:
        words = step_words(step)
        assert words != step and "sign-in:" not in words, step
        out = io.StringIO()
        SignInPrinter(out).signin_step(SignInStep(step, "found it"))
        assert out.getvalue() == f"run-inspector: {words}: found it\n"
        said.add(words)
    assert len(said) == len(STEPS)
    if language == "de":
        assert step_words(flow.STEP_IDENTITY) == "Identitätsanbieter fragen"
        assert step_words(flow.STEP_TOKEN) == "Token holen"


def test_a_step_without_words_keeps_its_name() -> None:
    assert step_words("sign-in: something new") == "sign-in: something new"
