"""``call`` says how its operation ended in the window's words: a call the server never answered within its
budget is headed "failed: timed out" as the step's Outcome cell and ``runs show`` say it (it was headed "failed"
while the window and ``runs list`` said it timed out), and its error line names the kind in words ("Error (timed
out): …", not "(timed_out, code 1010)"); ``--json`` keeps its keys and values, the code among them. Run against a
real server on 127.0.0.1 that never answers the call."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.support.cli_process import cli_here as cli
from tests.support.fault_server import Exchange, FaultServer


def stall_the_call(exchange: Exchange) -> None:
    """A server's work that never answers a call of the tool "slow", and answers every other."""
    if (exchange.request.params or {}).get("name") == "slow":
        exchange.stall()
    else:
        exchange.send_result({"content": [{"type": "text", "text": "ok"}]})


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    with FaultServer("session", work=stall_the_call) as running:
        yield running


def _outcome_cell(db: str, language: str) -> str:
    """The Outcome cell of run 1's call as ``runs show`` says it (the window's words, stored_outcome_text)."""
    shown = cli("--lang", language, "--db", db, "runs", "show", "1").stdout.splitlines()
    heading = next(line for line in shown if line.startswith("#  "))
    [row] = [line for line in shown if line.startswith("1 ")]
    begin = heading.index("Outcome" if language == "en" else "Ergebnis")
    return row[begin:].split("  ")[0]


@pytest.mark.parametrize(("language", "heading", "error"), [
    ("en", ": failed: timed out (budget 1 s)", "Error (timed out): The server "),
    ("de", ": fehlgeschlagen: Zeitüberschreitung (Budget 1 s)", "Fehler (Zeitüberschreitung): Der Server "),
])
def test_a_timed_out_call_is_headed_as_the_window_says_its_step(tmp_path, server, language, heading, error) -> None:
    db = str(tmp_path / "runs.db")
    done = cli("--lang", language, "--db", db, "call", server.url, "slow", "--budget", "1")
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and lines[0].endswith(heading), done.stdout + done.stderr
    # The same words as the step's Outcome cell, from the same function.
    assert lines[0].endswith(f": {_outcome_cell(db, language)} ({heading.rsplit(' (', 1)[1]}")
    assert any(line.startswith(error) for line in lines), done.stdout
    assert "timed_out" not in done.stdout and "1010" not in done.stdout


def test_a_timed_out_calls_json_keeps_its_keys_and_values(tmp_path, server) -> None:
    done = cli("--db", str(tmp_path / "runs.db"), "call", server.url, "slow", "--budget", "1", "--json")
    report = json.loads(done.stdout)
    assert report["outcome"] == "failed" and report["error"]["kind"] == "timed_out"
    assert report["error"]["code"] == 1010 and report["error"]["message"].startswith("The server ")


def test_a_tool_error_is_headed_failed_as_its_outcome_cell_says_it(tmp_path) -> None:
    def refuse(exchange: Exchange) -> None:
        exchange.send_result({"content": [{"type": "text", "text": "no luck"}], "isError": True})

    db = str(tmp_path / "runs.db")
    with FaultServer("session", work=refuse) as failing:
        done = cli("--db", db, "call", failing.url, "fail")
    assert done.stdout.splitlines()[0].endswith(": failed (budget 20 s)"), done.stdout
    assert _outcome_cell(db, "en") == "failed"
