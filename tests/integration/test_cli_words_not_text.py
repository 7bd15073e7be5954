"""A word of the command line that is not text (UTF-8 read under LANG=C with Python's UTF-8 mode off,
or bytes that are not UTF-8) reaching the run database: one sentence saying what to change and exit
status 2, not an internal error with a traceback; nothing is written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.cli_process import cli
from tests.support.sample_runs import mixed_database

ROOT = Path(__file__).resolve().parents[2]
#: The C locale as Python reads it when told not to make it UTF-8: command-line bytes beyond ASCII
#: arrive as lone surrogates.
C_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}


def _run(*words: str, language: str = "en") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **C_LOCALE}
    env.pop("LANGUAGE", None)
    done = subprocess.run([sys.executable, "-m", "inspector", "--lang", language, *words], capture_output=True,
                          env=env, timeout=60, cwd=ROOT)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8"),
                                       done.stderr.decode("ascii", "backslashreplace"))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return mixed_database(tmp_path / "runs.db")


@pytest.mark.parametrize("words", [("runs", "note", "last", "Grüße"),
                                   ("servers", "set", "http://127.0.0.1:9/mcp", "--name", "Démo")])
def test_a_word_that_is_not_text_here_is_one_sentence_and_status_2(db: Path, words: tuple[str, ...]) -> None:
    done = _run(*words, "--json", "--db", str(db))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["kind"] == "bad_input"
    assert error["message"].startswith("A word of the command line is not text here")
    assert "LANG=C.UTF-8" in done.stderr
    with RunStore.open(db) as store:
        assert store.list_runs()[0].note == ""
    assert json.loads(cli("servers", "--json", "--db", str(db)).stdout)["servers"] == []


def test_it_is_said_in_german_too(db: Path) -> None:
    done = _run("runs", "note", "last", "Grüße", "--db", str(db), language="de")
    assert done.returncode == 2
    assert done.stderr.startswith("run-inspector: Ein Wort der Befehlszeile ist hier kein Text")
