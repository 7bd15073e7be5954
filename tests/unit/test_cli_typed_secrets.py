"""A value of --header or --env typed without its separator is hidden where a sentence repeats it after its option
or quoted, never as a word anywhere: a variable's name "server" is no credential, and the sentence keeps its words."""

from __future__ import annotations

from inspector.cli.typed_secrets import masked

SENTENCE = "--env and --cwd are for a server started as a command (--stdio), not for an address."


def test_a_value_without_separator_is_hidden_after_its_option_and_quoted() -> None:
    argv = ["runs", "list", "--head", "Bearer t0k-9a8b"]
    assert masked("unrecognized arguments: --head Bearer t0k-9a8b", argv) == "unrecognized arguments: --head …"
    assert masked("got 'Bearer t0k-9a8b'", argv) == "got '…'"


def test_a_value_without_separator_is_not_hidden_from_other_words() -> None:
    assert masked(SENTENCE, ["call", "http://127.0.0.1:9/mcp", "echo", "--env", "server"]) == SENTENCE
