"""The run a file of 25,000 runs shows first is found by the runs' ids and statuses alone: the records of
its 6,250 failed runs (0.3 s) were read while the window waited to show the file's runs."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from inspector.store import RunStore, run_store
from inspector.store.shown_first import shown_first, telling_runs
from tests.support.sample_runs import T0


def test_the_run_shown_first_is_found_without_reading_the_runs_records(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        with store.transaction():
            ids = [store.insert_run(f"run {n}", "imported", None, T0 + timedelta(minutes=n), None,
                                    "failed" if n % 4 == 1 else "cancelled" if n % 4 == 2 else "ok", None)
                   for n in range(5_000)]
        built: list[int] = []
        real = run_store._run
        monkeypatch.setattr(run_store, "_run", lambda row: built.append(row[0]) or real(row))  # the real one, counted
        newest_first = ids[::-1]
        assert telling_runs(store, newest_first) == ("failed", [run_id for run_id in newest_first
                                                               if (run_id - ids[0]) % 4 == 1])
        assert shown_first(store, newest_first) == [ids[4_997], *(run_id for run_id in newest_first
                                                                   if run_id != ids[4_997])]
        assert telling_runs(store, ids[2::4]) == ("cancelled", ids[2::4])
        assert built == []
