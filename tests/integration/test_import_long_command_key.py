"""A stranger's trace file naming a command server by a command line of megabytes (``stdio:sh -c '…'``): imported in
a moment, the server named by its first words (credentials hidden) and a hash, never the whole; keeping that key took
about 30 s of CPU for 1 MB (a shell's splitting and the credential rules, word by word)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from inspector.store import RunStore
from tests.support.cli_process import cli_here

TOKEN, FAR_KEY = "tok3nS3cretValue", "farAwayKeyValue9"


def _command(filler: str, size: int) -> str:
    return f"sh -c 'srv --token {TOKEN} {(filler + ' ') * (size // (len(filler) + 1))} API_KEY={FAR_KEY} srv'"


def _run_span(trace: str, title: str, server: str) -> dict[str, object]:
    attributes = {"run_inspector.span": "run", "run_inspector.run.uid": trace, "run_inspector.run.title": title,
                  "run_inspector.run.source": "live", "run_inspector.outcome": "ok",
                  "run_inspector.run.server": server}
    return {"traceId": trace, "spanId": trace[16:], "name": title, "kind": 3, "startTimeUnixNano": "1",
            "endTimeUnixNano": "2",
            "attributes": [{"key": key, "value": {"stringValue": value}} for key, value in attributes.items()]}


def _cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return cli_here(*args, "--db", str(db), env={"LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""})


def _servers(db: Path) -> dict[str, str]:
    with RunStore.open(db) as store:
        return {run.title: run.server for run in store.list_runs()}


def test_a_megabyte_command_line_is_imported_in_a_moment_named_by_its_first_words_and_a_hash(tmp_path: Path) -> None:
    commands = {"huge": _command("a", 1_000_000), "big": _command("b", 100_000),
                "twin": _command("b", 100_000).replace(" b  API_KEY", " c  API_KEY")}  # differs at its end only
    assert commands["twin"] != commands["big"]
    trace = tmp_path / "stranger.json"
    spans = [_run_span(f"{index + 1:016x}" * 2, title, "stdio:" + command)
             for index, (title, command) in enumerate(commands.items())]
    trace.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}))
    db = tmp_path / "runs.db"
    started = time.thread_time()
    imported = _cli(db, "import", str(trace))
    spent = time.thread_time() - started
    assert imported.returncode == 0, imported.stderr
    assert spent < 8.0  # about 60 s before; 0.3 s here
    servers = _servers(db)
    assert len(set(servers.values())) == 3  # three commands, three servers
    for server in servers.values():
        assert server.startswith("stdio:sh -c 'srv --token … ") and len(server) < 4_000
        assert server.split(" ")[-2] == "…" and server.split(" ")[-1].startswith("sha256:")
        assert TOKEN not in server and FAR_KEY not in server and "API_KEY" not in server
    shown = _cli(db, "runs", "show", "1")
    assert shown.returncode == 0 and servers["huge"] in shown.stdout and TOKEN not in shown.stdout
    exported = tmp_path / "out.json"
    assert _cli(db, "export", "--all", "-o", str(exported)).returncode == 0
    text = exported.read_text()
    assert TOKEN not in text and FAR_KEY not in text
    again = tmp_path / "again.db"
    assert _cli(again, "import", str(exported)).returncode == 0
    assert _servers(again) == servers  # the name, read again, is kept as it is


def test_a_command_line_cut_inside_a_quote_is_named_without_its_credentials(tmp_path: Path) -> None:
    """A stranger's file whose command line a shell cannot split (a quote left open, a last backslash) named the
    run's server with its token: `runs list`, `runs show` and the window showed it (the export alone hid it)."""
    commands = {"single": f"sh -c 'srv --token {TOKEN}", "double": f'srv --api-key {TOKEN} "',
                "backslash": f"srv --token {TOKEN}\\", "shell": f"sh -c 'API_KEY={FAR_KEY} exec srv"}
    trace = tmp_path / "cut.json"
    spans = [_run_span(f"{index + 1:016x}" * 2, title, "stdio:" + command)
             for index, (title, command) in enumerate(commands.items())]
    trace.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}))
    db = tmp_path / "runs.db"
    imported = _cli(db, "import", str(trace))
    assert imported.returncode == 0, imported.stderr
    servers = _servers(db)
    assert servers == {"single": "stdio:sh -c 'srv --token '…", "double": "stdio:srv --api-key … ''",
                       "backslash": "stdio:srv --token …", "shell": "stdio:sh -c 'API_KEY=… exec srv'"}
    listed = _cli(db, "runs", "list", "--json")
    assert listed.returncode == 0 and TOKEN not in listed.stdout and FAR_KEY not in listed.stdout
