"""`runs list --server` with the command line a server was started with (`call --stdio "COMMAND LINE"`),
as it was typed: it lists that server's runs, as its key (`stdio:...`, which `servers` shows) does. A
real command server: the official SDK server over stdio (tests/support/stdio_server.py)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from tests.support.cli_process import cli_here

SERVER = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"


def test_runs_are_listed_by_the_command_line_as_typed(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    called = cli_here("call", "--stdio", SERVER, "echo", "--args", '{"text": "hi"}', "--db", db)
    assert called.returncode == 0, called.stderr
    other = cli_here("tools", "--stdio", f"{SERVER} other", "--db", db)  # another command line: another server
    assert other.returncode == 0, other.stderr
    typed = cli_here("runs", "list", "--server", SERVER.replace(" -m ", "   -m "), "--db", db)
    assert typed.returncode == 0, typed.stderr
    listed = typed.stdout.splitlines()[1:]
    assert len(listed) == 1 and "tools/call echo" in listed[0], typed.stdout
    keyed = cli_here("runs", "list", "--server", f"stdio:{SERVER}", "--db", db)
    assert keyed.stdout == typed.stdout
    unknown = cli_here("runs", "list", "--server", f"{SERVER} nowhere", "--db", db)
    assert unknown.returncode == 2 and "No configured server is named" in unknown.stderr, unknown.stderr
