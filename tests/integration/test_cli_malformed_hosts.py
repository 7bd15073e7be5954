"""Addresses whose host is no host name (a space, '%', an unclosed '[', a port past 65535, no host
at all) are refused by `servers set` and `servers import` with the sentence every bad address gets,
and nothing is saved; a password in the address is never said back."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

MALFORMED = ["http://exa mple/mcp", "http://exa%20mple/mcp", "https://exa mple:8443/mcp", "http:///mcp",
             "http://[::1/mcp", "http://example.org:99999/mcp", "http://exa\x01mple/mcp",
             "http://alice:pa55word@exa mple/mcp", "http://...:8000/mcp", "http://./mcp", "http://a..b/mcp",
             "http://.example.org/mcp", "http://alice:pa55word@.../mcp"]


def saved_servers(db: Path) -> list[str]:
    if not db.exists():
        return []
    return [url for (url,) in sqlite3.connect(db).execute("SELECT url FROM servers")]


def refusal(stderr: str) -> str:
    assert stderr.count("\n") == 1 and stderr.startswith("run-inspector: "), stderr
    assert "pa55word" not in stderr and "alice" not in stderr and "\x01" not in stderr
    return stderr


@pytest.mark.parametrize("url", MALFORMED)
def test_servers_set_refuses_a_host_that_is_no_host_name(tmp_path: Path, url: str) -> None:
    db = tmp_path / "runs.db"
    done = cli_here("servers", "--db", str(db), "set", url)
    assert done.returncode == 2 and done.stdout == ""
    assert "is not a server address: use an absolute http:// or https:// URL" in refusal(done.stderr)
    assert saved_servers(db) == []


def test_servers_import_skips_an_entry_whose_host_holds_a_space_in_english_and_german(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "spaced": {"url": "http://exa mple/mcp"}, "secret": {"url": "http://alice:pa55word@exa mple/mcp"},
        "fine": {"url": "http://127.0.0.1:9/mcp"}}}), encoding="utf-8")
    done = cli_here("servers", "--db", str(db), "import", str(config), "--yes")
    assert done.returncode == 0, done.stderr
    assert "spaced: 'http://exa mple/mcp' is not a server address" in done.stdout
    assert "secret: 'http://exa mple/mcp' is not a server address" in done.stdout
    assert "pa55word" not in done.stdout + done.stderr and "alice" not in done.stdout + done.stderr
    assert saved_servers(db) == ["http://127.0.0.1:9/mcp"]
    german = cli_here("--lang", "de", "servers", "--db", str(tmp_path / "de.db"), "import", str(config), "--yes")
    assert "spaced: 'http://exa mple/mcp' ist keine Serveradresse" in german.stdout, german.stdout


@pytest.mark.parametrize("url", ["http://[::1]:8000/mcp", "http://bücher.example/mcp", "http://my_host:8000/mcp",
                                 "https://Example.ORG/mcp", "http://example.org./mcp", "http://[fe80::1%eth0]:8000/mcp"])
def test_host_names_and_ip_addresses_are_still_accepted(tmp_path: Path, url: str) -> None:
    db = tmp_path / "runs.db"
    done = cli_here("servers", "--db", str(db), "set", url)
    assert done.returncode == 0, done.stderr
    assert len(saved_servers(db)) == 1


@pytest.mark.parametrize(("typed", "said"), [
    # The scheme missing: the address meant is named.
    ("example.org:8443/mcp", "'example.org:8443/mcp' is not a server address: it needs http:// or https:// before "
                             "it, e.g. http://example.org:8443/mcp"),
    # ``[fe80::1%25eth0]`` was saved, and every call then said the host name could not be resolved: the HTTP
    # library hands ``fe80::1%25eth0`` to the resolver as it is. ``[fe80::1%eth0]`` is resolved (and connected to).
    ("http://alice:pa55word@[fe80::1%25eth0]:8000/mcp",
     "'http://[fe80::1%25eth0]:8000/mcp' writes the zone of its IPv6 address as %25eth0, which cannot be connected "
     "to: write it as %eth0"),
], ids=["scheme missing", "IPv6 zone as RFC 6874 writes it"])
def test_servers_set_refuses_an_address_saying_the_form_that_works(tmp_path: Path, typed: str, said: str) -> None:
    db = tmp_path / "runs.db"
    done = cli_here("servers", "--db", str(db), "set", typed)
    assert done.returncode == 2 and done.stdout == ""
    assert refusal(done.stderr) == f"run-inspector: {said}\n"
    assert saved_servers(db) == []
