"""`runs list --search TEXT`: the runs whose title, server, file or notes hold the text, or with a step Find
finds it in (an exception's type, an error.type's word, a tool's name), as the window's Runs search lists
them. A support engineer with a customer's trace asks "which runs hit TimeoutError?". A real database made
by the real importer, the real command line."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.store import RunStore
from inspector.transfer.importing import import_trace
from tests.support.cli_process import cli, cli_here

TRACE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl"


def _listed(db: str, *args: str) -> list[int]:
    done = cli_here("runs", "list", "--json", "--db", db, *args)
    assert done.returncode == 0, done.stderr
    return [run["id"] for run in json.loads(done.stdout)["runs"]]


def test_runs_are_found_by_their_steps_text(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        every = import_trace(store, TRACE).run_ids
        failing = store.list_runs(outcome="failed")[0].id
    assert len(_listed(db, "--all")) == len(every)  # the notifications' traces too (plumbing traces)
    for text in ("TimeoutError", "timeouterror", "tool_error", "fail"):  # a tool's name too ("fail")
        assert _listed(db, "--search", text) == [failing], text
    assert _listed(db, "--search", "TimeoutError", "--outcome", "ok") == []
    assert _listed(db, "--search", "no step holds this") == []
    # The same fields as without --search (no step count).
    plain = json.loads(cli_here("runs", "list", "--json", "--db", db).stdout)["runs"]
    found = json.loads(cli_here("runs", "list", "--json", "--search", "TimeoutError", "--db", db).stdout)["runs"]
    assert found == [run for run in plain if run["id"] == failing]


def test_a_search_that_finds_nothing_says_so_in_the_language(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        import_trace(store, TRACE)
    english = cli_here("runs", "list", "--search", "nowhere at all", "--db", db)
    assert english.returncode == 0 and english.stdout.startswith("No stored run holds nowhere at all"), english.stdout
    german = cli_here("--lang", "de", "runs", "list", "--search", "nowhere at all", "--db", db)
    assert german.stdout.startswith("Kein gespeicherter Lauf enthält nowhere at all"), german.stdout
    limited = cli_here("runs", "list", "--search", "a", "--limit", "1", "--all", "--db", db)
    assert "The newest 1 of 4 runs are listed" in limited.stdout, limited.stdout


def test_a_strangers_search_text_is_looked_for_as_written_or_refused_in_one_sentence(tmp_path: Path) -> None:
    """``%``, ``_`` and ``\\`` are the text, not a pattern; 10,000 characters that SQLite's LIKE pattern limit
    (50,000 bytes) would refuse once escaped or encoded are searched; a longer text is refused naming the limit
    (it failed with a traceback: "LIKE or GLOB pattern too complex"); bytes that are no text, in one sentence."""
    titles = ["100% done", "a_b", "axb", "back\\slash", "plain"]
    runs = [{"uid": f"s{number}", "title": title, "source": "imported", "server": "srv", "status": "ok",
             "started_at": "2023-11-14T22:13:28.000000Z", "finished_at": "2023-11-14T22:13:29.000000Z", "steps": []}
            for number, title in enumerate(titles)]
    (tmp_path / "titles.json").write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": runs}),
                                          encoding="utf-8")
    db = str(tmp_path / "runs.db")
    assert cli_here("--db", db, "import", str(tmp_path / "titles.json")).returncode == 0
    assert _listed(db, "--search", "%") == [1] and _listed(db, "--search", "a_b") == [2]
    assert _listed(db, "--search", "\\") == [4] and _listed(db, "--search", "_") == [2]
    for text in ("%" * 10_000, "_" * 10_000, "\\" * 10_000, "漢" * 10_000, "\U0001d538" * 10_000):
        assert _listed(db, "--search", text) == []
    refused = cli_here("--db", db, "runs", "list", "--search", "x" * 100_000)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == ("run-inspector: --search looks for a text of at most 10,000 characters; this one has "
                              "100,000\n")
    not_text = cli("--db", db, "runs", "list", "--search", "caf\udce9")  # b"caf\xe9": Latin-1, not UTF-8
    assert not_text.returncode == 2 and "Traceback" not in not_text.stderr and len(not_text.stderr.splitlines()) == 1
