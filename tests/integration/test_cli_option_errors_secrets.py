"""An option's value the command cannot use is repeated in its refusal without a credential it carries: a
password before an address's host, its query and its fragment (``#access_token=…``), whichever path refused it
(the command's own check of ``--budget``, ``--port``, ``--lang``; argparse's "invalid choice", "invalid int
value"; the range check of ``--limit`` and ``--step``, which cuts a long value short); in English and German, in
plain output and in ``--json``'s error object."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.support.cli_process import cli

LEAKS = ("pw-7Qz1", "k3y-51c2x", "t0k-9a8b")
ADDRESSES = [
    ("http://bob:pw-7Qz1@mcp.example.org/mcp", "http://mcp.example.org/mcp"),
    ("bob:pw-7Qz1@mcp.example.org/mcp?api_key=k3y-51c2x", "mcp.example.org/mcp?…"),
    ("https://mcp.example.org/mcp#access_token=t0k-9a8b", "https://mcp.example.org/mcp#…"),
    ("mcp.example.org/mcp#access_token=t0k-9a8b&state=x", "mcp.example.org/mcp#…"),
]


@pytest.mark.parametrize(("typed", "shown"), ADDRESSES)
@pytest.mark.parametrize(("words", "said"), [
    (["call", "http://127.0.0.1:9/mcp", "echo", "--budget={}"], "(got '{}')"),
    (["runs", "list", "--limit={}"], "not {}"),
    (["runs", "note", "1", "hi", "--step", "{}"], "not {}"),
    (["export", "--format={}"], "invalid choice: '{}'"),
    (["--lang={}", "runs", "list"], "There is no language '{}'"),
    (["serve-demo", "--port={}"], "(got '{}')"),
    (["call", "http://127.0.0.1:9/mcp", "echo", "--allow-sampling={}"], "not {}"),
    (["resources", "subscribe", "http://127.0.0.1:9/mcp", "x", "--count={}"], "invalid int value: '{}'"),
])
def test_an_option_value_is_repeated_without_its_credentials(
        words: list[str], said: str, typed: str, shown: str, tmp_path: Path) -> None:
    db = [] if words[0] == "serve-demo" else ["--db", str(tmp_path / "runs.db")]  # it keeps no runs
    refused = cli(*(word.format(typed) for word in words), "--json", *db)
    assert refused.returncode == 2, refused
    assert said.format(shown) in refused.stderr, refused.stderr
    assert said.format(shown) in json.loads(refused.stdout)["error"]["message"]
    for leak in LEAKS:
        assert leak not in refused.stdout + refused.stderr, refused


@pytest.mark.parametrize(("words", "said"), [
    (["call", "http://127.0.0.1:9/mcp", "echo", "--budget={}"], "(angegeben: '{}')"),
    (["runs", "list", "--limit={}"], "nicht {}"),
])
def test_in_german_too(words: list[str], said: str, tmp_path: Path) -> None:
    typed, shown = ADDRESSES[1]
    refused = cli("--lang", "de", *(word.format(typed) for word in words), "--db", str(tmp_path / "runs.db"))
    assert refused.returncode == 2, refused
    assert said.format(shown) in refused.stderr, refused.stderr
    for leak in LEAKS:
        assert leak not in refused.stderr, refused.stderr


def test_a_long_value_is_cut_short_after_its_password_is_taken_out(tmp_path: Path) -> None:
    # Cut at 30 characters first, the word could no longer be found whole to hide its password.
    typed = "http://bob:pw-7Qz1@mcp.example.org/" + "a" * 40
    refused = cli("runs", "list", "--limit", typed, "--db", str(tmp_path / "runs.db"))
    assert refused.returncode == 2, refused
    assert "not http://mcp.example.org/aaaaaaa…" in refused.stderr, refused.stderr
    assert "pw-7Qz1" not in refused.stderr


def test_a_long_word_is_checked_for_credentials_in_time_linear_in_its_length(tmp_path: Path) -> None:
    # Each position of the word was tried as a password's start: 10,000 characters took 2 to 4 s, 100,000 minutes.
    for word in ("a" * 100_000, "a:" * 50_000, ":" * 100_000, "#" * 100_000, "#a" * 50_000):
        started = time.monotonic()
        refused = cli("runs", "list", "--limit", word, "--db", str(tmp_path / "runs.db"), timeout=60)
        assert refused.returncode == 2, refused
        assert time.monotonic() - started < 15, word[:4]


@pytest.mark.parametrize(("words", "said"), [
    (["--header", "Authorization: Bearer t0k-9a8b"], "unrecognized arguments: --header Authorization: …. "),
    (["--header=X-Api-Key: k3y-51c2x"], "unrecognized arguments: --header=X-Api-Key: …. "),
    (["--env", "TOKEN=t0k-9a8b"], "unrecognized arguments: --env TOKEN=…. "),
    (["--secret-env=PASS=pw-7Qz1"], "unrecognized arguments: --secret-env=PASS=…. "),
    # a value without its separator is hidden whole (it was repeated: "--header Bearer t0k-…")
    (["--header", "Bearer t0k-9a8b"], "unrecognized arguments: --header …. "),
    (["--secret-header=k3y-51c2x"], "unrecognized arguments: --secret-header=…. "),
    # an option abbreviated as argparse takes it (--head for --header)
    (["--head", "Authorization: Bearer t0k-9a8b"], "unrecognized arguments: --head Authorization: …. "),
    (["--secret-e=PASS=pw-7Qz1"], "unrecognized arguments: --secret-e=PASS=…. "),
    # curl's -H, an option misspelt or cased otherwise: a header whose name says it holds a credential, anywhere
    (["-H", "Authorization: Bearer t0k-9a8b"], "unrecognized arguments: -H Authorization: …. "),
    (["--headers", "X-Api-Key: k3y-51c2x"], "unrecognized arguments: --headers X-Api-Key: …. "),
    (["Authorization: Bearer t0k-9a8b"], "unrecognized arguments: Authorization: …. "),
    (["--HEADER", "Bearer t0k-9a8b"], "unrecognized arguments: --HEADER …. "),
    (["--Header=X-Api-Key: k3y-51c2x"], "unrecognized arguments: --Header=X-Api-Key: …. "),
    (["--Env", "TOKEN=t0k-9a8b"], "unrecognized arguments: --Env TOKEN=…. "),
    # where a number belongs, hidden before it is cut short (it said "not Authorization: Bearer t0k-9a8b…")
    (["--limit", "Authorization: Bearer t0k-9a8b-0123456789"], "not Authorization: …"),
])
def test_a_header_or_a_variable_given_where_it_is_not_taken_is_repeated_without_its_value(
        words: list[str], said: str, tmp_path: Path) -> None:
    refused = cli("runs", "list", *words, "--json", "--db", str(tmp_path / "runs.db"))
    assert refused.returncode == 2, refused
    assert said in refused.stderr, refused.stderr
    assert said in json.loads(refused.stdout)["error"]["message"]
    for leak in LEAKS:
        assert leak not in refused.stdout + refused.stderr, refused


def test_a_credential_header_given_as_a_number_is_cut_short_without_its_value(tmp_path: Path) -> None:
    # Cut at 40 characters first, the header could no longer be found whole ("Authorization: Bearer t0k-9a8b-0…").
    refused = cli("call", "http://127.0.0.1:9/mcp", "echo", "--budget", "Authorization: Bearer t0k-9a8b-" + "0" * 40,
                  "--db", str(tmp_path / "runs.db"))
    assert refused.returncode == 2, refused
    assert "(got 'Authorization: …')" in refused.stderr, refused.stderr
    assert "t0k-9a" not in refused.stderr
