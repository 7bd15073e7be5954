"""What `--help` says is what the command does.

`tools --help` (and every operation's) said "--budget … (default 20)", while a configured server's budget
(`servers set --budget`) is the default, and replay's the step's; `servers --help` showed its actions as needed
(`servers {set,remove,import} ...`) and never said that `servers` alone lists the servers with their health;
`agent --help` named its prompt `prompt` under the `"PROMPT"` of its usage; `runs show --help` wrote its run as
"[RUN]", which it needs."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.cli_process import cli_here

ADDRESS = "http://127.0.0.1:9/mcp"  # nothing listens: refused at once


def _help(language: str, *words: str) -> str:
    done = cli_here("--lang", language, *words, "--help", env={"COLUMNS": "400"})
    assert done.returncode == 0, done
    return done.stdout


def _option_help(shown: str, option: str) -> str:
    return next(line for line in shown.splitlines() if line.lstrip().startswith(option)).split(None, 2)[2]


@pytest.mark.parametrize(("language", "said", "replayed"), [
    ("en", "time budget for the whole operation (default: the configured server's budget, else 20; minimum 1)",
     "time budget for the whole operation (default: the step's budget, else the configured server's, else 20; "
     "minimum 1)"),
    ("de", "Zeitbudget für den ganzen Vorgang (Standard: das Budget des eingerichteten Servers, sonst 20; Minimum 1)",
     "Zeitbudget für den ganzen Vorgang (Standard: das Budget des Schritts, sonst das des eingerichteten Servers, "
     "sonst 20; Minimum 1)")])
def test_budget_help_names_the_configured_servers_budget(language, said, replayed) -> None:
    for command in (["tools"], ["ping"], ["call"], ["resources", "list"], ["skills", "load"]):
        assert _option_help(_help(language, *command), "--budget") == said, command
    assert _option_help(_help(language, "replay"), "--budget") == replayed


def test_a_configured_servers_budget_is_the_default_the_help_names(tmp_path) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("--db", db, "servers", "set", ADDRESS, "--name", "nine", "--budget", "3").returncode == 0
    given = json.loads(cli_here("--db", db, "ping", "nine", "--json", "--no-store").stdout)
    assert given["budget_s"] == 3.0  # the server's, not 20
    said = json.loads(cli_here("--db", db, "ping", ADDRESS, "--json", "--no-store").stdout)
    assert said["budget_s"] == 3.0  # its address names it too
    other = json.loads(cli_here("--db", db, "ping", "http://127.0.0.1:9/other", "--json", "--no-store").stdout)
    assert other["budget_s"] == 20.0  # else 20


@pytest.mark.parametrize(("language", "usage", "listed"), [
    ("en", "usage: run-inspector servers [--json [--with-secrets]] [--db PATH]\n"
           "       run-inspector servers {set,remove,import} ...",
     "Without an action: the configured servers, each with its transport, era and health (last contact, latency, how "
     "many operations ended with each outcome)."),
    ("de", "Aufruf: run-inspector servers [--json [--with-secrets]] [--db PFAD]\n"
           "       run-inspector servers {set,remove,import} ...",
     "Ohne Aktion: die eingerichteten Server, jeder mit seinem Transport, seiner Protokoll-Ära und seinem Zustand "
     "(letzter Kontakt, Latenz, wie viele Vorgänge mit welchem Ergebnis endeten).")])
def test_servers_help_says_it_lists_the_servers_given_no_action(tmp_path, language, usage, listed) -> None:
    shown = _help(language, "servers")
    assert shown.startswith(usage + "\n") and listed in shown
    db = str(tmp_path / "runs.db")
    assert cli_here("--db", db, "servers", "set", ADDRESS, "--name", "nine").returncode == 0
    done = cli_here("--lang", language, "--db", db, "servers")  # as it says: no action, the list
    assert done.returncode == 0 and "nine" in done.stdout and ADDRESS in done.stdout


def test_agent_help_names_its_prompt_as_its_usage_does() -> None:
    shown = _help("en", "agent")
    assert shown.startswith('usage: run-inspector agent "PROMPT"')
    assert re.search(r"^  PROMPT +what to ask the model$", shown, re.MULTILINE)
    assert not re.search(r"^  prompt\b", shown, re.MULTILINE)


@pytest.mark.parametrize(("language", "usage"), [("en", "usage: run-inspector runs show [options] RUN\n"),
                                                 ("de", "Aufruf: run-inspector runs show [Optionen] LAUF\n")])
def test_runs_show_usage_names_the_run_as_needed(tmp_path, language, usage) -> None:
    """It wrote "[RUN]", as if `runs show` alone showed something; it says what it needs."""
    assert _help(language, "runs", "show").startswith(usage)
    done = cli_here("--lang", language, "--db", str(tmp_path / "runs.db"), "runs", "show")
    assert done.returncode == 2 and "runs show RUN" in done.stderr.replace("LAUF", "RUN")


@pytest.mark.parametrize("language", ["en", "de"])
def test_runs_note_help_names_the_step_number_runs_show_prints(tmp_path, language) -> None:
    """`runs note --step N` named N as the window's "Step N" and the "sequence" of `runs show --json`, not the
    number a user of the command line reads: the # column of `runs show`; and its TEXT "replaces the one there
    was", which with --append it does not. Each is said, and the # column is there to read."""
    db = str(tmp_path / "runs.db")
    assert cli_here("--db", db, "call", ADDRESS, "echo", "--budget", "1").returncode != 0  # stored, failed
    shown = cli_here("--lang", language, "--db", db, "runs", "show", "1", env={"COLUMNS": "400"})
    assert shown.returncode == 0, shown
    heads = next(line for line in shown.stdout.splitlines() if line.startswith("#"))
    assert heads.split()[0] == "#"
    said = _help(language, "runs", "note")
    step = _option_help(said, "--step")
    text = next(line for line in said.splitlines() if line.lstrip().startswith("TEXT")).split(None, 1)[1]
    if language == "en":
        assert "the # column of `runs show`" in step
        assert text == "the note (it replaces the one there was; with --append it goes under it)"
    else:
        assert "die Spalte # von `runs show`" in step
        assert text == "die Notiz (sie ersetzt die bisherige; mit --append kommt sie darunter)"


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Ctrl-C (or SIGTERM) cancels the call at once: the request on the wire is torn down, the server is told "
           "where it can be, and the run is recorded as cancelled, not failed (exit status 130)."),
    ("de", "Strg+C (oder SIGTERM) bricht den Aufruf sofort ab: die Anfrage auf der Leitung wird abgebaut, der Server "
           "wird benachrichtigt, wo das möglich ist, und der Lauf wird als Abbruch erfasst, nicht als Fehlschlag "
           "(Exit-Status 130).")])
def test_call_help_says_that_ctrl_c_cancels_the_call(language, said) -> None:
    """Only the README said what Ctrl-C does to a call: a user who reads `call --help` learns it there, in their
    language (tests/integration/test_cli.py, test_ctrl_c_or_sigterm_cancels_in_flight_and_exits_130, holds the
    command to it)."""
    shown = _help(language, "call")
    assert said in " ".join(shown.split())
