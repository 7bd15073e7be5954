"""A stranger's trace file whose runs name the servers a test gives, imported by the real command line into a
real SQLite file: what each run keeps of its server, as ``runs list --json`` says it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli_process import cli_here


def import_servers(folder: Path, servers: list[str]) -> tuple[str, list[dict]]:
    """The database (in ``folder``) the runs naming ``servers`` (uids ``u0``, ``u1``, …) were imported into, and
    ``runs list --json``'s runs."""
    runs = [{"uid": f"u{number}", "title": f"t{number}", "source": "imported", "server": server, "status": "ok",
             "started_at": "2023-11-14T22:13:28.000000Z", "finished_at": "2023-11-14T22:13:29.000000Z", "steps": []}
            for number, server in enumerate(servers)]
    (folder / "stranger.json").write_text(json.dumps({"format": "run-inspector-trace", "version": 1,
                                                      "runs": runs}), encoding="utf-8")
    db = str(folder / "runs.db")
    assert cli_here("--db", db, "import", str(folder / "stranger.json")).returncode == 0
    return db, json.loads(cli_here("--db", db, "runs", "list", "--json").stdout)["runs"]
