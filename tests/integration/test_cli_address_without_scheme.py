"""An address typed without ``http://`` that carries a key (``bob:PASS@host/mcp?key=K``) is repeated by no
refusal with its password or its query: the "is not a file/command" sentence, the ``--stdio`` suggestion of
``tools``/``call``, the misplaced action's example, argparse's "unrecognized arguments", ``replay``, ``servers
remove``, ``runs list --server``; in plain output, in ``--json``'s error and in the log file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.store import RunStore, open_database
from tests.support.cli_process import cli_here as cli

TYPED = "bob:pw-7Qz1@mcp.example.org/mcp?api_key=k3y-51c2x"
SHOWN = "mcp.example.org/mcp?…"
LEAKS = ("pw-7Qz1", "k3y-51c2x", "api_key")


@pytest.mark.parametrize(("words", "said"), [
    ([TYPED], f"http://{SHOWN} is a server's address, not a trace file: name a command before it, e.g. "
              f"run-inspector tools http://{SHOWN} "),
    (["--json", TYPED], f"http://{SHOWN} is a server's address"),
    (["bob:pw-7Qz1@localhost"], "http://localhost is a server's address"),
    (["tools", TYPED], f'"{SHOWN}" is not a server address and no configured server has that name. An address '
                       f"starts with http:// or https://: did you mean http://{SHOWN}?"),
    (["tools", "--json", TYPED], f"did you mean http://{SHOWN}?"),
    (["call", TYPED, "echo"], f"did you mean http://{SHOWN}?"),
    (["ping", TYPED.replace("mcp.example.org", "localhost:8000")], "did you mean http://localhost:8000/mcp?…?"),
    (["signin", TYPED], f"did you mean http://{SHOWN}?"),
    (["prompts", TYPED, "list"], f"e.g. run-inspector prompts list http://{SHOWN};"),
    (["prompts", "--stdio", TYPED], f'e.g. run-inspector prompts list --stdio "{SHOWN}";'),
    (["prompts", f"list {TYPED}"], f"'list {SHOWN}' is not a command of run-inspector prompts"),
    (["servers", "set", "vault", TYPED], f"unrecognized arguments: {SHOWN}"),
    (["replay", TYPED], f"not {SHOWN}."),
    (["servers", "remove", TYPED], f"No configured server is named {SHOWN}:"),
    (["runs", "list", "--server", TYPED], f"No configured server is named {SHOWN}, and no stored run"),
    (["proxy", "--upstream", TYPED], f"unrecognized arguments: --upstream {SHOWN}. "),
    (["compare", TYPED, "last"], f"No run has an id or a uid beginning {SHOWN}. "),
])
def test_a_password_and_a_query_of_an_address_typed_without_its_scheme_are_never_repeated(
        words: list[str], said: str, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    RunStore(open_database(db)).db.conn.close()  # runs list --server looks for the server's runs
    log = tmp_path / "run-inspector.log"
    refused = cli(*words, "--db", str(db), env={"RUN_INSPECTOR_LOG": str(log)})
    assert refused.returncode in (1, 2), refused
    assert said in refused.stderr, refused.stderr
    if "--json" in words:
        assert said.replace('"', '\\"') in json.loads(refused.stdout)["error"]["message"]
    said_anywhere = refused.stdout + refused.stderr + (log.read_text("utf-8") if log.exists() else "")
    for leak in LEAKS:
        assert leak not in said_anywhere, said_anywhere


@pytest.mark.parametrize("password", ["pw/7Qz1", "pw#7Qz1", "pw?7Qz1"])
@pytest.mark.parametrize(("words", "said"), [
    (["bob:{}@mcp.example.org/mcp"], "http://mcp.example.org/mcp is a server's address, not a trace file"),
    (["tools", "bob:{}@mcp.example.org/mcp"], "did you mean http://mcp.example.org/mcp?"),
    (["call", "http://bob:{}@mcp.example.org/mcp", "echo"],
     "'http://mcp.example.org/mcp', with the user name and password it was typed with, reads as another address"),
    (["servers", "set", "vault", "http://bob:{}@[::1]:8000/mcp", "x"],
     "unrecognized arguments: http://[::1]:8000/mcp x"),
])
def test_a_password_holding_a_slash_a_hash_or_a_question_mark_as_typed_is_never_repeated(
        words: list[str], said: str, password: str, tmp_path: Path) -> None:
    """Unencoded, ``/``, ``#`` or ``?`` would end the address's authority before the ``@``: the password is still
    no host or path to repeat."""
    refused = cli(*(word.format(password) for word in words), "--db", str(tmp_path / "runs.db"))
    assert refused.returncode in (1, 2), refused
    assert said in refused.stderr, refused.stderr
    assert "7Qz1" not in refused.stdout + refused.stderr, refused.stderr
