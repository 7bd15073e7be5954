"""A call that ran out of its budget says, on the command line, how to give it more time: the error's sentence
(the engine's, the window's too) says only that the budget "is a setting you can raise", and a support engineer
new to the command looked for the setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

HINTS = {"en": "To give it more time: --budget SECONDS (this operation had {budget} s), or for every operation on a "
               "configured server `run-inspector servers set SERVER --budget SECONDS`.",
         "de": "Mehr Zeit geben: --budget SEKUNDEN (dieser Vorgang hatte {budget} s) oder, für jeden Vorgang mit "
               "einem eingerichteten Server, `run-inspector servers set SERVER --budget SEKUNDEN`."}


@pytest.mark.parametrize(("language", "budget"), [("en", "1.5"), ("de", "1,5")])
def test_a_timed_out_call_names_the_option_that_gives_it_more_time(demo_server, tmp_path: Path, language: str,
                                                                   budget: str) -> None:
    db = str(tmp_path / "runs.db")
    done = cli_here("--db", db, "--lang", language, "call", demo_server.url, "hang", "--budget", "1.5")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    error = next(index for index, line in enumerate(lines)
                 if line.startswith(("Error (timed out): ", "Fehler (Zeitüberschreitung): ")))
    assert lines[error + 1] == HINTS[language].format(budget=budget)
    # A tool's own error is no matter of time: no hint.
    failed = cli_here("--db", db, "--lang", language, "call", demo_server.url, "fail", "--budget", "1.5")
    assert failed.returncode == 1 and "--budget" not in failed.stdout


def test_a_configured_servers_budget_is_the_one_said(demo_server, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    configured = cli_here("--db", db, "servers", "set", demo_server.url, "--name", "slowpoke", "--budget", "1")
    assert configured.returncode == 0
    done = cli_here("--db", db, "call", "slowpoke", "hang")
    assert done.returncode == 1 and HINTS["en"].format(budget="1") in done.stdout.splitlines()
