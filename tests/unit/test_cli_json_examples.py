"""The objects docs/cli-json.md shows are what the commands print: its error object is the one `call --json`
prints when the tool is missing (it showed argparse's "the following arguments are required: tool", which
the command line has not said since it names what a command needs), and its `--version --json` object is
the installed version's; its list of error kinds names every kind with its stable code."""

from __future__ import annotations

import json
import re
from pathlib import Path

from inspector.cli import main

DOC = (Path(__file__).resolve().parents[2] / "docs" / "cli-json.md").read_text(encoding="utf-8")


def _printed(capsys, *words: str) -> tuple[int, dict]:
    capsys.readouterr()
    status = main(list(words))
    return status, json.loads(capsys.readouterr().out)


def test_the_error_object_shown_is_what_call_without_a_tool_prints(capsys) -> None:
    section = DOC[DOC.index("## When a command cannot do its work"):]
    shown = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    assert _printed(capsys, "call", "http://127.0.0.1:9/mcp", "--json") == (2, shown)


def test_the_version_object_shown_is_what_version_json_prints(capsys) -> None:
    section = DOC[DOC.index("## `--version`"):DOC.index("## When a command cannot do its work")]
    shown = json.loads(re.search(r"`(\{\"name\".*?\})`", section).group(1))
    assert _printed(capsys, "--version", "--json") == (0, shown)
    assert f"`run-inspector {shown['version']}`" in section  # the line without --json


def test_every_error_kind_is_listed_with_its_stable_code() -> None:
    """`signin --json` printed `signin_failed` 1014, which the list of kinds and codes did not name."""
    from inspector.mcp.errors import ERROR_CODES, ErrorKind

    listed = " ".join(DOC[DOC.index("Error kinds and their stable codes"):].split())
    missing = [f"{kind.value} {code}" for kind, code in ERROR_CODES.items() if f"`{kind.value}` {code}" not in listed]
    assert missing == [] and set(ERROR_CODES) == set(ErrorKind)
