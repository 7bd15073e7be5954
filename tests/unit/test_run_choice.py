"""A run named on the command line (inspector/cli/run_choice.py), in a real SQLite file: an id,
last, last~N, or the beginning of its uid, even one of digits only."""

from __future__ import annotations

import pytest

from inspector.cli.common import BadInputError
from inspector.cli.run_choice import resolve_run
from inspector.store import RunStore


@pytest.fixture
def store(tmp_path):
    with RunStore.open(tmp_path / "runs.db") as store:
        for uid in ("12345678" + "a" * 24, "abcd" + "1" * 28, "abce" + "2" * 28):
            store.start_run("a run", "live", "http://x/mcp", uid=uid)
        yield store


@pytest.mark.parametrize(("given", "run_id"), [("1", 1), (" 3 ", 3), ("last", 3), ("last~2", 1),
                                                ("12345678", 1), ("1234", 1), ("abcd", 2), ("abce2", 3)])
def test_a_run_is_found(store, given: str, run_id: int) -> None:
    assert resolve_run(store, given).id == run_id


@pytest.mark.parametrize(("given", "words"), [
    ("4", "There is no run 4."), ("0", "There is no run 0."), ("99999999999999999999", "There is no run 9999"),
    ("last~3", "holds fewer runs"), ("abc", "abc names no run"), ("abc", "at least 4 characters"),
    ("ffff", "No run has an id or a uid beginning ffff"), ("4321", "There is no run 4321."),
])
def test_what_names_no_run_is_said(store, given: str, words: str) -> None:
    with pytest.raises(BadInputError) as raised:
        resolve_run(store, given)
    assert words in str(raised.value)


def test_a_beginning_several_uids_share_is_refused(store) -> None:
    store.start_run("another", "live", "http://x/mcp", uid="abcd" + "9" * 28)
    with pytest.raises(BadInputError) as raised:
        resolve_run(store, "abcd")
    assert "Several runs have a uid beginning abcd (runs 2, 4, …)" in str(raised.value)
