"""The run list's search finds a scenario run by its title as the reader sees it: a played scenario's title
is stored in English ("scenario happy-path") and shown in the reader's language ("Szenario happy-path"), so a
German reader's "Szenario" finds it (it found none); the stored words still find it, and an older version's
German title is found by the English words it is shown in. A run that is not a scenario's, and a title the
window shows as stored (a name with a space), are not found by words they do not show. A real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.i18n import set_language
from inspector.store import RunStore
from inspector.store.browse import RunFilter, list_runs, run_ids
from tests.unit.store.test_browse import position

TITLES = {
    "happy": ("scenario happy-path", "scenario"),
    "flaky_old": ("Szenario flaky-server", "scenario"),  # as an older version stored it in German
    "spaced": ("scenario my own run", "scenario"),  # no name the window says again: shown as stored
    "live": ("scenario happy-path", "live"),  # not a scenario's run: its title is shown as stored
    "echo": ("tools/call echo", "live"),
}


@pytest.fixture
def store(tmp_path: Path):
    with RunStore.open(tmp_path / "runs.db") as opened:
        ids = {}
        for key, (title, source) in TITLES.items():
            ids[key] = opened.start_run(title, source, "http://127.0.0.1:9/mcp")
            opened.finish_run(ids[key], "ok")
        opened.ids = ids
        yield opened


def _found(store: RunStore, text: str) -> set[str]:
    by_id = {run_id: key for key, run_id in store.ids.items()}
    found = {by_id[run.id] for run in list_runs(store, RunFilter(text=text))}
    assert found == {by_id[run_id] for run_id in run_ids(store, RunFilter(text=text))}
    return found


@pytest.mark.parametrize(("text", "found"), [
    ("Szenario", {"happy", "flaky_old"}),
    ("szenario HAPPY", {"happy"}),
    ("nario happy-path", {"happy", "live"}),  # also in the stored words
    ("Szenario flaky-server", {"flaky_old"}),
    ("Szenario happy-path", {"happy"}),
    ("scenario", {"happy", "spaced", "live"}),  # the stored words
    ("happy", {"happy", "live"}),
    ("Szenario my", set()),
])
def test_in_german_the_shown_titles_are_searched(store: RunStore, text: str, found: set[str]) -> None:
    set_language("de")
    assert _found(store, text) == found


@pytest.mark.parametrize(("text", "found"), [
    ("scenario", {"happy", "flaky_old", "spaced", "live"}),
    ("scenario flaky", {"flaky_old"}),
    ("Szenario", {"flaky_old"}),  # its stored words
    ("echo", {"echo"}),
])
def test_in_english_an_older_german_title_is_found_by_its_english_words(store: RunStore, text: str,
                                                                        found: set[str]) -> None:
    assert _found(store, text) == found


def test_a_run_found_by_its_shown_title_has_its_place_in_the_list(store: RunStore) -> None:
    set_language("de")
    where = RunFilter(text="Szenario")
    assert position(store, store.ids["flaky_old"], where) == 0  # the newest of those found
    assert position(store, store.ids["happy"], where) == 1
    assert position(store, store.ids["echo"], where) is None


@pytest.mark.parametrize(("language", "text", "found"), [
    ("de", "SZENAR\u0130O", {"happy", "flaky_old"}),  # a dotted capital I (a Turkish keyboard's): "i", as typed
    ("de", "SZENAR\u0130O HAPPY", {"happy"}),
    ("en", "SCENAR\u0130O FLAKY", {"flaky_old"}),
])
def test_a_shown_title_is_found_by_the_needle_folded_as_the_stored_titles_are(store: RunStore, language: str,
                                                                              text: str, found: set[str]) -> None:
    """The stored titles are searched with the needle folded as Find and the search fold it ("İ" an "i"); the
    shown ones compared it case-folded alone ("İ" an "i" and a dot above): in German "SZENARİO" found the older
    German title as stored, not "Szenario happy-path" as shown, while in English "SCENARİO" found every title."""
    set_language(language)
    assert _found(store, text) == found
