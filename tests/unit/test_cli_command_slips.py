"""A command's name typed where a command takes its server says the line that was probably meant.

`tools ping ADDR` said "unrecognized arguments: ADDR" (the one word that was right), `tools ping` "'ping' is not a
server address …: write --stdio "ping"" (the system's ping started as an MCP server), `tools list ADDR` the
same as the first; `runs ADDR` said "e.g. run-inspector runs list ADDR", a line `runs list` refuses (it takes the
server after --server). A configured server of that name is still that server, and the words repeated keep a
typed credential out."""

from __future__ import annotations

import json

import pytest

from tests.support.cli_process import cli_here

ADDRESS = "http://127.0.0.1:9/mcp"


def _refused(*words: str) -> str:
    done = cli_here(*words)
    assert done.returncode == 2, done
    assert done.stdout == ""
    return done.stderr


@pytest.mark.parametrize(("language", "said"), [
    ("en", "run-inspector: 'ping' is a command of run-inspector, not a server: did you mean "
           f"`run-inspector ping '{ADDRESS}?…'`?\n"),
    ("de", "run-inspector: 'ping' ist ein Befehl von run-inspector, kein Server: meinten Sie "
           f"`run-inspector ping '{ADDRESS}?…'`?\n")])
def test_a_command_before_the_address_names_the_command(tmp_path, language, said) -> None:
    db = str(tmp_path / "runs.db")
    # The address without its password and its query (a key in either).
    assert _refused("--lang", language, "--db", db, "tools", "ping", "http://bob:pw@127.0.0.1:9/mcp?key=k3y") == said
    assert not (tmp_path / "runs.db").exists()  # refused before anything was opened


def test_the_line_meant_keeps_the_other_words_and_hides_credentials(tmp_path) -> None:
    err = _refused("--db", str(tmp_path / "runs.db"), "tools", "call", ADDRESS, "echo", "--args", '{"text": "hi"}',
                   "--header", "Authorization: Bearer s3cr3t", "--env", "TOKEN=t0k3n")
    assert err == ("run-inspector: 'call' is a command of run-inspector, not a server: did you mean `run-inspector "
                   f"call {ADDRESS} echo --args '{{\"text\": \"hi\"}}' --header 'Authorization: …' --env "
                   "'TOKEN=…'`?\n")
    # An option of the command typed that the one meant does not take is left out, with its value.
    assert _refused("--db", str(tmp_path / "runs.db"), "complete", "tools", "--prompt", "p", "--argument=a", "--budget",
                    "3", ADDRESS) == ("run-inspector: 'tools' is a command of run-inspector, not a server: did you "
                                      f"mean `run-inspector tools --budget 3 {ADDRESS}`?\n")
    assert _refused("--db", str(tmp_path / "runs.db"), "call", "tools", ADDRESS) == (
        "run-inspector: 'tools' is not a server address and no configured server has that name; it is a command of "
        f"run-inspector: did you mean `run-inspector tools {ADDRESS}`?\n")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "run-inspector: 'ping' is not a server address and no configured server has that name; it is a command "
           "of run-inspector: did you mean `run-inspector ping --budget 5 SERVER`?\n"),
    ("de", "run-inspector: 'ping' ist keine Serveradresse, und kein eingerichteter Server heißt so; es ist ein "
           "Befehl von run-inspector: meinten Sie `run-inspector ping --budget 5 SERVER`?\n")])
def test_a_command_alone_where_the_server_goes_says_where_the_server_goes(tmp_path, language, said) -> None:
    # Not "write: --stdio "ping"" (the system's ping started as an MCP server).
    assert _refused("--lang", language, "--db", str(tmp_path / "runs.db"), "tools", "ping", "--budget", "5") == said


def test_a_configured_server_named_as_a_command_is_that_server(tmp_path) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("--db", db, "servers", "set", ADDRESS, "--name", "ping").returncode == 0
    done = cli_here("--db", db, "tools", "ping", "--budget", "2", "--json")
    assert done.returncode == 1, done  # spoken to: nothing listens at port 9
    answer = json.loads(done.stdout)
    assert answer["server"] == "ping" and answer["error"]["kind"] == "unreachable"
    assert "did you mean" not in done.stdout + done.stderr


def test_tools_list_names_tools_with_the_server(tmp_path) -> None:
    assert _refused("--db", str(tmp_path / "runs.db"), "tools", "list", ADDRESS) == (
        "run-inspector: 'list' is not a server: tools lists what the server written right after it offers. Did you "
        f"mean `run-inspector tools {ADDRESS}`?\n")


def test_json_says_the_slip_in_one_object(tmp_path) -> None:
    done = cli_here("--lang", "de", "--db", str(tmp_path / "runs.db"), "tools", "ping", ADDRESS, "--json")
    assert done.returncode == 2
    assert json.loads(done.stdout) == {"error": {"kind": "usage", "message": (
        f"'ping' is a command of run-inspector, not a server: did you mean `run-inspector ping {ADDRESS} --json`?")}}


@pytest.mark.parametrize(("language", "said"), [
    ("en", "run-inspector: runs needs what to do before the server, and the server after --server, e.g. "
           f"run-inspector runs list --server {ADDRESS}; it can do: list, show, note.\n"),
    ("de", "run-inspector: runs braucht vor dem Server, was zu tun ist, und den Server nach --server, z. B. "
           f"run-inspector runs list --server {ADDRESS}; möglich: list, show, note.\n")])
def test_runs_with_a_server_names_the_line_runs_list_takes(tmp_path, language, said) -> None:
    db = str(tmp_path / "runs.db")
    assert _refused("--lang", language, "--db", db, "runs", ADDRESS) == said
    # The line it names is one `runs list` takes (it said `runs list ADDRESS`, which it refuses).
    assert cli_here("--db", db, "runs", "list", "--server", ADDRESS).returncode == 0


@pytest.mark.parametrize(("words", "meant"), [
    (["ping", "servers"], "run-inspector servers"),  # said `run-inspector servers SERVER`, which servers refuses
    (["tools", "runs"], "run-inspector runs"),
    (["ping", "export", "--budget", "5"], "run-inspector export"),  # ping's option left out, as export takes none
])
def test_a_command_that_takes_no_server_is_meant_without_one(tmp_path, words, meant) -> None:
    err = _refused("--db", str(tmp_path / "runs.db"), *words)
    assert err.endswith(f"did you mean `{meant}`?\n"), err
