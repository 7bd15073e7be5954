"""The Runs search finds a run by its steps' text as Find sees it (:func:`inspector.store.find_text.steps_holding`),
reading first the stored JSON text with ``LIKE`` (no copy, no parse) where a text a step holds must be
written there as typed: the steps that pass over are those Find would pass over too. On the real traces of
the fixtures, imported by the real importer, into a real database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.browse import RunFilter, find_step_ids, listed_ids
from inspector.store.find_text import find_condition
from inspector.transfer.importing import import_trace

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"
NEEDLES = ("TimeoutError", "timeouterror", "deadline exceeded", "STAGING", "mcp.protocol.version", "tool_error",
           "failed", "timed out", "not recorded", "get_weather", "Weather", "50%", "a_b", "tools/call", "%", "_",
           '"city"', "strasse", "Österreich", "{", "error.type", "exception")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunStore]:
    opened = RunStore.open(tmp_path_factory.mktemp("search") / "runs.db")
    for trace in sorted(FIXTURES.glob("*.jsonl")):
        import_trace(opened, trace)
    yield opened
    opened.close()


def _matched(store: RunStore, needle: str, raw: str | None) -> set[int]:
    condition, values = find_condition(store.db.conn, needle, step="found", raw=raw)
    return {row[0] for row in store.db.conn.execute(
        "SELECT id FROM (SELECT id, kind, outcome, payload, CASE WHEN json_valid(payload) THEN payload ELSE '{}'"
        f" END AS p FROM steps) AS found WHERE {condition}", values)}


@pytest.mark.parametrize("needle", NEEDLES)
def test_the_stored_text_read_first_passes_over_no_step_find_finds(store: RunStore, needle: str) -> None:
    assert _matched(store, needle, "found.payload") == _matched(store, needle, None)


@pytest.mark.parametrize("needle", NEEDLES)
def test_every_run_with_a_step_find_finds_is_listed(store: RunStore, needle: str) -> None:
    listed = set(listed_ids(store, RunFilter(text=needle)))
    runs = [row[0] for row in store.db.conn.execute("SELECT id FROM runs")]
    assert {run_id for run_id in runs if find_step_ids(store, run_id, needle)} <= listed


def test_a_run_is_listed_by_its_steps_alone(store: RunStore) -> None:
    """ "TimeoutError" is in no title, server, file or note: the runs listed are those whose steps hold it."""
    found = set(listed_ids(store, RunFilter(text="TimeoutError")))
    runs = [row[0] for row in store.db.conn.execute("SELECT id FROM runs")]
    assert found and found == {run_id for run_id in runs if find_step_ids(store, run_id, "TimeoutError")}
    assert set(listed_ids(store, RunFilter(text="timeouterror", statuses=("ok",)))) <= found
