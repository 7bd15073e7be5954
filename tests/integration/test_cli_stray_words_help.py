"""A word where a command takes none (`tools ADDR ADDR`: a second address left over; `runs list 5`) was refused
with argparse's "unrecognized arguments: …" alone, while an option the command does not take, a mistyped command
and a missing argument each name the help that says the way on. Now it names the command's help too, in English
and German and in the `--json` object, the address without its password or query, as every refusal quotes it.
(`tools ping ADDR`, a command's name where the server goes, says the line meant: test_cli_command_slips.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_process import cli

TYPED = "http://bob:pw-7Qz1@127.0.0.1:9/mcp?api_key=k3y-51c2x"
SAID = {"en": "run-inspector: unrecognized arguments: http://127.0.0.1:9/mcp?…. `run-inspector tools --help` says "
              "what the command takes.\n",
        "de": "run-inspector: unbekannte Argumente: http://127.0.0.1:9/mcp?…. `run-inspector tools --help` sagt, "
              "was der Befehl erwartet.\n"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_word_a_command_does_not_take_names_its_help_without_credentials(tmp_path: Path, language: str) -> None:
    db = str(tmp_path / "runs.db")
    refused = cli("--lang", language, "--db", db, "tools", "http://127.0.0.1:9/mcp", TYPED)
    assert (refused.returncode, refused.stdout, refused.stderr) == (2, "", SAID[language])
    as_json = cli("--lang", language, "--db", db, "tools", "http://127.0.0.1:9/mcp", TYPED, "--json")
    assert as_json.returncode == 2 and as_json.stderr == SAID[language]
    assert json.loads(as_json.stdout) == {"error": {"kind": "usage", "message": SAID["en"].split(": ", 1)[1].strip()}}
    for leak in ("pw-7Qz1", "k3y-51c2x", "bob"):
        assert leak not in refused.stderr + as_json.stdout + as_json.stderr
    assert not Path(db).exists()  # refused before anything was opened


def test_every_command_names_its_own_help(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    for words, command in ((["runs", "list", "5"], "runs list"), (["ping", "http://127.0.0.1:9/mcp", "x"], "ping")):
        refused = cli("--db", db, *words)
        assert refused.returncode == 2
        assert refused.stderr == (f"run-inspector: unrecognized arguments: {words[-1]}. `run-inspector {command} "
                                  f"--help` says what the command takes.\n")
