"""``servers import`` of a listing edited by hand adds no sign-in settings ``servers set`` refuses: the entry is
skipped, saying why, as the window's import does. It kept a client metadata document at a plain http address of
another machine (the client's id, sent to the authorization server), a client key file that cannot be read (read at
each sign-in: the sign-in failed there instead) or by a path relative to wherever the command or the window started,
a client-credentials grant without a client id and private_key_jwt without a key file. A readable key file is kept
by its absolute path, as ``servers set --client-key`` keeps it.

Real parts: the real command line, real SQLite files, a real key file; the window's preview offscreen."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli_process import cli_here

PEM = "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n"


def _listing(tmp_path: Path) -> Path:
    """A `servers --json` listing, its sign-in settings edited: one usable (a key file named relative to the
    listing's folder), the others as no `servers set` keeps them."""
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "client.pem").write_text(PEM, encoding="utf-8")

    def entry(port: int, **signin: str) -> dict[str, object]:
        return {"url": f"http://127.0.0.1:{port}/mcp", "name": f"s{port}", "transport": "http", "signin": signin}

    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps({"servers": [
        entry(9001, client_id="cid-1", auth_method="private_key_jwt", client_key_file="keys/client.pem"),
        entry(9002, client_metadata_url="http://metadata.example.com/client.json"),
        entry(9003, client_id="cid-3", auth_method="private_key_jwt", client_key_file="/nonexistent/client.pem"),
        entry(9004, grant="client-credentials"),
        entry(9005, client_id="cid-5", auth_method="private_key_jwt"),
    ]}), encoding="utf-8")
    return listing


def test_an_edited_listings_signin_servers_set_refuses_is_skipped(tmp_path: Path) -> None:
    listing, db = _listing(tmp_path), str(tmp_path / "runs.db")
    done = cli_here("servers", "import", str(listing), "--yes", "--json", "--db", db)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert [server["name"] for server in said["servers"]] == ["s9001"]
    assert {skipped["name"]: skipped["reason"] for skipped in said["skipped"]} == {
        "s9002": "the client metadata document's address of its sign-in is not an https address with a path (http "
                 "only on this machine): http://metadata.example.com/client.json",
        "s9003": "the client key of its sign-in cannot be used: The client key /nonexistent/client.pem cannot be read: "
                 "no such file or folder.",
        "s9004": "its sign-in's client-credentials grant needs the client's id, which it does not give",
        "s9005": "its sign-in's private_key_jwt needs the client's key file, which it does not give"}
    [server] = json.loads(cli_here("servers", "--json", "--db", db).stdout)["servers"]
    assert server["signin"]["client_key_file"] == str(tmp_path / "keys" / "client.pem")
