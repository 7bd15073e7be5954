"""A second export after a note was written: importing it adds the note to the run that is here already.

A developer exports runs, a support engineer imports them; the developer writes a note (on a run, on a
step) and exports again. The engineer's second import adds the notes the stored runs lack, says so,
and changes nothing else; a note the engineer has is kept. Real files of the real exporter, both
formats, real SQLite stores, the command line as a user runs it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from test_trace_support import fill, snapshot

from inspector.store import RunStore
from inspector.store.notes import step_id_of, step_note, write_run_note, write_step_note
from inspector.transfer import importing
from inspector.transfer.exporting import export
from inspector.transfer.importing import TraceImportError, import_trace
from tests.support.cli_process import cli_here

FORMATS = ["trace", "otlp"]


class Pair:
    """The developer's store (three runs), the engineer's (its first export imported), and files."""

    def __init__(self, folder: Path, file_format: str) -> None:
        self.folder, self.format = folder, file_format
        self.dev = RunStore.open(folder / "dev.db")
        self.ids = fill(self.dev)
        self.eng_db = folder / "eng.db"
        first = self.export("first.json")
        assert cli_here("import", str(first), "--db", str(self.eng_db)).returncode == 0
        self.eng = RunStore.open(self.eng_db)
        self.uid = self.dev.get_run(self.ids[0]).uid

    def export(self, name: str) -> Path:
        path = self.folder / name
        export(self.dev, None, None, path, format=self.format)
        return path

    def eng_run(self):  # type: ignore[no-untyped-def]
        return self.eng.find_run_by_uid(self.uid)

    def close(self) -> None:
        self.dev.close()
        self.eng.close()


@pytest.fixture(params=FORMATS)
def pair(tmp_path: Path, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    made = Pair(tmp_path, request.param)
    yield made
    made.close()


def _import(pair: Pair, path: Path, *options: str):  # type: ignore[no-untyped-def]
    done = cli_here("import", str(path), "--db", str(pair.eng_db), *options)
    assert done.returncode == 0, done.stderr
    return done


def test_a_note_written_after_the_first_export_is_added_shown_and_said(pair: Pair) -> None:
    write_run_note(pair.dev, pair.ids[0], "Reproduced: the server drops the session after 30 s.")
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[0], 3), "this is where it breaks")
    before = snapshot(pair.eng)
    second = pair.export("second.json")

    said = _import(pair, second).stdout
    run = pair.eng_run()

    assert said == (f"The runs of {second} are here already: runs 1, 2, 3. "
                    f"2 notes of the file were added to run {run.id}.\n")
    assert run.note == "Reproduced: the server drops the session after 30 s."
    assert step_note(pair.eng, step_id_of(pair.eng, run.id, 3)) == "this is where it breaks"
    shown = cli_here("runs", "show", str(run.id), "--db", str(pair.eng_db)).stdout
    assert "  note: Reproduced: the server drops the session after 30 s." in shown
    assert "    note: this is where it breaks" in shown
    # Nothing else of the stored runs changed: the steps are as they were but for the step's note.
    after = snapshot(pair.eng)
    noted = after[[r["uid"] for r in after].index(pair.uid)]["steps"][2][3]
    assert noted.pop("note") == "this is where it breaks"
    assert after == before
    assert [r.id for r in pair.eng.list_runs(limit=None)] == [3, 2, 1] and run.source == "imported"


def test_the_same_file_a_third_time_adds_nothing_and_says_so(pair: Pair) -> None:
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[0], 2), "look here")
    second = pair.export("second.json")
    _import(pair, second)

    again = _import(pair, second).stdout
    as_json = json.loads(_import(pair, second, "--json").stdout)

    assert again == (f"The runs of {second} are here already (nothing was imported): runs 1, 2, 3. "
                     "Its note is here already: no note was added.\n")
    assert as_json["notes_added"] == 0 and as_json["notes_kept"] == 0 and as_json["runs_imported"] == 0
    run = pair.eng_run()
    assert step_note(pair.eng, step_id_of(pair.eng, run.id, 2)) == "look here"
    assert json.loads(pair.eng.db.execute("SELECT payload FROM steps WHERE run_id = ? AND sequence = 2",
                                          (run.id,)).fetchone()[0])["note"] == "look here"  # once, not twice


def test_the_note_added_is_said_in_german_and_counted_in_json(pair: Pair) -> None:
    write_run_note(pair.dev, pair.ids[1], "Bitte ansehen")
    second = pair.export("second.json")

    said = _import(pair, second, "--lang", "de").stdout
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[1], 1), "zweite Notiz")
    as_json = json.loads(_import(pair, pair.export("third.json"), "--json").stdout)

    run = pair.eng.find_run_by_uid(pair.dev.get_run(pair.ids[1]).uid)
    assert said == (f"Die Läufe aus {second} sind schon hier: Läufe 1, 2, 3. "
                    f"1 Notiz der Datei wurde Lauf {run.id} hinzugefügt.\n")
    assert as_json["notes_added"] == 1 and as_json["notes_kept"] == 0 and as_json["runs_already_present"] == 3


def test_a_note_the_engineer_edited_is_kept(pair: Pair) -> None:
    write_run_note(pair.dev, pair.ids[0], "first finding")
    _import(pair, pair.export("second.json"))
    run = pair.eng_run()
    write_run_note(pair.eng, run.id, "first finding, checked by support: also on 1.4")
    write_step_note(pair.eng, step_id_of(pair.eng, run.id, 1), "support's own note")
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[0], 1), "the developer's note on step 1")
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[0], 4), "the developer's note on step 4")
    third = pair.export("third.json")

    said = _import(pair, third).stdout

    assert said == (f"The runs of {third} are here already: runs 1, 2, 3. "
                    f"1 note of the file was added to run {run.id}. "
                    "2 notes of the file were not added: their runs or steps have other notes here, which are "
                    "kept.\n")
    assert pair.eng.get_run(run.id).note == "first finding, checked by support: also on 1.4"
    assert step_note(pair.eng, step_id_of(pair.eng, run.id, 1)) == "support's own note"
    assert step_note(pair.eng, step_id_of(pair.eng, run.id, 4)) == "the developer's note on step 4"


def test_a_reply_written_under_a_note_reaches_the_one_who_wrote_it(pair: Pair) -> None:
    # The customer (dev) notes a run and a step and sends it; support answers under each note and sends
    # the runs back: the customer's import gives the answers to the customer's runs (their notes, as
    # written there, are where the answers begin: nothing of them is lost). Before, the customer's own
    # notes were kept and the answers never arrived.
    write_run_note(pair.dev, pair.ids[0], "Kunde: schlägt seit Montag fehl")
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[0], 2), "hier hängt es")
    _import(pair, pair.export("second.json"))
    run = pair.eng_run()
    answered = "Kunde: schlägt seit Montag fehl\n\nSupport: fixed in 1.5, please update."
    write_run_note(pair.eng, run.id, answered)
    write_step_note(pair.eng, step_id_of(pair.eng, run.id, 2), "hier hängt es\nSupport: the server's timeout")
    back = pair.folder / "back.json"
    export(pair.eng, [run.id], None, back, format=pair.format)

    done = cli_here("import", str(back), "--db", str(pair.folder / "dev.db"))

    assert done.returncode == 0, done.stderr
    assert done.stdout == (f"The run of {back} is here already: run {pair.ids[0]}. "
                           f"2 notes of the file were added to run {pair.ids[0]}.\n")
    assert pair.dev.get_run(pair.ids[0]).note == answered
    assert step_note(pair.dev, step_id_of(pair.dev, pair.ids[0], 2)) == "hier hängt es\nSupport: the server's timeout"
    # The customer's older file, read by support again, takes nothing away from the answers.
    again = _import(pair, pair.folder / "second.json").stdout
    assert "2 notes of the file were not added" in again
    assert pair.eng.get_run(run.id).note.endswith("please update.")


def test_a_file_read_twice_to_be_written_adds_its_notes_too(pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importing, "CACHE_BUDGET", 0)  # the steps are not kept: pass 2 reads the file again
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[2], 1), "read twice")

    report = import_trace(pair.eng, pair.export("second.json"))

    run = pair.eng.find_run_by_uid(pair.dev.get_run(pair.ids[2]).uid)
    assert (report.notes_added, report.noted_run_ids) == (1, (run.id,))
    assert step_note(pair.eng, step_id_of(pair.eng, run.id, 1)) == "read twice"


def _hostile(pair: Pair, extra_steps: int, note: str) -> Path:
    """The developer's run exported, then given a note on every step and ``extra_steps`` more noted steps."""
    exported = json.loads(pair.export("hostile.json").read_text(encoding="utf-8"))
    run = next(r for r in exported["runs"] if r["uid"] == pair.uid)
    for step in run["steps"]:
        step["payload"]["note"] = note
    last = run["steps"][-1]
    for sequence in range(len(run["steps"]) + 1, len(run["steps"]) + 1 + extra_steps):
        run["steps"].append({**last, "sequence": sequence, "payload": {**last["payload"], "note": f"n{sequence}"}})
    path = pair.folder / "hostile.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    return path


@pytest.mark.parametrize("pair", ["trace"], indirect=True)
def test_a_file_with_100000_notes_on_one_run_adds_one_per_stored_step(pair: Pair) -> None:
    path = _hostile(pair, 100_000, "on every step")

    report = import_trace(pair.eng, path)

    run = pair.eng_run()
    assert (report.notes_added, report.noted_runs, report.runs_imported) == (4, 1, 0)
    assert [step_note(pair.eng, step_id_of(pair.eng, run.id, n)) for n in range(1, 5)] == ["on every step"] * 4
    assert pair.eng.db.execute("SELECT count(*) FROM steps WHERE run_id = ?", (run.id,)).fetchone()[0] == 4


@pytest.mark.parametrize("pair", ["trace"], indirect=True)
def test_a_note_of_10_mb_to_add_is_refused_and_nothing_is_written(pair: Pair) -> None:
    note = "\N{HOT BEVERAGE}" * 3_400_000  # 10.2 MB in UTF-8, within the reader's 5,000,000 characters a string
    path = _hostile(pair, 0, note)
    write_run_note(pair.dev, pair.ids[1], "a fine note of another run")
    before = snapshot(pair.eng)

    with pytest.raises(TraceImportError) as refused:
        import_trace(pair.eng, path)

    run = pair.eng_run()
    assert str(refused.value) == (f"Cannot import hostile.json: it has a note of 3400000 characters for step 1 of run "
                                  f"{run.id} here; a note added to a step stored here may have at most 20000. "
                                  "Nothing was imported.")
    assert snapshot(pair.eng) == before and all(not r.note for r in pair.eng.list_runs(limit=None))


def test_the_same_file_again_needs_no_write_lock(pair: Pair) -> None:
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[0], 2), "look here")
    second = pair.export("second.json")
    _import(pair, second)
    other = sqlite3.connect(pair.eng_db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program's write transaction, held open
    try:
        with RunStore.open(pair.eng_db, lock_wait_s=0.2) as store:
            report = import_trace(store, second)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (report.notes_added, report.notes_same, report.runs_already_present) == (0, 1, 3)


@pytest.mark.parametrize("cache_budget", [0, 10**9], ids=["read again", "kept"])
def test_only_what_is_missing_is_written_whichever_way_the_file_is_read(
        pair: Pair, monkeypatch: pytest.MonkeyPatch, cache_budget: int) -> None:
    monkeypatch.setattr(importing, "CACHE_BUDGET", cache_budget)
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[0], 2), "one")
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[2], 1), "two")
    write_run_note(pair.dev, pair.ids[1], "three")
    _import(pair, pair.export("second.json"))
    run = pair.eng_run()
    write_step_note(pair.eng, step_id_of(pair.eng, run.id, 2), "one, edited here")
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[0], 4), "four")

    report = import_trace(pair.eng, pair.export("third.json"))

    assert (report.notes_added, report.notes_kept, report.notes_same, report.noted_run_ids) == (1, 1, 2, (run.id,))
    assert [step_note(pair.eng, step_id_of(pair.eng, run.id, n)) for n in (2, 4)] == ["one, edited here", "four"]


@pytest.mark.parametrize("pair", ["trace"], indirect=True)
@pytest.mark.parametrize(("language", "said"), [
    ("en", "Cannot import hostile.json: it has a note of 20,001 characters for step 1 of run {id} here; a note "
           "added to a step stored here may have at most 20,000. Nothing was imported."),
    ("de", "hostile.json kann nicht importiert werden: Die Datei hat eine Notiz von 20.001 Zeichen für Schritt 1 "
           "von Lauf {id} hier; eine Notiz, die einem hier gespeicherten Schritt hinzugefügt wird, darf höchstens "
           "20.000 Zeichen haben. Es wurde nichts importiert.")])
def test_a_note_too_long_for_a_stored_step_is_refused_in_words_of_the_file(pair: Pair, language: str,
                                                                           said: str) -> None:
    path = _hostile(pair, 0, "x" * 20_001)

    done = cli_here("--lang", language, "import", str(path), "--db", str(pair.eng_db))

    assert done.returncode == 2 and done.stderr == f"run-inspector: {said.format(id=pair.eng_run().id)}\n", done.stderr
