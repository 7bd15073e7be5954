"""A budget of more than a week kept where a command reads one: a server's in a run database an older version
wrote (``servers set --budget`` refuses one now), a stored step's that ``replay`` calls again (an imported
trace's ``budgetS``), and ``proxy --budget``. Used, each leg's grant of whole seconds could not be stored
(OverflowError: a traceback, no run kept; the proxy recorded nothing). Now the default applies, said; the
proxy refuses it as every command's --budget does."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from inspector.runs import RunStep, StepKind
from inspector.store import RunStore
from tests.support.cli_process import cli_here


def test_a_servers_stored_budget_beyond_a_week_gives_way_to_the_default(demo_server, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", demo_server.url, "--name", "demo", "--db", db).returncode == 0
    with sqlite3.connect(db) as conn:  # as an older version kept it
        conn.execute("UPDATE servers SET budget_s = 1e308")
    called = cli_here("call", "demo", "echo", "--args", '{"text": "hi"}', "--db", db)
    assert called.returncode == 0, called.stderr
    assert called.stderr == ("run-inspector: the budget stored for demo, 1E308 s, cannot be used (a budget is "
                             "positive and at most a week); the default applies. Set another with servers set "
                             "--budget.\n")
    assert "echo on demo: ok (budget 20 s)" in called.stdout and "Stored as run 1." in called.stdout
    given = cli_here("call", "demo", "echo", "--args", '{"text": "hi"}', "--budget", "5", "--db", db)
    assert given.returncode == 0 and given.stderr == "" and "(budget 5 s)" in given.stdout


def test_a_step_recorded_with_a_budget_beyond_a_week_is_replayed_with_the_default(demo_server,
                                                                                  tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        run_id = store.start_run("tools/call echo", "live", demo_server.url)
        store.append_step(run_id, RunStep(kind=StepKind.TOOL, round=0, duration_ms=3.0, tool_name="echo",
                                          tool_arguments={"text": "again"}, tool_result="again",
                                          tool_is_error=False, budget_s=1e308))
        store.finish_run(run_id, "ok")
    replayed = cli_here("replay", f"{run_id}:1", "--db", db)
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stderr == ("run-inspector: the step's budget, 1E308 s, is more than a week: the replay gets the "
                               "server's budget or the default (--budget gives another).\n")
    assert "ok (budget 20 s)" in replayed.stdout


def test_the_proxy_refuses_a_budget_beyond_a_week(tmp_path: Path) -> None:
    refused = cli_here("proxy", "--to", "http://127.0.0.1:9/mcp", "--budget", "1e308", "--db",
                       str(tmp_path / "runs.db"))
    assert refused.returncode == 2
    assert refused.stderr == "run-inspector: --budget must be at most 604,800 seconds (a week), got '1e308'\n"
