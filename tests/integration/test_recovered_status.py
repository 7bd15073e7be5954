"""A run the model got over is stored failed (a failed call fails its run) and says why wherever its
status is shown on the command line, as the window's Play and Runs tabs say it: `scenario`'s output,
`runs show` and `runs list`, in English and German. A run whose calls failed otherwise says so too."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support.cli_process import cli_here

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return cli_here(*args)  # in this process: what it says is the point, not its process


def test_flaky_server_says_why_its_run_is_failed(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    played = cli("scenario", "flaky-server", "--db", db)
    assert played.returncode == 1, played.stderr  # failed, as stored: its health counts are unchanged
    why = "status failed (1 of 4 tool calls failed; the model still gave its answer), source scenario"
    assert why in played.stdout.splitlines()[1]
    assert why in cli("runs", "show", "1", "--db", db).stdout.splitlines()[1]
    german = cli("--lang", "de", "runs", "show", "1", "--db", db).stdout.splitlines()[1]
    assert ("Status fehlgeschlagen (1 von 4 Tool-Aufrufen schlug fehl; das Modell gab trotzdem seine Antwort), "
            "Quelle Szenario") in german
    # The failed call names its server as the Workbench does, never "the server demo server".
    assert "flaky: The tool flaky on Fresh demo server reported an error: Call 2 failed" in played.stdout
    # `runs list` says why too, as the window's Runs list does (it said "failed" alone).
    assert "  failed (1 of 4 tool calls failed; the model still gave its answer)  scenario  " in cli(
        "runs", "list", "--db", db).stdout.splitlines()[1]


def test_one_call_that_failed_is_not_one_of_one_and_a_run_without_a_model_says_why_too(tmp_path: Path) -> None:
    """slow-handshake's one call is never sent and the model still answers: said as the Play tab says it,
    with how the call failed, as its step says it ("failed: not sent"). A call to an address where nothing
    listens fails with no model to get over it: it says its call failed (it said "failed" alone)."""
    db = str(tmp_path / "runs.db")
    played = cli("scenario", "slow-handshake", "--db", db)
    assert played.stdout.splitlines()[1].startswith(
        "  status failed (the tool call was not sent; the model still gave its answer), source scenario"), played.stdout
    assert cli("call", "http://127.0.0.1:1/mcp", "echo", "--db", db).returncode == 1
    shown = cli("runs", "show", "2", "--db", db).stdout.splitlines()
    assert shown[1].startswith("  status failed (the tool call failed), source live"), shown
