"""Fixtures shared by the trace tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_trace_support import fill, settle

from inspector.store import RunStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    """A database holding runs already (fill), settled: what an import must leave as it found it."""
    opened = RunStore.open(tmp_path / "runs.db")
    fill(opened)
    settle(opened)
    yield opened
    opened.close()


@pytest.fixture
def empty_store(tmp_path: Path) -> Iterator[RunStore]:
    """A database with no run: an import's runs are all there is."""
    opened = RunStore.open(tmp_path / "empty.db")
    yield opened
    opened.close()
