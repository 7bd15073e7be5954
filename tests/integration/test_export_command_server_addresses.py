"""A command server whose words hold an address with a password is exported in both formats without any piece of it:
one holding a space or a quote (``'http://bob:Pa55 word9@host/mcp'``: exported whole), one ending in ``?`` or ``#``
right before its ``@`` (``http://bob:@PWb?@host/mcp``: exported as ``http://PWb?…``, the host RFC 3986 reads, a piece
of the password), one holding ``@`` and then ``/`` (``se@c/ret``: exported as ``http://c/…@host/mcp``). The run's
server and each step's request name the server by its command line. A real command server: the official SDK server
over stdio (tests/support/stdio_server.py), which ignores the words after it."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

SERVER = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"
ADDRESSES = {"space": ("'http://bob:Pa55 word9@host/mcp'", ("Pa55", "word9")),
             "quote": ('"http://bob:Pa55\'word9@host/mcp"', ("Pa55", "word9")),
             "question mark": ("http://bob:@PWb?@host/mcp", ("PWb",)),
             "hash": ("'http://bob:x@PWb#@host/mcp'", ("PWb",)),
             "at and slash": ("http://bob:se@cr3t/ret@host/mcp", ("cr3t",))}


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
@pytest.mark.parametrize("shape", sorted(ADDRESSES))
def test_no_piece_of_an_address_password_in_a_command_line_is_exported(shape: str, file_format: str,
                                                                       tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    word, leaks = ADDRESSES[shape]
    called = cli_here("call", "--stdio", f"{SERVER} {word} --mode=fast", "echo", "--args", '{"text": "hi"}',
                      "--db", db)
    assert called.returncode == 0, called.stderr
    out = tmp_path / f"runs.{file_format}.json"
    exported = cli_here("export", "--all", "--format", file_format, "-o", str(out), "--db", db)
    assert exported.returncode == 0, exported.stderr
    written = out.read_text(encoding="utf-8")
    assert "tests.support.stdio_server" in written and "--mode=fast" in written and "host/mcp" in written
    assert [leak for leak in leaks if leak in written] == [], written[:3000]
