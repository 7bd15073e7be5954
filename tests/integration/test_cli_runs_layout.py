"""``runs show`` and ``runs list`` say an imported trace as the window's Runs tab does: its spans nested,
its plumbing hidden unless asked for, a timed-out call's kind of failure, and why a failed run failed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.chain_trace import chain_trace
from tests.support.cli_process import cli_here as cli  # what it says, not its process
from tests.support.fault_server import Exchange, FaultServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
#: How deep the window's tree cell indents at most (``inspector.store.span_tree.DEEPEST_INDENT``).
DEEPEST_INDENT = 12


def imported(tmp_path: Path, fixture: str) -> str:
    db = str(tmp_path / f"{fixture}.db")
    done = cli("--db", db, "import", str(FIXTURES / f"{fixture}.jsonl"))
    assert done.returncode == 0, done.stderr
    return db


def shown(db: str, *args: str, language: str = "en") -> str:
    done = cli("--lang", language, "--db", db, "runs", "show", *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def details_of(out: str) -> dict[int, str]:
    """Each step's Details cell, as printed (its indent kept), by the step's number."""
    lines = out.splitlines()
    heading = next(line for line in lines if line.lstrip().startswith("#"))
    at = heading.rindex("  ") + 2  # the last column's start
    return {int(line[:heading.index("#") + 1]): line[at:] for line in lines[lines.index(heading) + 1:]
            if line[:heading.index("#") + 1].strip().isdigit()}


def test_runs_show_hides_the_plumbing_the_window_hides_and_lists_it_when_asked(tmp_path: Path) -> None:
    db = imported(tmp_path, "traceloop")
    out = shown(db, "1")
    assert "ResponseStreamWriter" not in out
    assert "7 of 14 steps shown (7 plumbing hidden; --plumbing lists them)" in out
    assert len(details_of(out)) == 7
    every = shown(db, "1", "--plumbing")
    assert len(details_of(every)) == 14
    assert every.count("ResponseStreamWriter") == 7
    assert "14 steps" in every and "plumbing hidden" not in every
    # --json stays whole; the plumbing is marked in each step's payload, as the window reads it.
    timeline = json.loads(shown(db, "1", "--json"))["timeline"]
    assert len(timeline) == 14
    assert sum(entry["payload"]["raw"]["otlp"].get("plumbing") is True for entry in timeline) == 7
    german = shown(db, "1", language="de")
    assert "7 von 14 Schritten angezeigt (7 Infrastruktur-Spans ausgeblendet; --plumbing listet sie auf)" in german


def test_runs_show_nests_fastmcps_wrapper_spans_as_the_window_does(tmp_path: Path) -> None:
    db = imported(tmp_path, "fastmcp")
    for language in ("en", "de"):
        details = details_of(shown(db, "1", language=language))
        assert details[12] == "invoke_agent support-agent"  # the root first, then what ran under it
        assert details[8] == "  lookup"  # FastMCP's tools/call span…
        assert details[3] == "    lookup"  # …and the MCP send under it: one call, nested, not two
        assert list(details)[:5] == [12, 1, 7, 2, 8]


def test_a_trace_nested_a_thousand_deep_is_indented_only_so_far_and_says_so(tmp_path: Path) -> None:
    db = str(tmp_path / "deep.db")
    done = cli("--db", db, "import", str(chain_trace(tmp_path / "deep.jsonl", 1000)))
    assert done.returncode == 0, done.stderr
    out = shown(db, "1")
    assert max(map(len, out.splitlines())) < 250
    details = details_of(out)
    assert len(details) == 1000
    widest = "  " * DEEPEST_INDENT
    assert details[1] == "level-1" and details[2] == "  level-2"
    assert details[DEEPEST_INDENT + 1] == widest + f"level-{DEEPEST_INDENT + 1}"
    assert details[1000] == widest + "(level 1,000) level-1000"
    assert (f"{1000 - DEEPEST_INDENT - 1} steps are nested deeper than {DEEPEST_INDENT} levels: they are indented "
            f"{DEEPEST_INDENT} levels deep") in out
    german = shown(db, "1", language="de")
    assert widest + "(Ebene 1.000) level-1000" in german
    assert f"sind tiefer als {DEEPEST_INDENT} Ebenen verschachtelt" in german


@pytest.fixture
def timed_out_run(tmp_path: Path) -> str:
    """A run of one call the server never answered, stopped at the end of its 1 s budget."""
    def work(exchange: Exchange) -> None:
        if (exchange.request.params or {}).get("name") == "slow":
            exchange.stall()
        else:
            exchange.send_result({"content": [{"type": "text", "text": "ok"}]})

    db = str(tmp_path / "slow.db")
    with FaultServer("session", work=work) as server:
        done = cli("call", server.url, "slow", "--budget", "1", "--db", db)
    assert done.returncode != 0 and ": failed: timed out (budget 1 s)" in done.stdout, done.stdout + done.stderr
    return db


def test_a_timed_out_call_says_so_in_runs_show_as_on_the_windows_bar(timed_out_run: str) -> None:
    [call] = [line for line in shown(timed_out_run, "1").splitlines() if line.startswith("1 ")]
    assert " failed: timed out  slow: " in call
    [german] = [line for line in shown(timed_out_run, "1", language="de").splitlines() if line.startswith("1 ")]
    assert " fehlgeschlagen: Zeitüberschreitung  slow: " in german
    # The stored outcome stays "failed": the kind is what the legs tell.
    assert json.loads(shown(timed_out_run, "1", "--json"))["timeline"][0]["outcome"] == "failed"


@pytest.mark.parametrize("fixture", ["traceloop", "fastmcp"])
def test_a_failed_imported_run_says_why_in_runs_show_and_runs_list(tmp_path: Path, fixture: str) -> None:
    db = imported(tmp_path, fixture)
    # Two of its four calls failed (FastMCP's wrapper span and the call under it are one call), and one has
    # no outcome recorded: said apart, not left to be read as ok.
    assert "  status failed (2 of 4 tool calls failed, 1 not recorded), source imported" in shown(db, "1")
    assert ("  Status fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl, 1 nicht erfasst), Quelle "
            "importiert") in shown(db, "1", language="de")
    listed = cli("--db", db, "runs", "list").stdout.splitlines()
    [failed] = [line for line in listed if line.split()[0] == "1"]
    assert "  failed (2 of 4 tool calls failed, 1 not recorded)  imported  " in failed
    if fixture == "fastmcp":  # the runs that did not fail say no more than before
        assert all("  ok  " in line and "(" not in line for line in listed[1:] if line.split()[0] != "1")
    german = cli("--lang", "de", "--db", db, "runs", "list").stdout
    assert "fehlgeschlagen (2 von 4 Tool-Aufrufen schlugen fehl, 1 nicht erfasst)  importiert" in german


def test_runs_show_says_that_a_hidden_plumbing_step_has_a_note(tmp_path: Path) -> None:
    """A support engineer listed the plumbing, wrote a note on a stream writer and exported the run; the
    colleague's `runs show` hid that step and said nothing of the note. A line under the table says how
    many hidden steps have a note and how to list them; with --plumbing the note is under its step."""
    db = imported(tmp_path, "traceloop")
    assert "hidden plumbing" not in shown(db, "1")  # no note yet: nothing more is said
    writer = next(line.split()[0] for line in shown(db, "1", "--plumbing").splitlines()
                  if line.endswith("ResponseStreamWriter"))
    done = cli("--db", db, "runs", "note", "1", "--step", writer, "the proxy drops this chunk")
    assert done.returncode == 0, done.stderr
    assert shown(db, "1").splitlines()[-1] == ("1 step of the hidden plumbing has a note: --plumbing lists it "
                                               "with its note.")
    assert shown(db, "1", language="de").splitlines()[-1] == (
        "1 ausgeblendeter Infrastruktur-Span hat eine Notiz: --plumbing listet ihn mit seiner Notiz auf.")
    every = shown(db, "1", "--plumbing")
    assert "    note: the proxy drops this chunk" in every and "hidden plumbing" not in every
    # A note on a step that shows is said under it, and not counted as hidden.
    assert cli("--db", db, "runs", "note", "1", "--step", writer, "--clear").returncode == 0
    assert cli("--db", db, "runs", "note", "1", "--step", "14", "seen").returncode == 0
    assert "hidden plumbing" not in shown(db, "1")
