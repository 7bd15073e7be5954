"""The Runs search (and ``runs list --search``) finds a text in a run's title, server, file and notes, and in
its steps' notes, in any case, as Find finds it in the steps: LIKE folds ASCII letters alone, so "ärger"
did not find the run titled "Ärger im Büro", nor "strasse" the note "Straße", while a step holding them was
found. Accents are compared composed or not, and the dotted capital I as an i, in the search and in Find.
A real database."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.runs import RunStep, StepKind
from inspector.store import RunStore
from inspector.store.browse import RunFilter, find_in_timeline, listed_ids
from inspector.store.notes import write_run_note, write_step_note
from tests.support.sample_runs import mixed_run

DECOMPOSED_ARGER = "A\u0308rger im Bu\u0308ro"  # "Ärger im Büro" as macOS spells a file's name
PRECOMPOSED_CAFE = "Caf\u00e9 Olé"


@pytest.fixture
def store(tmp_path: Path):
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def _found(store: RunStore, text: str) -> list[int]:
    return listed_ids(store, RunFilter(text=text))


def test_a_title_server_or_note_is_found_in_any_case(store: RunStore) -> None:
    titled = store.start_run("Ärger im Büro", "live", None)
    served = store.start_run("served", "live", "https://ÜBERSICHT.example/mcp")
    noted = store.start_run("noted", "live", None)
    write_run_note(store, noted, "Die STRASSE war gesperrt")
    sharp = store.start_run("sharp", "live", None)
    write_run_note(store, sharp, "Hauptstraße 5")
    step_noted = mixed_run(store, "step noted")
    step = store.db.conn.execute("SELECT id FROM steps WHERE run_id = ? ORDER BY id LIMIT 1",
                                 (step_noted,)).fetchone()[0]
    write_step_note(store, step, "Rückfrage an ÖZGÜR")
    store.start_run("other", "live", None)
    assert _found(store, "ärger") == _found(store, "ÄRGER") == [titled]
    assert _found(store, "übersicht") == [served]
    assert _found(store, "straße") == _found(store, "strasse") == _found(store, "STRASSE") == [sharp, noted]
    assert _found(store, "özgür") == [step_noted]
    # As before: LIKE's wildcards and its escape typed are the characters themselves.
    percent = store.start_run("100% ä_b", "live", None)
    assert _found(store, "% Ä_") == [percent] and _found(store, "ä%b") == []


def test_a_text_of_ascii_letters_alone_is_not_folded_in_python(store: RunStore, monkeypatch) -> None:
    """LIKE folds an ASCII text in C; Python folds only a text that may hold the needle otherwise (a list of
    25,000 ASCII titles searched for "ärger" took 20 ms, and 160 ms with a Python call for each)."""
    from inspector.store import find_text

    folded: list[object] = []
    real = find_text._fold  # noqa: SLF001

    def counted(value: object) -> object:
        folded.append(value)
        return real(value)

    monkeypatch.setattr(find_text, "_fold", counted)
    with store.transaction():
        for number in range(200):
            store.insert_run(f"run {number}", "imported", "http://127.0.0.1:9/mcp", None, None, "ok", None)
    umlaut = store.start_run("Ärger", "live", None)
    sharp = store.start_run("Straße", "live", None)
    assert _found(store, "ärger") == [umlaut] and _found(store, "STRASSE") == [sharp]
    assert set(folded) <= {"Ärger", "Straße"}, folded[:5]


def test_the_search_finds_accents_composed_or_not_and_a_dotted_capital_i(store: RunStore) -> None:
    """An accent typed precomposed ("ä", as a keyboard gives it) finds it stored decomposed ("a" and a combining
    diaeresis), and the other way round; "istanbul" finds "İSTANBUL" (``casefold`` makes "İ" an "i" and a combining
    dot). Each found nothing."""
    decomposed = store.start_run(DECOMPOSED_ARGER, "live", None)
    precomposed = store.start_run(PRECOMPOSED_CAFE, "live", None)
    dotted = store.start_run("Flug nach İSTANBUL", "live", None)
    plain = store.start_run("istanbul by night", "live", None)
    store.start_run("other", "live", None)
    assert _found(store, "ärger") == _found(store, "BÜRO") == [decomposed]
    assert _found(store, "cafe\u0301") == _found(store, "OLE\u0301") == [precomposed]
    assert _found(store, "istanbul") == _found(store, "Istanbul") == _found(store, "İstanbul") == [plain, dotted]


def test_find_in_a_run_finds_accents_composed_or_not_and_a_dotted_capital_i(store: RunStore) -> None:
    run_id = store.start_run("steps", "live", None)
    for text in (DECOMPOSED_ARGER, PRECOMPOSED_CAFE, "İSTANBUL", "plain"):
        store.append_step(run_id, RunStep(kind=StepKind.LLM, round=0, duration_ms=1.0, content=text))
    assert find_in_timeline(store, run_id, "ärger") == find_in_timeline(store, run_id, "büro") == [0]
    assert find_in_timeline(store, run_id, "cafe\u0301") == [1]
    assert find_in_timeline(store, run_id, "istanbul") == find_in_timeline(store, run_id, "İstanbul") == [2]


#: Texts holding characters whose fold is (partly) ASCII, and an ASCII text each is found by.
FOLDED_TO_ASCII = (("the \ufb01le was read", "FILE"), ("\ufb02ow", "flow"), ("\ufb06op", "stop"),
                   ("300 \u212a hot", "k hot"), ("po\u017ft", "post"), ("Stra\u00dfe", "se"), ("\u0149o", "no"),
                   ("x\ufb01", "xf"))


@pytest.mark.parametrize(("stored", "typed"), FOLDED_TO_ASCII)
def test_an_ascii_text_is_found_where_the_fold_makes_it(store: RunStore, stored: str, typed: str) -> None:
    """A ligature from a PDF's text ("ﬁle"), the Kelvin sign, the long s: :func:`~inspector.i18n.folding.fold` makes
    them ASCII letters, so the window's Find found "file" in the words it shows, while the search and Find's SQL,
    which folded only ß and İ so, found nothing."""
    titled = store.start_run(stored, "live", None)
    stepped = store.start_run("steps", "live", None)
    store.append_step(stepped, RunStep(kind=StepKind.LLM, round=0, duration_ms=1.0, content=stored))
    store.start_run("other", "live", None)
    assert sorted(_found(store, typed)) == [titled, stepped]
    assert find_in_timeline(store, stepped, typed) == [0]


def test_every_character_folded_to_ascii_is_looked_for() -> None:
    """The characters an ASCII text is also looked for in (:data:`~inspector.store.find_text._FOLDED_TO_ASCII`) are
    every character of Unicode whose fold holds an ASCII one."""
    from inspector.i18n.folding import fold
    from inspector.store.find_text import _FOLDED_TO_ASCII  # noqa: PLC2701

    folded = {chr(code) for code in range(0x80, 0x110000)
              if 0xD800 > code or code > 0xDFFF if any(letter.isascii() for letter in fold(chr(code)))}
    assert folded == set(_FOLDED_TO_ASCII)
