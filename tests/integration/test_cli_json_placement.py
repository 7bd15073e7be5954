"""`--json` before the sub-command (`runs --json list`, `--json runs list`) is the command's, as `--db` and
`--lang` are there too: not "unrecognized arguments: --json" in a JSON object that says nothing of the
command. A group named without its sub-command says what it needs, as one JSON object. `--db` between a
group and its sub-command (`runs --db X list`) is the command's too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support import cli_process
from tests.support.cli_process import cli_here as cli  # what it says, not its process
from tests.support.demo_process import serve_demo
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
    assert json.loads(done.stdout)["error"]["message"] == ("unrecognized arguments: --json. `run-inspector --help` "
                                                           "lists the options it takes.")


@pytest.mark.parametrize("words", [("runs", "--db", "DB", "list"), ("runs", "--db=DB", "list"),
                                   ("--db", "DB", "runs", "list"), ("runs", "list", "--db", "DB"),
                                   ("runs", "--json", "--db", "DB", "list"),
                                   ("--db", "DB", "runs", "--db", "DB", "list")])
def test_db_before_the_sub_command_is_the_commands(tmp_path: Path, words: tuple[str, ...]) -> None:
    """`runs --db X list` was refused ("invalid choice: 'X'"): the group's parser took the path for its
    sub-command. It is the command's database, as `--db X runs list` and `runs list --db X` are."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = mixed_run(store)
    done = cli(*(word.replace("DB", str(db)) for word in words), "--json")
    assert done.returncode == 0, done.stderr
    assert [run["id"] for run in json.loads(done.stdout)["runs"]] == [run_id]


def test_two_databases_around_the_sub_command_are_refused(tmp_path: Path) -> None:
    first, second = tmp_path / "one.db", tmp_path / "two.db"
    done = cli("--lang", "en", "runs", "--db", str(first), "list", "--db", str(second))
    assert done.returncode == 2
    assert done.stderr == f"run-inspector: Two run databases were named (--db {first} and --db {second}); name one.\n"
    assert not first.exists() and not second.exists()


def test_db_between_an_offering_and_its_action_stores_the_run_there(tmp_path: Path) -> None:
    """`resources --db X list SERVER` (and `prompts`, `skills`): the run goes to X, not to the default database."""
    db = tmp_path / "runs.db"
    with serve_demo() as url:
        done = cli("resources", "--db", str(db), "list", url, "--json")
        assert done.returncode == 0, done.stderr
        assert cli("skills", "--db", str(db), "list", url, "--json").returncode in (0, 1)
    with RunStore.open(db) as store:
        assert [run.title.split()[0] for run in reversed(store.list_runs())] == ["resources/list", "skills/list"]


@pytest.mark.parametrize("words", [("import", "TRACE", "--db", ""), ("runs", "list", "--db="),
                                   ("runs", "--db", "", "list"), ("--db", "", "runs", "list")])
def test_an_empty_db_is_refused_not_taken_for_the_default(tmp_path: Path, capsys, monkeypatch,
                                                          words: tuple[str, ...]) -> None:
    """`--db "$DB"` with DB unset in a script: `--db ""` used the default database (an import stored its runs
    there). It is refused before anything is opened, the window's too; the default database is not made."""
    from inspector.cli import main

    default = tmp_path / "default.db"
    monkeypatch.setenv("RUN_INSPECTOR_DB", str(default))
    trace = tmp_path / "runs.json"
    with RunStore.open(tmp_path / "source.db") as store:
        mixed_run(store)
    assert main(["export", "--all", "-o", str(trace), "--db", str(tmp_path / "source.db")]) == 0
    capsys.readouterr()
    assert main(["--lang", "en", *(str(trace) if word == "TRACE" else word for word in words)]) == 2
    assert capsys.readouterr().err == ("run-inspector: --db was given an empty path (in a script, a variable that is "
                                       "not set?): name the run database, or leave --db out to use the default "
                                       "one.\n")
    assert not default.exists()


def test_the_window_refuses_an_empty_db(tmp_path: Path) -> None:
    """`run-inspector --db ""` opened the window on the default database; it is refused as the commands' is."""
    # A process of its own: were the refusal gone, the window would open there, not in the test's process.
    done = cli_process.cli("--lang", "en", "--db", "", timeout=30)
    assert done.returncode == 2
    assert done.stderr.startswith("run-inspector: --db was given an empty path")


@pytest.mark.parametrize(("kind", "reason"), [("device", "it is a device, not a regular file"),
                                              ("fifo", "it is a named pipe, not a regular file"),
                                              ("socket", "it is a socket, not a regular file")])
def test_a_db_that_is_a_special_file_is_named_so(tmp_path: Path, kind: str, reason: str) -> None:
    """`--db /dev/null` (or a named pipe, a socket) said "could not be opened: disk I/O error"."""
    import os
    import socket

    db = tmp_path / "runs.db"
    listening = socket.socket(socket.AF_UNIX)
    try:
        if kind == "device":
            db = Path(os.devnull)
        elif kind == "fifo":
            os.mkfifo(db)
        else:
            listening.bind(str(db))
        for words in (("runs", "list"), ("runs", "show", "1"), ("export", "--all", "-o", str(tmp_path / "x.json"))):
            done = cli("--lang", "en", *words, "--db", str(db), "--json")
            assert done.returncode == 2, done.stderr
            assert json.loads(done.stdout)["error"] == {
                "kind": "usage",
                "message": f"The run database {db} cannot be opened: {reason}. Choose another file with --db or "
                           "RUN_INSPECTOR_DB."}
        done = cli("--lang", "de", "import", str(tmp_path / "x.json"), "--db", str(db))
        assert done.stderr.startswith(f"run-inspector: Die Laufdatenbank {db} kann nicht geöffnet werden: es ist ")
    finally:
        listening.close()
