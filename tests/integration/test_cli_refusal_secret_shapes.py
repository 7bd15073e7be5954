"""Shapes of a typed credential a refusal repeated whole (review67a, secrets67): an address percent-encoded
(``http%3A%2F%2Fbob%3Apw%40h``) or typed with a slip in its scheme (``http:/``, ``http//``, ``//``); a header glued
to its option (``--header:Authorization: Bearer T``); a command line of ``--stdio`` holding an option named like a
credential (``--token T``, ``--api-key=K``) or a variable (``TOKEN=T cmd``); a bearer token or a key of a known
shape typed alone; an option of another program named like a credential (``--api-key K``). Each is repeated
without the credential, in English and German, in plain output and in ``--json``. And a missing file whose name
holds ``#`` and ``=`` (``exports/run#v=2.json``) is told as a missing file again, not as a server's address."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here as cli

LEAKS = ("pw-7Qz1", "k3y-51c2x", "t0k-9a8b", "sk-proj-", "Q9x8")


def _refused(*words: str, db: Path) -> tuple[str, str]:
    """The refusal of ``words`` (status 2) in plain output and as ``--json``'s message, checked for no leak."""
    plain = cli(*words, "--db", str(db))
    as_json = cli(*words, "--json", "--db", str(db))
    assert plain.returncode == as_json.returncode == 2, (plain, as_json)
    message = json.loads(as_json.stdout)["error"]["message"]
    for leak in LEAKS:
        assert leak not in plain.stdout + plain.stderr + as_json.stdout + as_json.stderr, (leak, plain, as_json)
    return plain.stderr, message


@pytest.mark.parametrize(("typed", "shown"), [
    ("http%3A%2F%2Fbob%3Apw-7Qz1%40mcp.example.org%2Fmcp", "http://mcp.example.org/mcp"),
    ("http%253A%252F%252Fbob%253Apw-7Qz1%2540mcp.example.org", "http://mcp.example.org"),  # encoded twice
    ("bob%3Apw-7Qz1%40mcp.example.org", "mcp.example.org"),
    ("https://mcp.example.org/mcp%3Fapi_key%3Dk3y-51c2x", "https://mcp.example.org/mcp?…"),
    ("Authorization%3A%20Bearer%20t0k-9a8b", "Authorization: …"),
    ("http:/bob:pw-7Qz1@mcp.example.org/mcp", "http:/mcp.example.org/mcp"),
    ("http//bob:pw-7Qz1@mcp.example.org/mcp", "http//mcp.example.org/mcp"),
    ("//bob:pw-7Qz1@mcp.example.org/mcp", "//mcp.example.org/mcp"),
    ("Bearer t0k-9a8b", "Bearer …"),
    ("sk-proj-Q9x8abcdefghijklmnop", "…"),
])
def test_a_credential_in_another_shape_is_not_repeated(typed: str, shown: str, tmp_path: Path) -> None:
    plain, message = _refused("runs", "list", "--limit", typed, db=tmp_path / "runs.db")
    assert f"not {shown}" in plain, plain
    assert f"not {shown}" in message


def test_a_percent_encoded_address_in_german(tmp_path: Path) -> None:
    plain, _message = _refused("--lang", "de", "call", "http://127.0.0.1:9/mcp", "echo", "--budget",
                               "http%3A%2F%2Fbob%3Apw-7Qz1%40mcp.example.org", db=tmp_path / "runs.db")
    assert "(angegeben: 'http://mcp.example.org')" in plain, plain


@pytest.mark.parametrize(("words", "said"), [
    (["--header:Authorization: Bearer t0k-9a8b"], "unrecognized arguments: --header:Authorization: …. "),
    (["-HX-Api-Key:k3y-51c2x"], "unrecognized arguments: -HX-Api-Key: …. "),  # as before: curl's -H glued
    (["--api-key", "k3y-51c2x"], "unrecognized arguments: --api-key …. "),
    (["--token=t0k-9a8b"], "unrecognized arguments: --token=…. "),
])
def test_an_option_of_another_program_is_repeated_without_its_credential(
        words: list[str], said: str, tmp_path: Path) -> None:
    plain, message = _refused("runs", "list", *words, db=tmp_path / "runs.db")
    assert said in plain, plain
    assert said in message


@pytest.mark.parametrize(("command", "shown"), [
    ("cmd --token t0k-9a8b", "cmd --token …"),
    ("cmd --api-key=k3y-51c2x", "cmd --api-key=…"),
    ("TOKEN=t0k-9a8b cmd", "TOKEN=… cmd"),
    ("cmd --password 'pw-7Qz1 Q9x8'", "cmd --password …"),
    ('cmd --password "pw-7Qz1 Q9x8"', "cmd --password …"),  # quoted again by the sentence: 'pw-7Qz1 Q9x8'
    ("npx mcp-remote https://h.example.org/mcp --header 'Authorization: Bearer t0k-9a8b'",
     "npx mcp-remote https://h.example.org/mcp --header 'Authorization: …'"),
])
def test_a_command_line_of_stdio_is_quoted_without_its_credentials(command: str, shown: str, tmp_path: Path) -> None:
    # Chose: options named like a credential (token, key, secret, password, auth, credential …) and NAME=VALUE
    # assignments lose their values; a short option (-p T: a port as often as a password) keeps its value.
    plain, message = _refused("tools", "--stdio", command, "extra", db=tmp_path / "runs.db")
    assert f"--stdio \"{shown} extra\"" in plain or f"--stdio '{shown} extra'" in plain, plain
    assert shown in message


def test_a_command_line_keeps_its_other_words(tmp_path: Path) -> None:
    plain, _message = _refused("tools", "--stdio", "srv -p 8080 --mode fast", "extra", db=tmp_path / "runs.db")
    assert '--stdio "srv -p 8080 --mode fast extra"' in plain, plain


@pytest.mark.parametrize("words", [
    ["servers", "set", "vault", "--stdio", "cmd --token t0k-9a8b"],  # unrecognized arguments
    ["tools", "stdio:cmd --token t0k-9a8b"],  # a command server's key that is not configured
    ["tools", "cmd --token t0k-9a8b"],  # a command line where a server goes
    ["tools", "cmd --token t0k-9a8b " + "a" * 490],  # cut short at 500 characters: no longer found whole
    ["--lang", "de", "tools", "--stdio", "cmd --api-key=k3y-51c2x", "extra"],
])
def test_a_command_line_is_not_repeated_with_its_credential_anywhere(words: list[str], tmp_path: Path) -> None:
    plain, message = _refused(*words, db=tmp_path / "runs.db")
    assert "…" in plain and "…" in message, plain


@pytest.mark.parametrize(("typed", "shown"), [
    ("exports/run#v=2.json", "exports/run#v=2.json"),  # was "http://exports/run#… is a server's address"
    ("exports/run?x=1.jsonl", "exports/run?x=1.jsonl"),
    ("exports/run#access_token=t0k-9a8b", "exports/run#…"),  # a name without a file's ending: its fragment hidden
    ("svc/mcp?api_key=k3y-51c2x", "svc/mcp?…"),
])
def test_a_missing_file_is_told_as_one(typed: str, shown: str, tmp_path: Path) -> None:
    plain, message = _refused(typed, db=tmp_path / "runs.db")
    said = f"There is no file {shown!r} to open"
    assert said in plain, plain
    assert said in message
    german, _message = _refused("--lang", "de", typed, db=tmp_path / "runs.db")
    assert f"Es gibt keine Datei {shown!r} zum Öffnen" in german, german


def test_an_address_with_a_host_is_still_told_as_an_address(tmp_path: Path) -> None:
    plain, _message = _refused("mcp.example.org/mcp#access_token=t0k-9a8b", db=tmp_path / "runs.db")
    assert "http://mcp.example.org/mcp#… is a server's address" in plain, plain


@pytest.mark.parametrize(("words", "said"), [
    (["call", "http://127.0.0.1:9/mcp", "echo", "api_key=k3y-51c2x", "text=hi", "n=3"],
     """--args '{"api_key": "…", "text": "hi", "n": 3}'"""),
    (["call", "http://127.0.0.1:9/mcp", "echo", "--arg", "password=pw-7Qz1"], """--args '{"password": "…"}'"""),
    (["call", "--stdio", "cmd", "echo", "url=http://bob:pw-7Qz1@h.example.org/mcp"],  # as before: an address
     """--args '{"url": "http://h.example.org/mcp"}'"""),
])
def test_the_arguments_to_write_instead_hide_a_credential(words: list[str], said: str, tmp_path: Path) -> None:
    # "call URL echo api_key=K" said the JSON to write with the key in it: --args '{"api_key": "K"}'.
    plain, message = _refused(*words, db=tmp_path / "runs.db")
    assert said in plain, plain
    assert said in message
