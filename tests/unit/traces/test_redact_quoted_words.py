"""A command line's credential in a word quoted whole, as a command server's key quotes its words (``shlex.join``:
``'--password=a;b'``, ``'API_KEY=a b'``, ``'a'"'"'b'`` for a value holding its own quote) or as one is typed in
double quotes, is hidden whole: the key is the run's server and the request's address of every step an export
writes. Each shape was exported with the stretch after the first quote, space or ``;`` of its value still there
(``'--password=[REDACTED];word9'``; ``--password 'Pa55'"'"'word9'`` since the value of an option named like a
credential is read quoted, before which it was hidden whole)."""

from __future__ import annotations

import shlex
import time

import pytest

from inspector.mcp.server import command_key
from inspector.mcp.server_command import ServerCommand
from inspector.traces.redact import REDACTED, redact, redact_text

# Characters a generated password holds that shlex.join quotes the word for.
SECRETS = ["Pa55'word9", 'Pa55"word9', "Pa55 word9", "Pa55;word9", "Pa55&word9", "Pa55}word9", "Pa55\\word9",
           "Pa55]word9"]
WORDS = {
    "option and value": lambda s: ["--password", s],
    "option=value": lambda s: [f"--password={s}"],
    "key option": lambda s: ["--api-key", s],
    "variable": lambda s: [f"API_KEY={s}"],
    "header": lambda s: ["--header", f"X-Api-Key: {s}"],
    "bearer header": lambda s: ["--header", f"Authorization: Bearer {s}"],
    "curl -u": lambda s: ["-u", f"bob:{s}"],
    "curl --user": lambda s: ["--user", f"bob:{s}"],
}


def _leaked(text: str) -> bool:
    return "Pa55" in text or "word9" in text


@pytest.mark.parametrize("secret", SECRETS)
@pytest.mark.parametrize("shape", sorted(WORDS))
def test_a_command_servers_key_is_exported_without_its_credential(shape: str, secret: str) -> None:
    words = ("npx", "-y", "server", *WORDS[shape](secret), "--mode", "fast")
    # A key kept here leaves the credential out already; a stranger's file, or a database older than that, holds it.
    assert not _leaked(command_key(ServerCommand(words[0], words[1:])))
    key = "stdio:" + shlex.join(words)
    shown = redact_text(key)
    assert not _leaked(shown), (key, shown)
    assert REDACTED in shown and shown.startswith("stdio:npx -y server ") and shown.endswith(" --mode fast"), shown
    exchange = redact({"request": {"method": "stdin", "url": key.removeprefix("stdio:")}})
    assert not _leaked(exchange["request"]["url"]), exchange


@pytest.mark.parametrize(("typed", "shown"), [
    ('srv --password "Pa55 word9" -p 8080', f"srv --password {REDACTED} -p 8080"),
    ('docker run -e "API_KEY=Pa55;word9" image', f'docker run -e "API_KEY={REDACTED}" image'),
    ('curl -u "bob:Pa55 word9" https://api.example.org/', f"curl -u {REDACTED} https://api.example.org/"),
    ("srv 'Authorization: Bearer Pa55 word9'", f"srv 'Authorization: {REDACTED}'"),
])
def test_a_credential_typed_in_double_quotes_is_hidden_whole(typed: str, shown: str) -> None:
    assert redact_text(typed) == shown


@pytest.mark.parametrize("ordinary", [
    "stdio:npx -y server '--mode=fast; slow' --title 'it'\"'\"'s mine'",
    "srv --header 'Accept: application/json; q=1' -u bob",
    "the user's notes: 'name=a b' and \"mode: fast slow\"",
])
def test_quoted_words_not_named_like_a_credential_are_kept(ordinary: str) -> None:
    assert redact_text(ordinary) == ordinary


@pytest.mark.parametrize("shape", ["'password=", "'password='\"'\"'", "--password '", "-u \"a:", "\"API_KEY=x\\",
                                   "'--api-key=x'\"'\"'"])
def test_a_megabyte_of_quoted_shapes_is_redacted_in_seconds(shape: str) -> None:
    text = (shape * (1_000_000 // len(shape) + 1))[:1_000_000]
    started = time.perf_counter()
    redact_text(text)
    assert time.perf_counter() - started < 5.0  # 0.1-0.9 s on a loaded machine
