"""A run of a command server whose command line holds a credential in a word the key quotes whole
(``'--password=Pa55;word9'``, ``--api-key 'k3y'"'"'x51c2'``, ``-u 'bob:Pa55 word9'``) is exported in both formats
without it: the run's server and the request's address of each step are that key. Each was exported with the
stretch after the value's first ``;``, quote or space (``;word9``, ``x51c2``, ``bob:Pa55 word9``). A real command
server: the official SDK server over stdio (tests/support/stdio_server.py), which ignores the words after it."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

SERVER = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"
LEAKS = ("Pa55", "word9", "k3y", "x51c2")


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_the_quoted_credentials_of_a_command_line_are_not_exported(file_format: str, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    command = f"""{SERVER} '--password=Pa55;word9' --api-key "k3y'x51c2" -u 'bob:Pa55 word9' --mode fast"""
    called = cli_here("call", "--stdio", command, "echo", "--args", '{"text": "hi"}', "--db", db)
    assert called.returncode == 0, called.stderr
    out = tmp_path / f"runs.{file_format}.json"
    exported = cli_here("export", "--all", "--format", file_format, "-o", str(out), "--db", db)
    assert exported.returncode == 0, exported.stderr
    written = out.read_text(encoding="utf-8")
    assert "tests.support.stdio_server" in written and "--mode fast" in written
    for leak in LEAKS:
        assert leak not in written, (leak, written[:3000])
