"""`compare RUN RUN`: two scenario runs played against the demo server, one of them cancelled, set side
by side on the command line (readable, German, --json), and the ways of naming a run."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.store import RunStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"

ROUNDS = [
    {"say": "Writing the draft.", "calls": [{"tool": "write_note", "arguments": {"text": "draft"}}]},
    {"say": "Now the slow part.", "calls": [{"tool": "slow_task", "arguments": {"seconds": 0.3, "steps": 1}}]},
    {"say": "Reading the notes back.", "calls": [{"tool": "list_notes", "arguments": {}}]},
]


def scenario_file(folder: Path, name: str, *, seconds: float, cancel_after: float | None = None) -> Path:
    rounds = json.loads(json.dumps(ROUNDS))
    rounds[1]["calls"][0]["arguments"]["seconds"] = seconds
    scenario = {"scenario": 1, "name": name, "description": "A note, a slow task, the notes read back.",
                "prompt": "Write a note, work a while, read the notes.", "rounds": rounds, "final": "Done."}
    if cancel_after is not None:
        scenario["cancel_after_s"] = cancel_after
    path = folder / f"{name}.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    return path


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def compare_two_traces(tmp_path, capsys, language: str, second: str) -> tuple[str, int, str]:
    """The mcp SDK's trace and Traceloop's imported, run 1 compared with run ``second``: the database, the exit
    status and what was printed."""
    db = str(tmp_path / "runs.db")
    for name in ("mcp_sdk.jsonl", "traceloop.jsonl"):
        assert main(["--db", db, "import", str(FIXTURES / name)]) == 0
    capsys.readouterr()
    code, out, _err = run_cli(capsys, "--lang", language, "--db", db, "compare", "1", second)
    return db, code, out


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int, int]]:
    """Two runs of one script: the first ends ok; in the second the slow task takes a minute and the
    user cancels the run after 2 seconds, in the middle of it."""
    folder = tmp_path_factory.mktemp("compare")
    db = folder / "runs.db"
    ids = []
    for name, seconds, cancel in (("finished", 0.3, None), ("cancelled", 60, 2)):
        path = scenario_file(folder, name, seconds=seconds, cancel_after=cancel)
        code = main(["scenario", str(path), "--db", str(db), "--json"])
        assert code in (0, 130)
        with RunStore.open(db) as store:
            ids.append(store.list_runs(limit=1)[0].id)
    yield db, ids[0], ids[1]


def test_compare_json_aligns_the_steps_and_marks_the_cancelled_one(played, capsys):
    db, finished, cancelled = played
    code, out, _err = run_cli(capsys, "compare", str(finished), str(cancelled), "--json", "--db", str(db))
    assert code == 0
    report = json.loads(out)
    assert (report["first"]["id"], report["second"]["id"]) == (finished, cancelled)
    assert (report["first"]["status"], report["second"]["status"]) == ("ok", "cancelled")
    rows = [(row["state"], (row["first"] or row["second"])["kind"], (row["first"] or row["second"])["name"])
            for row in report["rows"]]
    # The model's second step asked for the slow task with other arguments: it differs too.
    assert rows[:4] == [("alike", "llm", ""), (rows[1][0], "tool", "write_note"), ("differs", "llm", ""),
                        ("differs", "tool", "slow_task")]
    assert report["rows"][2]["differences"] == ["arguments"]
    assert rows[4:] == [("only_first", "llm", ""), ("only_first", "tool", "list_notes"), ("only_first", "llm", "")]
    slow = report["rows"][3]
    assert {"outcome", "arguments"} <= set(slow["differences"])
    assert (slow["first"]["outcome"], slow["second"]["outcome"]) == ("ok", "cancelled")
    # Cancelled after 2 s against ok after 0.3 s: another outcome, not "slower" (the user stopped it);
    # the change in milliseconds is still there to read, and no count has the pair as slower.
    assert "slower" not in slow["differences"] and "faster" not in slow["differences"]
    assert slow["duration_change_ms"] > 1_000
    assert slow["second"]["round"] == 2 and slow["second"]["sequence"] == 4
    summary = report["summary"]
    assert summary["outcome_changes"] == [{"first": "ok", "second": "cancelled", "count": 1}]
    assert summary["only_first"] == 3 and summary["only_second"] == 0
    assert f"1 ok in run {finished} and cancelled in run {cancelled}" in summary["text"]
    assert f"3 steps only in run {finished}" in summary["text"]
    assert report["rule"] == {"ratio": 0.2, "ms": 100.0}


def test_compare_readable_marks_each_row(played, capsys):
    db, finished, cancelled = played
    code, out, _err = run_cli(capsys, "compare", str(finished), str(cancelled), "--db", str(db))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"First: run {finished}, scenario finished — ok, 7 steps, started ")
    assert lines[1].startswith(f"Second: run {cancelled}, scenario cancelled — cancelled, 4 steps, started ")
    assert f"ok in run {finished} and cancelled in run {cancelled}" in lines[2]
    table = lines[4:]
    assert table[0].split()[:3] == ["Round", "Step", "Run"]
    slow = next(line for line in table if "slow_task" in line)
    assert slow.startswith("≠") and "ok → cancelled" in slow and "other arguments" in slow
    # Not "slower by 1.7 s": the user stopped it. Each run's column says its own duration.
    assert "slower" not in slow and "faster" not in slow
    assert re.search(r"ok +0\.\d+ s +cancelled +\d\.\d s +ok → cancelled and other arguments$", slow), slow
    assert [line[0] for line in table[1:]] == ["=", table[2][0], "≠", "≠", "−", "−", "−"]
    assert table[-1].endswith(f"only in run {finished}")


def test_compare_in_german(played, capsys):
    db, finished, cancelled = played
    code, out, _err = run_cli(capsys, "--lang", "de", "compare", str(finished), str(cancelled), "--db", str(db))
    assert code == 0
    assert f"1 in Lauf {finished} ok und in Lauf {cancelled} abgebrochen" in out
    assert f"3 Schritte nur in Lauf {finished}" in out
    assert "fehlgeschlagen" not in out  # cancelled is never failed
    assert "ok → abgebrochen" in out
    slow = next(line for line in out.splitlines() if "slow_task" in line)
    assert "langsamer" not in slow and "schneller" not in slow


def test_a_run_is_named_by_id_last_or_the_beginning_of_its_uid(played, capsys):
    db, finished, cancelled = played
    with RunStore.open(db) as store:
        uid = store.get_run(finished).uid
    code, out, _err = run_cli(capsys, "compare", uid[:8], "last", "--json", "--db", str(db))
    assert code == 0
    report = json.loads(out)
    assert (report["first"]["id"], report["second"]["id"]) == (finished, cancelled)
    code, out, _err = run_cli(capsys, "compare", "last~1", "last", "--json", "--db", str(db))
    assert (json.loads(out)["first"]["id"], json.loads(out)["second"]["id"]) == (finished, cancelled)


@pytest.mark.parametrize(("words", "said"), [
    (("99", "1"), "There is no run 99."),
    (("last~5", "1"), "There is no run last~5: the run database holds fewer runs than that."),
    (("ab", "1"), "ab names no run: give a run's id, last, last~N or at least 4 characters of its uid."),
    (("zzzz", "1"), "No run has an id or a uid beginning zzzz."),
])
def test_a_run_that_is_not_there_is_said_in_one_sentence(played, capsys, words, said):
    db, _finished, _cancelled = played
    code, out, _err = run_cli(capsys, "compare", *words, "--json", "--db", str(db))
    assert code == 2
    assert said in json.loads(out)["error"]["message"]


def test_a_run_is_not_compared_with_itself(played, capsys):
    db, finished, _cancelled = played
    code, _out, err = run_cli(capsys, "compare", str(finished), str(finished), "--db", str(db))
    assert code == 2 and f"name the same run ({finished})" in err


def test_compare_with_one_run_or_three_says_it_needs_two_and_how_to_name_them(played, capsys):
    """It said argparse's "the following arguments are required: RUN"; the runs may stand around options."""
    db, finished, cancelled = played
    code, out, err = run_cli(capsys, "compare", str(finished), "--db", str(db))
    assert (code, out) == (2, "")
    assert err == (f"run-inspector: compare needs two runs, the first and then the one compared against it; only "
                   f"{finished} was given. Name the second too, e.g. compare {finished} last (a run is named by its "
                   f"id, last, last~N or the beginning of its uid).\n")
    code, out, _err = run_cli(capsys, "compare", "1", "2", "3", "--json", "--db", str(db))
    assert code == 2 and json.loads(out)["error"] == {
        "kind": "usage", "message": "compare needs two runs, the first and then the one compared against it, e.g. "
        "compare last~1 last (a run is named by its id, last, last~N or the beginning of its uid); 3 were given."}
    code, _out, err = run_cli(capsys, "--lang", "de", "compare", "last", "--db", str(db))
    assert code == 2 and "compare braucht zwei Läufe" in err and "z. B. compare last~1 last" in err, err
    code, out, _err = run_cli(capsys, "compare", str(finished), "--json", str(cancelled), "--db", str(db))
    assert code == 0 and json.loads(out)["second"]["id"] == cancelled


def test_compare_on_a_database_that_does_not_exist_creates_none(tmp_path, capsys):
    db = tmp_path / "none.db"
    code, _out, err = run_cli(capsys, "compare", "1", "2", "--db", str(db))
    assert code == 2 and "does not exist yet" in err
    assert not db.exists()


def test_compare_json_is_english_in_every_language(played, capsys):
    db, finished, cancelled = played
    english = json.loads(run_cli(capsys, "compare", str(finished), str(cancelled), "--json", "--db", str(db))[1])
    german = json.loads(run_cli(capsys, "--lang", "de", "compare", str(finished), str(cancelled), "--json",
                                "--db", str(db))[1])
    assert german == english
    assert "Lauf" not in german["summary"]["text"]


@pytest.mark.parametrize(("language", "timed_out", "unrecorded"), [
    ("en", "failed: timed out", "not recorded"),
    ("de", "fehlgeschlagen: Zeitüberschreitung", "nicht erfasst"),
])
def test_a_timed_out_step_is_compared_in_the_words_runs_show_uses(tmp_path, capsys, language, timed_out,
                                                                    unrecorded):
    """Two real traces (the mcp SDK's, Traceloop's) each with a timed-out `slow` call: the comparison says
    "failed: timed out" as `runs show` and the window do, not a bare "failed", and its column fits it."""
    db, code, out = compare_two_traces(tmp_path, capsys, language, "5")
    assert code == 0
    shown = [line for line in out.splitlines() if f" {timed_out} " in line]
    assert len(shown) == 1 and shown[0].count(timed_out) == 2, out
    code, listing, _err = run_cli(capsys, "--lang", language, "--db", db, "runs", "show", "1")
    assert timed_out in listing
    # The column is as wide as its longest words: the second run's column starts at one place in every row.
    [unrecorded_row] = [line for line in out.splitlines() if f" {unrecorded} " in line]
    second = shown[0].index(timed_out, shown[0].index(timed_out) + 1)
    assert unrecorded_row.index(unrecorded, unrecorded_row.index(unrecorded) + 1) == second, out


@pytest.mark.parametrize(("language", "first", "second"), [
    ("en", "First: run 1, invoke_agent support-agent — failed (2 of 4 tool calls failed, 1 not recorded), 7 steps, "
           "started ",
     "Second: run 2, notifications/initialized — ok, 1 step, started "),
    ("de", "Erster: Lauf 1, invoke_agent support-agent — fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen "
           "fehl, 1 nicht erfasst), 7 Schritte, gestartet ",
     "Zweiter: Lauf 2, notifications/initialized — ok, 1 Schritt, gestartet "),
], ids=["en", "de"])
def test_compare_says_why_a_run_failed_as_runs_list_does(tmp_path, capsys, language, first, second):
    """A run read from a trace whose tool calls failed: its status with why, as `runs list` says it."""
    db, code, out = compare_two_traces(tmp_path, capsys, language, "2")
    lines = out.splitlines()
    assert lines[0].startswith(first) and lines[1].startswith(second), out
    listing = run_cli(capsys, "--lang", language, "--db", db, "runs", "list")[1]
    assert first.split(" — ", 1)[1].rsplit(", 7", 1)[0] in listing


@pytest.mark.parametrize("language", ["en", "de"])
def test_compare_heads_its_runs_in_the_words_of_the_window(tmp_path, capsys, language):
    """Issue 23: the window and the command line say a run alike. `compare` said "First run: run 1, … (failed (…),
    7 steps)", nested brackets and no start, where the window's Compare said "First: run 1, … — failed (…), 7 steps,
    started …"."""
    from inspector.gui.runs.compare_dialog import run_line
    from inspector.i18n import set_language
    from inspector.store.recovery import run_reason

    db, code, out = compare_two_traces(tmp_path, capsys, language, "2")
    assert code == 0
    set_language(language)
    try:
        with RunStore.open(db) as store:
            shown = [run_line(run, place, (reason.said() if (reason := run_reason(store, run)) else None))
                     for place, run in enumerate((store.get_run(1), store.get_run(2)))]
    finally:
        set_language("en")
    assert out.splitlines()[:2] == [line.replace("\u202f", " ") for line in shown], out
    assert " — " in shown[0] and "(" not in shown[1]


@pytest.mark.parametrize(("language", "summary", "left_out"), [
    ("en", "2 steps only in run 1, and 2 steps only in run 5",
     "Not compared: 7 plumbing steps of run 5, hidden as `runs show` hides them (--plumbing compares them too)."),
    ("de", "2 Schritte nur in Lauf 1 und 2 Schritte nur in Lauf 5",
     "Nicht verglichen: 7 Infrastruktur-Schritte von Lauf 5, ausgeblendet wie in `runs show` (--plumbing "
     "vergleicht sie mit)."),
], ids=["en", "de"])
def test_compare_leaves_out_the_plumbing_runs_show_hides_and_says_so(tmp_path, capsys, language, summary,
                                                                      left_out):
    """The mcp SDK's run against Traceloop's: Traceloop's 7 stream writers, which `runs show` hides, said
    "9 steps only in run 5"; now they are left out and counted, and --plumbing compares them as before."""
    db, code, out = compare_two_traces(tmp_path, capsys, language, "5")
    lines = out.splitlines()
    assert code == 0 and lines[2].endswith(summary) and lines[3] == left_out, out
    assert "ResponseStreamWriter" not in out
    code, out, _err = run_cli(capsys, "--lang", language, "--db", db, "compare", "1", "5", "--plumbing")
    assert code == 0 and out.count("ResponseStreamWriter") == 7 and "--plumbing" not in out, out
    code, out, _err = run_cli(capsys, "--db", db, "compare", "1", "5", "--json")
    answer = json.loads(out)
    assert answer["hidden_plumbing"] == {"first": 0, "second": 7} and answer["summary"]["only_second"] == 2
    answer = json.loads(run_cli(capsys, "--db", db, "compare", "1", "5", "--json", "--plumbing")[1])
    assert answer["hidden_plumbing"] == {"first": 0, "second": 0} and answer["summary"]["only_second"] == 9


def _spans_file(folder: Path, trace: int, count: int) -> Path:
    """A trace of ``count`` spans, one after the other (a run read from a trace of thousands of steps)."""
    start = 1_700_000_000_000_000_000
    spans = [{"traceId": f"{trace:032x}", "spanId": f"{number + 1:016x}", "name": f"span {number}", "kind": 1,
              "startTimeUnixNano": str(start + number * 1_000), "endTimeUnixNano": str(start + number * 1_000 + 500)}
             for number in range(count)]
    path = folder / f"trace-{trace}.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}))
    return path


@pytest.mark.parametrize("language, shown, first, only", [
    ("en", "1,003 steps", "First: run 1, span 0 — ok, 1,003 steps, started ", "1,000 steps only in run 1"),
    ("de", "1.003 Schritte", "Erster: Lauf 1, span 0 — ok, 1.003 Schritte, gestartet ",
     "1.000 Schritte nur in Lauf 1")])
def test_thousands_of_steps_are_counted_as_the_language_writes_numbers(capsys, tmp_path: Path, language: str,
                                                                      shown: str, first: str, only: str) -> None:
    """`runs show` and `compare` said "1003 steps" (German too) where the import said "1,003 steps"."""
    db = str(tmp_path / "runs.db")
    for trace, count in ((1, 1_003), (2, 3)):
        assert run_cli(capsys, "import", str(_spans_file(tmp_path, trace, count)), "--db", db)[0] == 0
    code, out, _err = run_cli(capsys, "--lang", language, "runs", "show", "1", "--db", db)
    assert code == 0 and f", {shown}\n" in out
    code, out, _err = run_cli(capsys, "--lang", language, "compare", "1", "2", "--db", db)
    assert code == 0 and out.splitlines()[0].startswith(first)
    assert out.splitlines()[2].endswith(f" {only}"), out.splitlines()[2]
