"""The README's first command, `make run`, on a checkout without .venv: pip installs quietly, and the first
run said nothing for the minutes it took to download the dependencies (5 min here), after a pip command line
that looked finished. It says first what it is doing and that it takes a few minutes; so does `make test`.
Make's dry run (-n) prints the recipes it would run, in order, without running them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("target", "install"), [("run", "install --quiet -e ."),
                                                 ("test", "install --quiet -e '.[test]'")])
def test_a_first_make_says_before_the_quiet_install_that_it_takes_minutes(tmp_path, target, install) -> None:
    if shutil.which("make") is None:
        pytest.fail("make is needed: the README's two commands are make targets")
    done = subprocess.run(["make", "--no-print-directory", "-n", target, f"VENV={tmp_path / '.venv'}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    installing = next(index for index, line in enumerate(lines) if install in line)
    said = [line for line in lines[:installing] if line.startswith("echo ")]
    assert said and "the first time takes a few minutes" in said[-1] and str(tmp_path / ".venv") in said[-1]
