"""A Ctrl-C while the command line loads ends as a cancel (exit 130, one JSON object with --json),
also when Python hands it over wrapped: 3.11 wraps what a descriptor's ``__set_name__`` raises
while a class is made, so a Ctrl-C landing while a dataclass of ours loads arrives as a
RuntimeError (seen once in the early Ctrl-C test on a loaded machine)."""

from __future__ import annotations

import dataclasses
import json
import signal

import pytest

from inspector import cli
from inspector.cli import app


def _interrupt_while_a_dataclass_is_made(_argv):
    class Interrupting:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    @dataclasses.dataclass
    class Loading:
        mark: object = Interrupting()

    return 0


@pytest.fixture
def sigint_restored(monkeypatch):
    """SIGINT's handler as it was after (a cancel ignores a second Ctrl-C), and this process's "one
    JSON object printed" mark as it was."""
    from inspector.cli import ending

    monkeypatch.setattr(ending, "_json_emitted", False)
    before = signal.getsignal(signal.SIGINT)
    yield
    signal.signal(signal.SIGINT, before)


def test_a_ctrl_c_wrapped_while_a_class_is_made_ends_as_a_cancel(monkeypatch, capsys, sigint_restored) -> None:
    monkeypatch.setattr(app, "run_command", _interrupt_while_a_dataclass_is_made)
    with pytest.raises(RuntimeError) as caught:  # what Python 3.11 hands over
        _interrupt_while_a_dataclass_is_made([])
    assert isinstance(caught.value.__cause__, KeyboardInterrupt)
    assert cli.main(["call", "http://127.0.0.1:9/mcp", "echo", "--json"]) == 130
    document = json.loads(capsys.readouterr().out)
    assert document["error"]["kind"] == "cancelled"


def test_another_runtime_error_is_not_taken_for_a_cancel(monkeypatch, sigint_restored) -> None:
    def broken(_argv):
        raise RuntimeError("a real bug")

    monkeypatch.setattr(app, "run_command", broken)
    with pytest.raises(RuntimeError, match="a real bug"):
        cli.main(["runs", "list"])
