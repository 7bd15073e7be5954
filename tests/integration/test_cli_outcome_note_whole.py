"""`runs show` says a call's outcome note whole where its Details cell cut it: the mcp SDK's client span records
nothing of a call it stopped waiting for, and the importer says why it cannot tell ("… (a cancel, or a client that
gave up: the trace does not say which)"). Cut at 120 characters, the Details read "… recorded no error (a ca…",
the one part that says what to make of it lost, in a pipe, a file and a terminal alike; the window's step detail
says it whole. The row then says only the note's head ("slow: no outcome recorded"), not the note cut short and
then again whole on the next line."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"

WHOLE = {"en": "    no outcome recorded: the client stopped waiting 10 ms before the server's side ended, and recorded "
               "no error (a cancel, or a client that gave up: the trace does not say which)",
         "de": "    kein Ergebnis erfasst: der Client hörte 10 ms vor dem Ende der Serverseite auf zu warten und "
               "zeichnete keinen Fehler auf (ein Abbruch oder ein Client, der aufgab: der Trace sagt nicht, was davon "
               "zutrifft)"}
HEAD = {"en": "slow: no outcome recorded", "de": "slow: kein Ergebnis erfasst"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_cut_outcome_note_is_said_whole_under_its_row(capsys, tmp_path, language) -> None:
    db = str(tmp_path / "runs.db")
    assert main(["--db", db, "import", str(FIXTURES / "mcp_sdk.jsonl")]) == 0
    capsys.readouterr()
    assert main(["--lang", language, "--db", db, "runs", "show", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    row = next(index for index, line in enumerate(lines) if line.startswith("6  "))
    assert lines[row].endswith(f"  {HEAD[language]}") and lines[row + 1] == WHOLE[language]
    assert sum(line.strip() == WHOLE[language].strip() for line in lines) == 1
    assert sum(WHOLE[language].strip()[:40] in line for line in lines) == 1  # not cut short in the row too


def test_a_whole_outcome_note_is_not_said_again(capsys, tmp_path) -> None:
    """Google ADK's tool span over the mcp SDK's timed-out call: its note fits the Details whole."""
    db = str(tmp_path / "runs.db")
    assert main(["--db", db, "import", str(FIXTURES / "google_adk.jsonl")]) == 0
    capsys.readouterr()
    assert main(["--db", db, "runs", "show", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    note = "failed in the call it wraps (step 2, span b68fd41d78cf593f): TimeoutError; this span's own status said ok"
    assert [line.endswith(f"slow: {note}") for line in lines].count(True) == 1
    assert not any(line.strip() == note for line in lines)
