"""A failed ``run-inspector call`` says why its run failed wherever ``runs list`` and ``runs show`` say its
status, as a run read from a trace does (it said "failed" alone, and "failed (the tool call failed)" once
exported and imported elsewhere): a call the server never answered "failed (the tool call timed out)", as its
step says "failed: timed out"; a tool error and a server that is not there "failed (the tool call failed)".
Exported (our format and OTLP JSON) and imported into a fresh database, each run says the same words."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.store import resolve_db_path
from tests.support.cli_process import cli_here
from tests.support.fault_server import Exchange, FaultServer

SAID = {"en": {"stall": "failed (the tool call timed out)", "broken": "failed (the tool call failed)",
               "gone": "failed (the tool call failed)"},
        "de": {"stall": "fehlgeschlagen (Zeitüberschreitung beim Tool-Aufruf)",
               "broken": "fehlgeschlagen (der Tool-Aufruf schlug fehl)",
               "gone": "fehlgeschlagen (der Tool-Aufruf schlug fehl)"}}
WIDE = {"COLUMNS": "250"}


def _stall(exchange: Exchange) -> None:
    exchange.stall()


def _tool_error(exchange: Exchange) -> None:
    exchange.send_result({"content": [{"type": "text", "text": "the disk is full"}], "isError": True})


def _failed_call(db: Path, tool: str, url: str, *options: str) -> None:
    done = cli_here("call", url, tool, *options, "--db", str(db))
    assert done.returncode != 0 and "Stored as run" in done.stdout, done.stdout + done.stderr


@pytest.fixture
def failed_calls() -> Path:
    """Three failed calls of ours in the test's database: timed out, a tool error, nothing listening."""
    db = resolve_db_path()
    with FaultServer("session", work=_stall) as server:
        _failed_call(db, "stall", server.url, "--budget", "1")
    with FaultServer("session", work=_tool_error) as server:
        _failed_call(db, "broken", server.url)
    with FaultServer("session") as server:
        gone = server.url
    _failed_call(db, "gone", gone)
    return db


def _statuses(db: Path, language: str) -> dict[str, str]:
    """Each run's Status as ``runs list`` prints it, by the tool its call called."""
    done = cli_here("--lang", language, "runs", "list", "--db", str(db), env=WIDE)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    heading = lines[0]
    start = heading.index("Status")
    end = heading.index("Quelle" if language == "de" else "Source")
    return {line.split()[-1]: line[start:end].strip() for line in lines[1:]}


def _shown_status(db: Path, language: str, run_id: int) -> str:
    done = cli_here("--lang", language, "runs", "show", str(run_id), "--db", str(db), env=WIDE)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[1]


@pytest.mark.parametrize("language", ["en", "de"])
def test_runs_list_and_show_say_why_a_call_failed(failed_calls: Path, language: str) -> None:
    assert _statuses(failed_calls, language) == SAID[language]
    for run_id, tool in enumerate(("stall", "broken", "gone"), start=1):
        status = "Status" if language == "de" else "status"
        assert _shown_status(failed_calls, language, run_id).startswith(f"  {status} {SAID[language][tool]}, ")
    # The step of the call that timed out says so too, in the same words.
    shown = cli_here("--lang", language, "runs", "show", "1", "--db", str(failed_calls), env=WIDE).stdout
    assert ("fehlgeschlagen: Zeitüberschreitung" if language == "de" else "failed: timed out") in shown


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_the_words_are_the_same_after_export_and_import(failed_calls: Path, tmp_path: Path, file_format: str) -> None:
    exported = tmp_path / "runs.json"
    done = cli_here("export", "--all", "--format", file_format, "-o", str(exported), "--db", str(failed_calls))
    assert done.returncode == 0, done.stderr
    elsewhere = tmp_path / "elsewhere.db"
    done = cli_here("import", str(exported), "--db", str(elsewhere))
    assert done.returncode == 0, done.stderr
    listed = cli_here("runs", "list", "--db", str(elsewhere), env=WIDE).stdout
    assert listed.count("imported") == 3, listed
    for language in ("en", "de"):
        assert _statuses(elsewhere, language) == _statuses(failed_calls, language) == SAID[language]
