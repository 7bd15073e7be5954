"""Standard output that takes only part of a write (a disk filling up while the output is written, a file
size limit): the command writes on, so the reason it cannot is said on stderr with status 1, buffered or
not. Unbuffered (``PYTHONUNBUFFERED=1``), Python's text layer took no notice of a short write: the output
ended cut short and the command ended with status 0.

The short write is a real one: the command's file size limit (``RLIMIT_FSIZE``, SIGXFSZ ignored) lets the
write that crosses it reach it and refuses the next with EFBIG, as a full disk does with ENOSPC. The output
file holds all but ``ROOM`` bytes of the limit already (appended to), as a disk nearly full would; the limit
is large enough for the database's own files."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.sample_runs import mixed_database

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 1 << 20
ROOM = 100  # bytes: less than any of the outputs below, each of which some single write crosses


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return mixed_database(tmp_path_factory.mktemp("cut") / "runs.db")


def _limited() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write past the limit fails with EFBIG, not the process
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _env(unbuffered: bool) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    return {**env, "PYTHONUNBUFFERED": "1"} if unbuffered else env


def _run_into(out: Path, words: tuple[str, ...], unbuffered: bool, language: str = "en",
              ) -> subprocess.CompletedProcess[str]:
    out.write_bytes(b"." * (LIMIT - ROOM))
    with out.open("ab") as file:
        return subprocess.run([sys.executable, "-m", "inspector", "--lang", language, *words], stdout=file,
                              stderr=subprocess.PIPE, text=True, timeout=60, cwd=ROOT, env=_env(unbuffered),
                              preexec_fn=_limited)


@pytest.mark.parametrize("unbuffered", [True, False], ids=["unbuffered", "buffered"])
@pytest.mark.parametrize("words", [("runs", "list", "--json"), ("runs", "list"), ("runs", "show", "last", "--json"),
                                   ("runs", "show", "last")])
def test_an_output_cut_short_is_said_with_status_1(tmp_path: Path, db: Path, words: tuple[str, ...],
                                                    unbuffered: bool) -> None:
    out = tmp_path / "out.txt"
    done = _run_into(out, (*words, "--db", str(db)), unbuffered)
    assert out.stat().st_size == LIMIT  # the output was cut short: written up to the limit, and no further
    assert done.returncode == 1, done.stderr
    assert done.stderr == ("run-inspector: the output could not be written (the file is too large for its file "
                           "system or for the limits of this process); what was written of it is incomplete.\n")


def test_the_reason_is_german_in_german(tmp_path: Path, db: Path) -> None:
    done = _run_into(tmp_path / "out.txt", ("runs", "list", "--json", "--db", str(db)), unbuffered=True,
                     language="de")
    assert done.returncode == 1
    assert done.stderr.startswith("run-inspector: Die Ausgabe konnte nicht geschrieben werden (die Datei ist zu groß")


def test_an_output_within_the_limit_is_whole_and_status_0(tmp_path: Path, db: Path) -> None:
    out = tmp_path / "out.txt"
    done = _run_into(out, ("servers", "--json", "--db", str(db)), unbuffered=True)
    assert (done.returncode, done.stderr) == (0, "")
    assert out.read_text(encoding="utf-8")[LIMIT - ROOM:] == '{"servers": []}\n'


@pytest.mark.parametrize("unbuffered", [True, False], ids=["unbuffered", "buffered"])
def test_a_reader_gone_is_still_status_141(db: Path, unbuffered: bool) -> None:
    reading, writing = os.pipe()
    os.close(reading)  # the reader has gone before the first write (`| head -c 0`)
    try:
        done = subprocess.run([sys.executable, "-m", "inspector", "runs", "show", "last", "--json", "--db", str(db)],
                              stdout=writing, stderr=subprocess.PIPE, text=True, timeout=60, cwd=ROOT,
                              env=_env(unbuffered))
    finally:
        os.close(writing)
    assert (done.returncode, done.stderr) == (141, "")
