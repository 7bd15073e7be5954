"""A stranger's trace file names its runs' servers with a password, a query or a fragment in the address: the
import keeps each as a run made here keeps its server (no password, query or fragment), so neither ``runs list``
(piped or ``--json``), ``runs show`` nor an export says any of it. A real import into a real SQLite file and the
real command line."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli_process import cli_here
from tests.support.stranger_servers import import_servers

#: (the server the file names, what the run keeps of it)
SERVERS = [("http://bob:se@c/ret@host/mcp", "http://host/mcp"), ("http://bob:pw1x@[::1]:8080/mcp", "http://[::1]:8080/mcp"),
           ("http://bob:se%40cret@host/mcp", "http://host/mcp"), ("http://bob:a/b/c@host:81/p", "http://host:81/p"),
           ("https://u:pw2x@h/mcp?token=tq1x#access_token=tf1x", "https://h/mcp"), ("bob:pw3x@host/mcp", "host/mcp"),
           ("http://[REDACTED]@host/mcp", "http://host/mcp"), ("http://bob:pw4x@host/@user", "http://user"),
           ("support-agent", "support-agent")]
SECRETS = ("se@c", "pw1x", "se%40cret", "a/b/c", "pw2x", "tq1x", "tf1x", "pw3x", "pw4x", "REDACTED")


def test_no_password_query_or_fragment_of_an_imported_server_is_said(tmp_path: Path) -> None:
    db, listed = import_servers(tmp_path, [server for server, _ in SERVERS])
    assert {run["uid"]: run["server"] for run in listed} == {f"u{number}": kept
                                                             for number, (_, kept) in enumerate(SERVERS)}
    said = [cli_here("--db", db, "runs", "list").stdout, cli_here("--db", db, "runs", "show", "1").stdout]
    assert cli_here("--db", db, "export", "--all", "-o", str(tmp_path / "out.json")).returncode == 0
    said.append((tmp_path / "out.json").read_text(encoding="utf-8"))
    for text in said:
        assert [secret for secret in SECRETS if secret in text] == []
    # An "@" that begins a segment after a password: the host before it may be a piece of the password (pw4x@host/).
    assert " user " in said[0] and "host/@user" not in said[0] and "[::1]:8080/mcp" in said[0]
