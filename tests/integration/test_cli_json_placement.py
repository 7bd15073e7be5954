"""`--json` before the sub-command (`runs --json list`, `--json runs list`) is the command's, as `--db` and
`--lang` are there too: not "unrecognized arguments: --json" in a JSON object that says nothing of the
command. A group named without its sub-command says what it needs, as one JSON object."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.cli_process import cli
from tests.support.sample_runs import mixed_run


@pytest.mark.parametrize("words", [("runs", "--json", "list"), ("--json", "runs", "list"), ("runs", "list", "--json")])
def test_json_before_the_sub_command_is_the_commands(tmp_path: Path, words: tuple[str, ...]) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = mixed_run(store)
    done = cli(*words, "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert [run["id"] for run in json.loads(done.stdout)["runs"]] == [run_id]


@pytest.mark.parametrize(("group", "needs"), [("runs", "runs needs a sub-command"),
                                              ("resources", "resources needs an action"),
                                              ("skills", "skills needs an action")])
def test_a_group_without_its_sub_command_says_what_it_needs_as_json(tmp_path: Path, group: str, needs: str) -> None:
    done = cli("--db", str(tmp_path / "runs.db"), group, "--json")
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["kind"] == "usage" and error["message"].startswith(needs), error
    assert done.stderr.startswith(f"run-inspector: {needs}")


def test_the_window_takes_no_json(tmp_path: Path) -> None:
    done = cli("--json", "--db", str(tmp_path / "runs.db"))
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["message"] == "unrecognized arguments: --json"
