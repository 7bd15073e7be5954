"""Standard output that cannot be written: a full disk (`> /dev/full`) is one sentence on stderr and
exit status 1, a closed standard output (`>&-`) is nobody reading; neither is an internal error with a
traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.sample_runs import mixed_database

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return mixed_database(tmp_path / "runs.db")


def _run(*args: str, stdout, language: str = "en", **popen) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    words = args if args == ("--version",) else ("--lang", language, *args)
    return subprocess.run([sys.executable, "-m", "inspector", *words], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=60, cwd=ROOT, **popen)


@pytest.mark.parametrize("words", [("runs", "list"), ("runs", "list", "--json"), ("runs", "show", "last"),
                                   ("runs", "show", "last", "--json")])
def test_a_full_disk_under_the_output_is_one_sentence_and_status_1(db: Path, words: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as full:
        done = _run(*words, "--db", str(db), stdout=full)
    assert done.returncode == 1, done.stderr
    assert done.stderr == ("run-inspector: the output could not be written (no space is left on the device); what "
                           "was written of it is incomplete.\n")


def test_the_sentence_is_german_in_german(db: Path) -> None:
    with open("/dev/full", "w") as full:
        done = _run("runs", "list", "--db", str(db), stdout=full, language="de")
    assert done.returncode == 1
    assert done.stderr.startswith("run-inspector: Die Ausgabe konnte nicht geschrieben werden (")


@pytest.mark.parametrize("words", [("runs", "list"), ("runs", "list", "--json"), ("runs", "show", "last", "--json"),
                                   ("--version",)])
def test_a_closed_output_is_nobody_reading(db: Path, words: tuple[str, ...]) -> None:
    done = _run(*words, "--db", str(db), stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1)) \
        if words != ("--version",) else _run(*words, stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
