"""`runs list --outcome cancelled` says where the other cancelled calls are: Logfire's trace of the support agent
holds a call cancelled by its deadline in a run that is *failed* (another call failed: ADR-191), which the list
leaves out. A support engineer asked which calls were cancelled read "No stored run has the status cancelled"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli import main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "logfire.jsonl"


@pytest.mark.parametrize(("language", "nothing", "said"), [
    ("en", "No stored run has the status cancelled. `runs list` without --outcome shows every run.",
     "1 run of another status has a cancelled tool call too: 1 (`runs show RUN` lists its steps)."),
    ("de", "Kein gespeicherter Lauf hat den Status abgebrochen. `runs list` ohne --outcome zeigt alle Läufe.",
     "1 Lauf mit einem anderen Status hat auch einen abgebrochenen Tool-Aufruf: 1 (`runs show LAUF` zeigt seine "
     "Schritte).")])
def test_the_runs_with_a_cancelled_call_and_another_status_are_named(capsys, tmp_path, language, nothing,
                                                                     said) -> None:
    db = str(tmp_path / "runs.db")
    assert main(["--db", db, "import", str(FIXTURE)]) == 0
    capsys.readouterr()
    assert main(["--lang", language, "--db", db, "runs", "list", "--outcome", "cancelled"]) == 0
    assert capsys.readouterr().out.splitlines() == [nothing, said]
    assert main(["--db", db, "runs", "show", "1"]) == 0
    shown = capsys.readouterr().out
    assert "status failed (2 of 4 tool calls failed, 1 cancelled)" in shown and "  cancelled  " in shown
    # Another filter narrows the list to what it names, and --json stays one object: no sentence there.
    assert main(["--lang", language, "--db", db, "runs", "list", "--outcome", "cancelled", "--search", "slow"]) == 0
    assert said not in capsys.readouterr().out
    assert main(["--db", db, "runs", "list", "--outcome", "cancelled", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"runs": [], "plumbing_traces_hidden": 0}
    # The other statuses' lists say nothing of it.
    assert main(["--lang", language, "--db", db, "runs", "list", "--outcome", "failed"]) == 0
    assert said not in capsys.readouterr().out


def test_with_no_cancelled_call_elsewhere_nothing_more_is_said(capsys, tmp_path) -> None:
    db = str(tmp_path / "runs.db")
    assert main(["--db", db, "import", str(FIXTURE.with_name("mcp_sdk.jsonl"))]) == 0
    capsys.readouterr()
    assert main(["--db", db, "runs", "list", "--outcome", "cancelled"]) == 0
    assert capsys.readouterr().out == ("No stored run has the status cancelled. `runs list` without --outcome shows "
                                       "every run.\n")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Of the newest 2 runs, 1 of another status has a cancelled tool call too: 1 (`runs show RUN` lists its "
           "steps)."),
    ("de", "Von den neuesten 2 Läufen hat 1 mit einem anderen Status auch einen abgebrochenen Tool-Aufruf: 1 "
           "(`runs show LAUF` zeigt seine Schritte).")])
def test_a_large_database_is_looked_at_in_its_newest_runs_and_says_so(capsys, tmp_path, language, said) -> None:
    """The newest 10,000 runs are looked at (all 300,000 runs of 1.5 million steps took 8 s); where there are
    more, the sentence says how many were."""
    from inspector import i18n
    from inspector.cli.cancelled_elsewhere import cancelled_elsewhere_line
    from inspector.store import RunStore

    db = tmp_path / "runs.db"
    assert main(["--db", str(db), "import", str(FIXTURE)]) == 0  # run 1 (Dec 5): failed, with a cancelled call
    assert main(["--db", str(db), "import", str(FIXTURE.with_name("mcp_sdk.jsonl"))]) == 0  # runs 2 to 5 (Dec 2)
    capsys.readouterr()
    i18n.set_language(language)
    try:
        with RunStore.open(db) as store:
            assert cancelled_elsewhere_line(store, examined=2) == said
            assert cancelled_elsewhere_line(store, examined=5).startswith("1 ")  # all of them: as before
    finally:
        i18n.set_language("en")
