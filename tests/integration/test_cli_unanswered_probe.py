"""A `server/discover` probe a command server never answers, on the command line: after a while the
silence is taken for the handshake era and the operation goes on. `call` and `runs show` say what
the silence found, in English and German, instead of a bare "failed" inside an operation that ended
ok; the stored outcomes stay as they were (the leg `failed`, the operation `ok`), in `--json` too.

A real process: tests/support/stdio_limits.py in its mode `silent-probe`."""

from __future__ import annotations

import json
import shlex
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.support.cli_process import cli, main_output, probe_line

ROOT = Path(__file__).resolve().parents[2]
COMMAND = f"{shlex.quote(sys.executable)} -m tests.support.stdio_limits silent-probe"
EN = "no answer: taken for the handshake era"
DE = "keine Antwort: als Handshake-Ära angenommen"


def _arguments(db: Path, *extra: str) -> list[str]:
    # A budget of 4 s: the probe waits half of it (2 s) for an answer.
    return [*extra, "--db", str(db), "call", "--stdio", COMMAND, "--cwd", str(ROOT), "echo", "--args",
            '{"text": "hi"}', "--era", "auto", "--budget", "4"]


def _called(db: Path, *extra: str) -> str:
    """The call in a process of its own: its stdout."""
    done = cli(*_arguments(db, *extra))
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_probe_a_command_server_never_answers_is_said_as_its_finding_and_stays_failed(tmp_path: Path,
                                                                                         capsys) -> None:
    # Three calls, each waiting out the probe's silence, side by side: two in processes of their own
    # while this process makes the first.
    with ThreadPoolExecutor(2) as beside:
        german = beside.submit(_called, tmp_path / "de.db", "--lang", "de")
        as_json = beside.submit(_called, tmp_path / "json.db", "--json")
        called = main_output(capsys, *_arguments(tmp_path / "en.db"))
        assert probe_line(called).endswith(f"  {EN}"), called
        assert ": ok (budget 4 s)" in called.splitlines()[0]
        assert probe_line(german.result()).endswith(f"  {DE}")
        report = json.loads(as_json.result())
    assert report["outcome"] == "ok"
    assert [(leg["method"], leg["outcome"]) for leg in report["legs"]][1:3] == [("server/discover", "failed"),
                                                                              ("initialize", "ok")]
    # What the JSON legs found, as the readable lines say it (docs/cli-json.md: a leg's ``finding``).
    assert [leg["finding"] for leg in report["legs"]][1:3] == ["era_probe_unanswered", None]
    stored = json.loads(main_output(capsys, "--db", str(tmp_path / "json.db"), "runs", "show", "1", "--json"))
    assert [leg["finding"] for leg in stored["timeline"][0]["payload"]["legs"]][1:3] == ["era_probe_unanswered", None]
    shown = main_output(capsys, "--db", str(tmp_path / "en.db"), "runs", "show", "1")
    assert probe_line(shown).endswith(f"  {EN}"), shown
    assert "status ok" in shown
    shown_de = main_output(capsys, "--lang", "de", "--db", str(tmp_path / "en.db"), "runs", "show", "1")
    assert probe_line(shown_de).endswith(f"  {DE}")


def test_a_probe_that_ended_its_operation_is_still_failed(tmp_path: Path, capsys) -> None:
    # The last leg of its step (a process that exited during the probe, a budget spent): no finding.
    from inspector.i18n.words import leg_outcome_word

    assert leg_outcome_word("failed", "server/discover", None, None, None) == "failed"
    assert leg_outcome_word("failed", "server/discover", None, {"request": {}}, "initialize") == EN
    # An answer it failed on (kept) is not silence.
    assert leg_outcome_word("failed", "server/discover", None, {"request": {}, "answer": {"body": "x"}},
                            "initialize") == "failed"
