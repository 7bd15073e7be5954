"""`replay` of a step made with `call --stdio "COMMAND LINE"` (a command server not configured here): it
asks for the server, naming the command line to give `--stdio` (before, it told the user to write
`--stdio "stdio:…"`, a program that does not exist), and with `--stdio` it replays (before, --stdio was
refused as "a server word besides"). A real command server: the official SDK server over stdio
(tests/support/stdio_server.py). English and German."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

SERVER = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"
ASKED = {"en": "which server should step 1 be replayed on? Give it with --server (an address or a configured "
               "server's name), or start the command again with --stdio ",
         "de": "Auf welchem Server soll Schritt 1 wiederholt werden? Geben Sie ihn mit --server an (eine Adresse "
               "oder der Name eines eingerichteten Servers), oder starten Sie den Befehl wieder mit --stdio "}


@pytest.fixture
def called(tmp_path: Path) -> str:
    db = str(tmp_path / "runs.db")
    made = cli_here("call", "--stdio", SERVER, "echo", "--args", '{"text": "hi again"}', "--db", db)
    assert made.returncode == 0, made.stderr
    return db


@pytest.mark.parametrize("language", ["en", "de"])
def test_it_asks_for_the_server_with_the_command_line_to_give(called: str, language: str) -> None:
    asked = cli_here("--lang", language, "replay", "last:1", "--db", called)
    said = " ".join(asked.stderr.split())
    assert asked.returncode == 2 and ASKED[language] in said, asked.stderr
    given = said.split(ASKED[language], 1)[1].removesuffix(".")
    assert shlex.split(given) == [SERVER]  # what the shell hands --stdio: the command line it started
    assert "stdio:" + SERVER in said and "--stdio 'stdio:" not in said


def test_with_stdio_it_replays_and_is_linked(called: str) -> None:
    replayed = cli_here("replay", "1:1", "--stdio", SERVER, "--json", "--db", called)
    assert replayed.returncode == 0, replayed.stderr
    answer = json.loads(replayed.stdout)
    assert (answer["outcome"], answer["tool"], answer["content"]) == ("ok", "echo", "hi again"), answer
    shown = cli_here("runs", "show", "last", "--db", called)
    assert "replay of step 1 of run 1" in shown.stdout, shown.stdout
