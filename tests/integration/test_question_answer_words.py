"""What the client answered a server's question reads as the protocol's word, quoted, in German too
(before: "die Antwort war decline", an English word left bare in a German sentence). The demo server on
127.0.0.1 (`ask_user`), the real command line with --elicit decline."""

from __future__ import annotations

import pytest

from tests.support.cli_process import cli_here


@pytest.mark.parametrize(("language", "said"), [
    ("en", '; the answer was decline.'),
    ("de", '; die Antwort lautete „decline“.')])
def test_the_answer_to_a_question_is_said(demo_server, language: str, said: str) -> None:
    done = cli_here("--lang", language, "call", demo_server.url, "ask_user", "--elicit", "decline", "--no-store")
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if line.endswith(said)]
    assert line.startswith("The server asked" if language == "en" else "Der Server fragte „"), line
