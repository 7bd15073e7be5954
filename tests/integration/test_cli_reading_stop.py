"""A SIGTERM while `runs list`, `runs show`, `compare` or `servers` reads the run database and prints: the command
ends as a Ctrl-C there ends it, what it printed kept, a sentence on stderr and exit status 130. SIGTERM killed the
process there (status -15, no sentence). With --json a script gets the error object when none of the answer was
printed, and nothing glued to an answer cut short (which then does not read as JSON: the status says why). The
signal is raised exactly there, in a child process (tests/integration/test_cli_late_stop.py's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.store import RunStore, ServerRegistry
from tests.integration.test_cli_late_stop import command, stopped_at
from tests.support.sample_runs import mixed_database, mixed_run

SAID = {"SIGTERM": "Ended by a signal (SIGTERM) before the command had done its work.",
        "SIGINT": "Cancelled (Ctrl-C) before the command had done its work."}
#: Called once `runs show` printed the run's head (as text, or the start of its JSON object), before its steps.
SHOWING = "inspector.cli.runs:replays_by_step"


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(mixed_database(tmp_path_factory.mktemp("runs") / "runs.db"))


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT"])
def test_a_stop_while_runs_show_prints_keeps_what_was_printed_and_ends_130(database: str, stop: str) -> None:
    done = stopped_at(stop, SHOWING, "runs", "show", "1", "--db", database)
    assert done.returncode == 130 and done.stderr == f"run-inspector: {SAID[stop]}\n"
    assert done.stdout.startswith("Run 1: ") and done.stdout.splitlines()[-1].lstrip().startswith("#  ")


def test_a_sigterm_in_the_middle_of_runs_show_json_adds_nothing_to_stdout(database: str) -> None:
    done = stopped_at("SIGTERM", SHOWING, "runs", "show", "1", "--json", "--db", database)
    assert done.returncode == 130 and done.stderr == f"run-inspector: {SAID['SIGTERM']}\n"
    assert done.stdout.startswith('{"run": {"id": 1,') and done.stdout.endswith('"timeline": [')
    with pytest.raises(json.JSONDecodeError):  # cut short: no script takes it for the whole answer
        json.loads(done.stdout)


def test_a_sigterm_before_runs_list_printed_anything_is_the_json_error_object(database: str) -> None:
    as_json = stopped_at("SIGTERM", "list_runs", "runs", "list", "--json", "--db", database)
    assert as_json.returncode == 130 and as_json.stderr == f"run-inspector: {SAID['SIGTERM']}\n"
    assert json.loads(as_json.stdout) == {"error": {"kind": "cancelled", "message": SAID["SIGTERM"]}}
    german = stopped_at("SIGTERM", "list_runs", "--lang", "de", "runs", "list", "--db", database)
    assert (german.returncode, german.stdout) == (130, "")
    assert german.stderr == ("run-inspector: Durch ein Signal (SIGTERM) beendet, bevor der Befehl seine Arbeit getan "
                             "hatte.\n")


@pytest.mark.parametrize("json_option", [[], ["--json"]])
def test_a_sigterm_once_all_is_printed_changes_nothing(database: str, json_option: list[str]) -> None:
    """Raised as the database is closed, after the list was printed: the process was killed (status -15)."""
    done = stopped_at("SIGTERM", "close", "runs", "list", *json_option, "--db", database)
    whole = command("runs", "list", *json_option, "--db", database)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", whole)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = mixed_database(tmp_path_factory.mktemp("two") / "runs.db")
    with RunStore.open(path) as store:
        mixed_run(store)
    return str(path)


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT"])
def test_a_stop_while_compare_prints_keeps_what_was_printed_and_ends_130(two_runs: str, stop: str) -> None:
    """SIGTERM killed `compare` there (status -15, no sentence)."""
    done = stopped_at(stop, "inspector.cli.comparing:summary_line", "compare", "1", "2", "--db", two_runs)
    assert done.returncode == 130 and done.stderr == f"run-inspector: {SAID[stop]}\n"
    assert done.stdout.startswith("First: run 1, ") and done.stdout.splitlines()[-1].startswith("Second: ")


def test_a_sigterm_in_the_middle_of_compare_json_adds_nothing_to_stdout(two_runs: str) -> None:
    done = stopped_at("SIGTERM", "inspector.cli.comparing:_row_dict", "compare", "1", "2", "--json", "--db", two_runs)
    assert done.returncode == 130 and done.stderr == f"run-inspector: {SAID['SIGTERM']}\n"
    assert done.stdout.endswith('"rows": [')
    with pytest.raises(json.JSONDecodeError):
        json.loads(done.stdout)


@pytest.mark.parametrize("json_option", [[], ["--json"]])
def test_a_sigterm_while_servers_lists_ends_it_as_ctrl_c_does(tmp_path: Path, json_option: list[str]) -> None:
    """SIGTERM killed `servers` there (status -15, no sentence); before it printed anything: --json's error object."""
    db = str(tmp_path / "runs.db")
    with RunStore.open(Path(db)) as store:
        ServerRegistry(store.db).save_server("http://127.0.0.1:9/mcp", name="vault")
    at = "inspector.cli.servers:_listed" if json_option else "inspector.cli.servers:server_lines"
    done = stopped_at("SIGTERM", at, "servers", *json_option, "--db", db)
    assert done.returncode == 130 and done.stderr == f"run-inspector: {SAID['SIGTERM']}\n"
    if json_option:
        assert json.loads(done.stdout) == {"error": {"kind": "cancelled", "message": SAID["SIGTERM"]}}
    else:
        assert done.stdout == ""
    whole = stopped_at("SIGTERM", "close", "servers", *json_option, "--db", db)  # all printed: nothing changes
    assert (whole.returncode, whole.stderr) == (0, "") and "vault" in whole.stdout
