"""A password typed into an address with ``@`` and then ``/``, ``?`` or ``#`` (``https://deploy:P@ssw0rd/2024@mcp.
example.org/mcp``) leaves no part of itself in an export or in the server an imported run keeps.

RFC 3986 reads such an address's host between the password's ``@`` and its ``/`` (``ssw0rd``), and since atsign67
an export kept that "host" (``https://[REDACTED]@ssw0rd/[REDACTED]@mcp.example.org/mcp``), as did the server an
import keeps (``https://ssw0rd/…@mcp.example.org/mcp``, exported and listed so): most of the password. Before
atsign67 neither held it. Where an ``@`` follows the host in the first segment after it (an address that names two
servers, which is never sent a credential), the host goes with the password; an ``@`` in a later segment
(``/users/me@example.org``) is read as RFC 3986 reads it, as such an address is sent. A real import into a real SQLite
file, the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

ADDRESSES = ["https://deploy:P@ssw0rd/2024@mcp.example.org/mcp", "https://deploy:P@ssw0rd?2024@mcp.example.org/mcp",
             "https://deploy:P@ssw0rd#2024@mcp.example.org/mcp", "https://deploy:P@ssw0rd/2024@[::1]:8080/mcp"]


def _stranger(path: Path, address: str) -> Path:
    step = {"sequence": 1, "started_at": "2026-12-05T14:22:21.500000Z",
            "payload": {"kind": "tool", "round": 0, "durationMs": 2.0, "toolName": "fetch",
                        "toolArguments": {"note": f"connect to {address} now"}, "toolResult": "ok",
                        "toolIsError": False, "toolOutcome": "ok"}}
    path.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [
        {"uid": "from-a-stranger", "title": "tools/call fetch", "source": "imported", "server": address,
         "status": "ok", "started_at": "2026-12-05T14:22:21Z", "finished_at": "2026-12-05T14:22:22Z",
         "steps": [step]}]}), encoding="utf-8")
    return path


@pytest.mark.parametrize("address", ADDRESSES)
def test_no_part_of_the_password_is_kept_listed_or_exported(address: str, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("import", str(_stranger(tmp_path / "stranger.json", address)), "--db", db).returncode == 0
    said = [cli_here("runs", "list", "--json", "--db", db).stdout, cli_here("runs", "show", "1", "--db", db).stdout]
    for file_format in ("trace", "otlp"):
        out = tmp_path / f"out.{file_format}.json"
        assert cli_here("export", "--all", "--format", file_format, "-o", str(out), "--db", db).returncode == 0
        said.append(out.read_text(encoding="utf-8"))
    for text in said:
        assert "ssw0rd" not in text and "2024" not in text and "/24" not in text, text[:2000]
    host = address.rpartition("@")[2]
    assert host in said[0] and all(host in text for text in said[2:])  # where the requests went stays said
