"""`runs list` leaves out the plumbing traces of a customer's file and says how many (`--all` lists them), `import`
says how many a file brought, and `last` is the newest run the list lists. The file: OpenLIT on `mcp` 2.x
(tests/fixtures/otel/openlit_mcp2.jsonl), whose server writes nine one-span `mcp session/init` traces and the SDK's
three notifications' traces beside the agent's one run: the list showed thirteen runs, twelve of them noise, and
`runs show last` a `notifications/cancelled`. The real importer, a real database, the real command line."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

from inspector.cli.parser import build_parser
from inspector.cli.runs import _read
from inspector.store import RunStore
from inspector.store.plumbing_traces import plumbing_traces_among
from tests.support.cli_process import cli_here

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
HIDDEN = ("Not listed: 12 plumbing traces (traces of a session's plumbing alone: its set-up, notifications outside a "
          "request); --all lists them.")


def test_runs_list_leaves_the_plumbing_traces_out_and_says_how_many(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    done = cli_here("--db", db, "import", str(FIXTURES / "openlit_mcp2.jsonl"))
    assert done.returncode == 0
    assert ("13 runs" in done.stdout and "12 of the runs are plumbing traces (a session's plumbing alone): `runs list` "
            "leaves them out, `runs list --all` lists them." in done.stdout), done.stdout
    listed = cli_here("--db", db, "runs", "list").stdout.splitlines()
    assert len(listed) == 3 and "invoke_agent support-agent" in listed[1] and listed[2] == HIDDEN, listed
    every = cli_here("--db", db, "runs", "list", "--all").stdout.splitlines()
    assert len(every) == 14 and sum("mcp session/init" in row for row in every) == 9, every
    assert not any(line.startswith("Not listed") for line in every)
    answer = json.loads(cli_here("--db", db, "runs", "list", "--json").stdout)
    assert [run["title"] for run in answer["runs"]] == ["invoke_agent support-agent"]
    assert answer["plumbing_traces_hidden"] == 12
    answer = json.loads(cli_here("--db", db, "runs", "list", "--json", "--all").stdout)
    assert (len(answer["runs"]), answer["plumbing_traces_hidden"]) == (13, 0)
    # A search leaves them out too: "mcp" is in every run.
    found = cli_here("--db", db, "runs", "list", "--search", "mcp").stdout.splitlines()
    assert len(found) == 3 and found[2] == HIDDEN, found
    # The limit counts the runs the list lists.
    limited = cli_here("--db", db, "runs", "list", "--all", "--limit", "2").stdout
    assert "The newest 2 of 13 runs are listed" in limited
    # `last` is the run the list lists first: the agent's (it was the newest notification's trace).
    shown = cli_here("--db", db, "runs", "show", "last").stdout.splitlines()
    assert shown[0] == "Run 1: invoke_agent support-agent", shown[0]
    german = cli_here("--lang", "de", "--db", db, "runs", "list").stdout.splitlines()
    assert german[-1].startswith("Nicht aufgeführt: 12 Infrastruktur-Traces"), german[-1]


def test_a_database_of_plumbing_traces_alone_says_so(tmp_path: Path) -> None:
    """A file of one notification's trace (the SDK's notifications/initialized, cut from mcp_sdk_crash.jsonl): not
    "No runs stored yet", and `last` names none, saying why."""
    lines = (FIXTURES / "mcp_sdk_crash.jsonl").read_text(encoding="utf-8").splitlines()
    [line] = [line for line in lines if "notifications/initialized" in line]
    document = json.loads(line)
    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            scope["spans"] = [span for span in scope["spans"] if span["name"] == "notifications/initialized"]
    trace = tmp_path / "notification.jsonl"
    trace.write_text(json.dumps(document) + "\n", encoding="utf-8")
    db = str(tmp_path / "runs.db")
    done = cli_here("--db", db, "import", str(trace))
    assert "The run is a plumbing trace (a session's plumbing alone)" in done.stdout, done.stdout
    listed = cli_here("--db", db, "runs", "list").stdout.splitlines()
    assert listed == ["Not listed: 1 plumbing trace (a trace of a session's plumbing alone: its set-up, a notification "
                      "outside a request); --all lists it."], listed
    last = cli_here("--db", db, "runs", "show", "last")
    assert last.returncode == 2 and "`runs list` lists fewer runs than that" in last.stderr, last.stderr
    assert cli_here("--db", db, "runs", "show", "1").returncode == 0


def test_runs_list_counts_the_runs_it_lists_and_leaves_out_in_one_count(tmp_path: Path) -> None:
    """The list's two counts of the runs (those it lists, for "The newest 1 of 3 runs"; the plumbing traces it leaves
    out) each asked every run whether it is a plumbing trace; one query asks it once, of the plumbing traces' count
    alone (25,000 runs, 9,623 plumbing traces: 111 → 58 ms at a load of 7 on 2 cores), and says the same."""
    db = tmp_path / "runs.db"
    for name in ("openlit_mcp2.jsonl", "mcp_sdk.jsonl", "fastmcp.jsonl", "traceloop.jsonl", "strands.jsonl"):
        assert cli_here("--db", str(db), "import", str(FIXTURES / name)).returncode == 0
    every = json.loads(cli_here("--db", str(db), "runs", "list", "--all", "--json", "--limit", "1000").stdout)["runs"]
    for outcome in (None, "ok"):
        chosen = [run for run in every if outcome is None or run["status"] == outcome]
        with RunStore.open(db) as store:
            plumbing = len(plumbing_traces_among(store.db.conn, [run["id"] for run in chosen]))
            asked: list[str] = []
            store.db.conn.set_trace_callback(asked.append)
            words = ["runs", "list", "--limit", "1", *(["--outcome", outcome] if outcome else [])]
            out = io.StringIO()
            with redirect_stdout(out):
                assert _read(store, build_parser(words).parse_args(words)) == 0
        said = out.getvalue().splitlines()
        assert len(chosen) - plumbing > 1 and plumbing > 0
        assert said[-2] == f"The newest 1 of {len(chosen) - plumbing} runs are listed; --limit N lists more.", said
        assert said[-1].startswith(f"Not listed: {plumbing} plumbing traces ("), said
        counts = [sql for sql in asked if sql.startswith("SELECT COUNT(*)") and "raw.otlp.plumbing" in sql]
        assert len(counts) == 1, counts
