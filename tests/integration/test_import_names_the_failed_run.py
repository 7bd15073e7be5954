"""`import` of a customer's trace names the run to look at first, as the window shows it first: a trace holds
the run that went wrong beside runs that say little (the mcp SDK's notification traces, Google ADK's one run
per agent run). "Imported 7 runs ... They are stored as runs 5, 6, 7, 8, 9, 10, 11." left the support engineer
to run `runs list` and find the failed ones; now the sentence names how many failed and the first of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.shown_first import telling_runs
from tests.support.cli_process import cli_here

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


#: The notifications' traces of each file (three) are said before the failed runs: `runs list` leaves them out.
_PLUMBING = {"en": " 3 of the runs are plumbing traces (a session's plumbing alone): `runs list` leaves them out, "
                   "`runs list --all` lists them.",
             "de": " 3 der Läufe sind Infrastruktur-Traces (allein die Infrastruktur einer Sitzung): `runs list` lässt "
                   "sie aus, `runs list --all` listet sie auf."}


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", f" 10 steps were added.{_PLUMBING['en']} Run 1 failed: `run-inspector runs show 1` lists its steps.\n",
     f" 31 steps were added.{_PLUMBING['en']} 2 of the runs failed, the first run 6: `run-inspector runs show 6` "
     "lists its steps.\n"),
    ("de", f" 10 Schritte wurden hinzugefügt.{_PLUMBING['de']} Lauf 1 ist fehlgeschlagen: `run-inspector runs show 1` "
           "listet seine Schritte.\n",
     f" 31 Schritte wurden hinzugefügt.{_PLUMBING['de']} 2 der Läufe sind fehlgeschlagen, der erste Lauf 6: "
     "`run-inspector runs show 6` listet seine Schritte.\n")])
def test_import_names_how_many_runs_failed_and_the_first(tmp_path: Path, language: str, one: str, two: str) -> None:
    db = str(tmp_path / "runs.db")
    done = cli_here("--lang", language, "--db", db, "import", str(FIXTURES / "mcp_sdk.jsonl"))
    assert done.returncode == 0 and done.stdout.endswith(one), done.stdout
    done = cli_here("--lang", language, "--db", db, "import", str(FIXTURES / "google_adk.jsonl"))
    assert done.returncode == 0 and done.stdout.endswith(two), done.stdout
    shown = cli_here("--db", db, "runs", "show", "6").stdout.splitlines()
    assert shown[1].startswith("  status failed ("), shown[1]
    # A file of one run (its number said already) and the same file again say nothing more.
    done = cli_here("--lang", language, "--db", db, "import", str(FIXTURES / "fastmcp.jsonl"))
    assert done.returncode == 0 and "runs show" not in done.stdout, done.stdout
    done = cli_here("--lang", language, "--db", db, "import", str(FIXTURES / "mcp_sdk.jsonl"))
    assert done.returncode == 0 and "runs show" not in done.stdout, done.stdout


def test_without_a_failed_run_the_cancelled_ones_are_named_and_ok_runs_none(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        ids = []
        for status in ("ok", "cancelled", "interrupted", "cancelled"):
            run_id = store.start_run(f"run {status}", "imported")
            store.finish_run(run_id, status)
            ids.append(run_id)
        assert telling_runs(store, ids) == ("cancelled", [ids[1], ids[3]])
        assert telling_runs(store, [ids[3], ids[2], ids[1]]) == ("cancelled", [ids[3], ids[1]])  # in that order
        assert telling_runs(store, [ids[2], ids[0]]) == ("interrupted", [ids[2]])
        assert telling_runs(store, [ids[0]]) is None
