"""``call --arg text=hi``: argparse takes ``--arg`` for ``--args`` (abbreviations are kept), whose value must
be a JSON object; it answered "--args is not valid JSON at line 1, column 1: …". A value that reads as
``NAME=VALUE`` is refused with how to write it, built from what was typed, in English and German, before
anything is sent (the address here refuses every connection: the refusal is the usage error, exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.asgi_server import closed_port
from tests.support.cli_process import cli_here

SAID = {"en": "--args takes the tool's arguments as one JSON object, not NAME=VALUE: write --args {example} "
              "(every argument in that one object); nothing was sent",
        "de": "--args nimmt die Argumente des Tools als ein JSON-Objekt, nicht NAME=WERT: schreiben Sie --args "
              "{example} (alle Argumente in diesem einen Objekt); nichts wurde gesendet"}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("option", "typed", "example"), [
    ("--arg", "text=hi", """'{"text": "hi"}'"""),
    ("--args", "count=3", """'{"count": 3}'"""),
    ("--arg", "flag=true", """'{"flag": true}'"""),
    ("--arg", "text=it's a=b", """'{"text": "it'"'"'s a=b"}'"""),  # shell-quoted, as it is pasted
])
def test_name_value_is_refused_with_how_to_write_it(tmp_path: Path, language: str, option: str, typed: str,
                                                    example: str) -> None:
    url = f"http://127.0.0.1:{closed_port()}/mcp"
    done = cli_here("--lang", language, "call", url, "echo", option, typed, "--db", str(tmp_path / "runs.db"))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip() == "run-inspector: " + SAID[language].format(example=example), done.stderr
    assert "not valid JSON" not in done.stderr and "kein gültiges JSON" not in done.stderr


def test_json_still_works_through_the_abbreviation_and_other_mistakes_keep_their_words(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/mcp"
    db = str(tmp_path / "runs.db")
    sent = cli_here("call", url, "echo", "--arg", '{"text": "hi"}', "--db", db, "--json")
    assert json.loads(sent.stdout)["error"]["kind"] != "usage"  # parsed, then refused by the address
    broken = cli_here("call", url, "echo", "--args", '{"text":', "--db", db)
    assert broken.returncode == 2 and "--args is not valid JSON at line 1, column 9" in broken.stderr
    listed = cli_here("call", url, "echo", "--args", "[1]", "--db", db)
    assert "--args must be a JSON object" in listed.stderr
