"""`receive --lock-wait SECONDS`: how long a write waits for another program's lock on the database
before its request is answered 503. Its default is the store's own wait; a wrong value is refused
before anything listens. (The wait itself, against a real lock:
tests/integration/test_receiver_503_stores_nothing.py.)"""

from __future__ import annotations

import pytest

from inspector.capture.receiver import ANSWER_WAIT_S, LOCK_WAIT_S, TraceReceiver
from inspector.cli.parser import build_parser
from tests.support.cli_process import cli_here


def test_the_default_is_as_long_as_a_request_waits_for_the_writer(tmp_path) -> None:
    """Not the store's own 10 s, the OpenTelemetry Python SDK exporter's whole deadline: a lock outlasting it lost
    the batch (tests/integration/test_receiver_outlasts_exporters.py); the window's receiver waits as long."""
    args = build_parser().parse_args(["receive"])
    assert float(args.lock_wait) == LOCK_WAIT_S == ANSWER_WAIT_S == TraceReceiver(tmp_path / "runs.db").lock_wait_s


@pytest.mark.parametrize("given", ["0", "-1", "3601", "soon", "nan"])
def test_a_wait_that_is_not_a_number_of_seconds_is_refused(tmp_path, given: str) -> None:
    done = cli_here("receive", "--port", "0", "--lock-wait", given, "--db", str(tmp_path / "runs.db"))
    assert done.returncode == 2 and done.stdout == ""
    assert f"--lock-wait must be a number of seconds above 0 and at most 3600 (got '{given}')." in done.stderr
    assert not (tmp_path / "runs.db").exists()
