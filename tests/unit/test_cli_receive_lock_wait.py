"""`receive --lock-wait SECONDS`: how long a write waits for another program's lock on the database
before its request is answered 503. Its default is the store's own wait; a wrong value is refused
before anything listens. (The wait itself, against a real lock:
tests/integration/test_receiver_503_stores_nothing.py.)"""

from __future__ import annotations

import pytest

from inspector.cli.parser import build_parser
from inspector.store.database import LOCK_WAIT_S
from tests.support.cli_process import cli_here


def test_the_default_is_the_stores_own_wait() -> None:
    args = build_parser().parse_args(["receive"])
    assert float(args.lock_wait) == LOCK_WAIT_S


@pytest.mark.parametrize("given", ["0", "-1", "3601", "soon", "nan"])
def test_a_wait_that_is_not_a_number_of_seconds_is_refused(tmp_path, given: str) -> None:
    done = cli_here("receive", "--port", "0", "--lock-wait", given, "--db", str(tmp_path / "runs.db"))
    assert done.returncode == 2 and done.stdout == ""
    assert f"--lock-wait must be a number of seconds above 0 and at most 3600 (got '{given}')." in done.stderr
    assert not (tmp_path / "runs.db").exists()
