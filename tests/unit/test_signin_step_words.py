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


def test_a_failed_sign_in_names_its_step_in_words() -> None:
    from inspector.i18n.messages import translate
    from inspector.mcp.errors import McpTransportError
    from inspector.mcp.messages import N_, Message

    error = McpTransportError.signin_failed("auth.example", flow.STEP_BROWSER,
                                            Message(N_("the browser came back without a code")))
    assert error.signin_step == flow.STEP_BROWSER  # the machine's name stays on the error
    assert str(error.message) == ("Signing in to auth.example failed at the step “Signing in in the browser”: "
                                  "the browser came back without a code.")
    set_language("de")
    assert translate(error.sentences[0]).startswith(
        "Die Anmeldung bei auth.example ist beim Schritt „Im Browser anmelden“ fehlgeschlagen: ")
    unknown = McpTransportError.signin_failed("auth.example", "sign-in: new", Message(N_("no code")))
    assert "„sign-in: new“" in translate(unknown.sentences[0])
