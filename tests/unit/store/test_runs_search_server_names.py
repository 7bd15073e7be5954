"""The run list's search finds a run by its server's name as the list's Server column shows it: the name the user
gave the server ("weather"), and the window's demo entry by its name in the reader's language ("Demo-Server" in
German; stored "Demo server"). It looked at the runs' addresses alone: the name a row showed found no run, while
the empty list's hint said the search looks in the servers. A run imported with a loopback address (recorded on
another machine, shown by its address) is not found by the name of this machine's server there. A real SQLite
file."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.i18n.entry_names import DEMO_ENTRY_NAME
from inspector.store import RunStore, ServerRegistry
from inspector.store.browse import RunFilter, list_runs, run_ids
from tests.unit.store.test_browse import position

WEATHER, DEMO, UNNAMED = "http://weather.example:8000/mcp", "http://127.0.0.1:43210/mcp", "http://other.example/mcp"
RUNS = {"weather": (WEATHER, "live"), "weather_imported": (WEATHER, "imported"), "demo": (DEMO, "live"),
        "demo_imported": (DEMO, "imported"), "unnamed": (UNNAMED, "live")}


@pytest.fixture
def store(tmp_path: Path):
    with RunStore.open(tmp_path / "runs.db") as opened:
        registry = ServerRegistry(opened.db)
        registry.save_server(WEATHER, name="Weather")
        registry.save_server(DEMO, name=DEMO_ENTRY_NAME)
        opened.ids = {}
        for key, (server, source) in RUNS.items():
            opened.ids[key] = opened.start_run("tools/call lookup", source, server)
            opened.finish_run(opened.ids[key], "ok")
        yield opened


def _found(store: RunStore, text: str) -> set[str]:
    by_id = {run_id: key for key, run_id in store.ids.items()}
    found = {by_id[run.id] for run in list_runs(store, RunFilter(text=text))}
    assert found == {by_id[run_id] for run_id in run_ids(store, RunFilter(text=text))}
    assert all(position(store, store.ids[key], RunFilter(text=text)) is not None for key in found)
    return found


def test_a_servers_name_finds_its_runs(store: RunStore) -> None:
    assert _found(store, "weath") == {"weather", "weather_imported"}  # its address is no loopback one: both
    assert _found(store, "WEATHER") == {"weather", "weather_imported"}
    assert _found(store, "Demo server") == {"demo"}  # not the run recorded at 127.0.0.1 on another machine
    assert _found(store, "Demo-Server") == set()  # the German name, in English
    assert _found(store, "other.example") == {"unnamed"}  # the address, as before
    assert _found(store, "nowhere") == set()


def test_the_demo_entry_is_found_by_its_name_in_german(store: RunStore, german: None) -> None:
    assert _found(store, "Demo-Server") == {"demo"}
    assert _found(store, "Demo server") == set()  # shown as "Demo-Server": not a name the list shows


def test_a_servers_name_is_compared_as_every_other_text_is(tmp_path: Path) -> None:
    """The name is folded as the titles, notes and steps are (:func:`inspector.i18n.folding.fold`): "istanbul"
    found no run of the server named "İSTANBUL", nor "büro" one named "Bu" and a combining diaeresis "ro" (as macOS
    spells a file's name), while a run titled so was found."""
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)
        registry.save_server("http://tr.example/mcp", name="İSTANBUL")
        registry.save_server("http://de.example/mcp", name="Bu\u0308ro")
        turkish = store.start_run("tools/call lookup", "live", "http://tr.example/mcp")
        german = store.start_run("tools/call lookup", "live", "http://de.example/mcp")
        titled = store.start_run("İSTANBUL", "live", None)
        assert sorted(run_ids(store, RunFilter(text="istanbul"))) == [turkish, titled]
        assert run_ids(store, RunFilter(text="büro")) == [german]
