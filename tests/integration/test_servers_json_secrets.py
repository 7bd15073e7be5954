"""``servers --json`` lists a configured command server's credentials as ``…`` (``--token …``), as the list and its
name do: it printed the stored command whole, so pasting it leaked the token. ``--with-secrets`` gives the
configuration whole (a backup, another machine), and says on stderr that the output holds secrets; ``servers import``
reads either output back: the whole one adds a server that starts with its token, the masked one is refused (it
would start with ``…``), and a server configured already keeps its own token.

Real parts: a real stdio child that refuses to start without ``--token`` and answers a digest of the token it got,
the real command line, real SQLite files."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from tests.support.cli_process import cli_here
from tests.support.token_stdio_server import digest

TOKEN = "tok-J5k6L7m8-listed-secret"
COMMAND = f"{shlex.quote(sys.executable)} -m tests.support.token_stdio_server --token {TOKEN}"


def called(db: Path, name: str) -> str:
    done = cli_here("--db", str(db), "call", name, "token_digest", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["content"]


def test_servers_json_masks_a_commands_token_and_with_secrets_lists_it_whole(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    saved = cli_here("--db", str(db), "servers", "--json", "set", "tokened", "--command", COMMAND)
    assert saved.returncode == 0 and TOKEN not in saved.stdout + saved.stderr, saved.stdout
    assert json.loads(saved.stdout)["saved"]["command"]["args"][-2:] == ["--token", "…"]
    listed = cli_here("--db", str(db), "servers", "--json")
    assert listed.returncode == 0 and TOKEN not in listed.stdout + listed.stderr
    [server] = json.loads(listed.stdout)["servers"]
    assert server["command"]["args"][-2:] == ["--token", "…"] and server["url"].endswith("--token …")
    whole = cli_here("--db", str(db), "servers", "--json", "--with-secrets")
    assert whole.returncode == 0
    [server] = json.loads(whole.stdout)["servers"]
    assert server["command"]["args"][-2:] == ["--token", TOKEN]
    assert "holds the credentials of tokened (--with-secrets)" in whole.stderr
    assert TOKEN not in whole.stderr
    refused = cli_here("--db", str(db), "servers", "--with-secrets")
    assert refused.returncode == 2 and "--with-secrets goes with --json" in refused.stderr


def test_servers_import_adds_the_whole_listing_and_refuses_the_masked_one(tmp_path: Path) -> None:
    db, elsewhere = tmp_path / "runs.db", tmp_path / "elsewhere.db"
    assert cli_here("--db", str(db), "servers", "set", "tokened", "--command", COMMAND).returncode == 0
    masked, whole = tmp_path / "masked.json", tmp_path / "whole.json"
    masked.write_text(cli_here("--db", str(db), "servers", "--json").stdout, encoding="utf-8")
    whole.write_text(cli_here("--db", str(db), "servers", "--json", "--with-secrets").stdout, encoding="utf-8")
    # The masked listing would start a server with "…" as its token: refused, saying why; nothing is added.
    refused = cli_here("--db", str(elsewhere), "servers", "import", str(masked), "--yes", "--json")
    assert refused.returncode == 0, refused.stderr
    document = json.loads(refused.stdout)
    assert document["format"] == "run-inspector" and document["servers"] == []
    [skipped] = document["skipped"]
    assert skipped["name"] == "tokened" and "where a credential was left out" in skipped["reason"]
    # Where it is configured, it keeps its own token.
    assert cli_here("--db", str(db), "servers", "import", str(masked), "--yes").returncode == 0
    assert called(db, "tokened") == digest(TOKEN)
    # The whole listing adds a server that starts with its token, under its name.
    added = cli_here("--db", str(elsewhere), "servers", "import", str(whole), "--yes")
    assert added.returncode == 0 and TOKEN not in added.stdout + added.stderr, added.stderr
    assert called(elsewhere, "tokened") == digest(TOKEN)
    [server] = json.loads(cli_here("--db", str(elsewhere), "servers", "--json").stdout)["servers"]
    assert (server["name"], server["transport"]) == ("tokened", "stdio")
