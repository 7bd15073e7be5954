"""A reader that goes away (``run-inspector call … | head -c 10``), through a real pipe of a process of
its own: nothing is said about it on stderr, and the status stays honest for ``set -o pipefail``: a
command whose outcome was decided ends with that outcome's (a failed call 1, never 0), one whose output
was its work ends as cat does, 141."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from inspector.demo import DemoOptions, DemoServer
from tests.support.cli_process import ROOT


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    server = DemoServer(DemoOptions())
    try:
        yield server.start()
    finally:
        server.stop()


def without_reader(*args: str) -> subprocess.CompletedProcess[str]:
    """``run-inspector ARGS`` writing into a pipe whose reader has gone before anything is written."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "inspector", *args], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, timeout=60, cwd=ROOT)
    finally:
        os.close(write_end)


def test_a_failed_call_whose_reader_went_away_ends_failed_and_says_nothing_of_the_pipe(demo_url: str) -> None:
    done = without_reader("call", demo_url, "fail", "--args", "{}")
    assert (done.returncode, done.stderr) == (1, "")


def test_a_call_that_worked_ends_ok_though_its_reader_went_away(demo_url: str) -> None:
    done = without_reader("call", demo_url, "echo", "--args", '{"text": "hi"}')
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("words", [("runs", "list"), ("runs", "show", "1"), ("runs", "show", "1", "--json")])
def test_a_listing_cut_short_by_its_reader_ends_as_cat_does(demo_url: str, words: tuple[str, ...]) -> None:
    assert subprocess.run([sys.executable, "-m", "inspector", "call", demo_url, "echo", "--args", '{"text": "x"}'],
                          capture_output=True, timeout=60, cwd=ROOT).returncode == 0
    done = without_reader(*words)
    assert (done.returncode, done.stderr) == (141, "")


def test_a_pipefail_script_sees_the_failed_call_through_head(demo_url: str) -> None:
    script = f'set -o pipefail; "{sys.executable}" -m inspector call {demo_url} fail --args "{{}}" | head -c 10'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 1, done
    assert len(done.stdout) == 10 and done.stderr == ""


def test_a_failed_scenario_whose_reader_went_away_ends_failed() -> None:
    done = without_reader("scenario", "flaky-server")
    assert (done.returncode, done.stderr) == (1, "")
