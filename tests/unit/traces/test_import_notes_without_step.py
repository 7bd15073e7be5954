"""A later export whose run holds a step the stored run does not have: that step's note has nothing to be
added to. It was dropped without a word; the import now says so (the command line in English and German,
``import --json``'s ``notes_without_step``), and still adds the notes it can. Where the stored run has a
step with that number but another one (started at another time), it says that, not that the step is
missing. Real files of the real exporter, real SQLite stores, the command line as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_import_notes_again import Pair, _import

from inspector.store.notes import step_id_of, step_note, write_step_note
from inspector.transfer.importing import import_trace


@pytest.fixture
def pair(tmp_path: Path):  # type: ignore[no-untyped-def]
    made = Pair(tmp_path, "trace")
    yield made
    made.close()


def _with_steps_beyond(pair: Pair, numbers: range) -> Path:
    """The developer's first run exported again with a note on step 2, and noted steps ``numbers`` after its last."""
    write_step_note(pair.dev, step_id_of(pair.dev, pair.ids[0], 2), "look here")
    exported = json.loads(pair.export("later.json").read_text(encoding="utf-8"))
    run = next(r for r in exported["runs"] if r["uid"] == pair.uid)
    last = run["steps"][-1]
    assert last["sequence"] < numbers[0]
    run["steps"] += [{**last, "sequence": n, "payload": {**last["payload"], "note": f"step {n}"}} for n in numbers]
    path = pair.folder / "later.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    return path


def test_a_note_on_a_step_not_here_is_said_not_added(pair: Pair) -> None:
    later = _with_steps_beyond(pair, range(7, 8))
    run = pair.eng_run()

    said = _import(pair, later).stdout

    assert said == (f"The runs of {later} are here already: runs 1, 2, 3. "
                    f"1 note of the file was added to run {run.id}. "
                    f"1 note of the file was not added: run {run.id} has no step 7.\n")
    assert step_note(pair.eng, step_id_of(pair.eng, run.id, 2)) == "look here"
    assert pair.eng.db.execute("SELECT count(*) FROM steps WHERE run_id = ?", (run.id,)).fetchone()[0] == 4
    # Again, in German, and as JSON: the note it could add is here now; the other is still said.
    german = _import(pair, later, "--lang", "de").stdout
    assert german == (f"Die Läufe aus {later} sind schon hier (nichts wurde importiert): Läufe 1, 2, 3. "
                      f"1 Notiz der Datei wurde nicht hinzugefügt: Lauf {run.id} hat keinen Schritt 7.\n")
    as_json = json.loads(_import(pair, later, "--json").stdout)
    assert (as_json["notes_added"], as_json["notes_kept"], as_json["notes_without_step"]) == (0, 0, 1)


def test_many_are_counted_and_the_first_named(pair: Pair) -> None:
    later = _with_steps_beyond(pair, range(5, 1005))
    run = pair.eng_run()

    report = import_trace(pair.eng, later)

    assert (report.notes_added, report.notes_stepless, report.first_stepless) == (1, 1000, (run.id, 5))
    said = _import(pair, later, "--lang", "de").stdout
    assert said.endswith("1.000 Notizen der Datei wurden nicht hinzugefügt: die Läufe hier haben ihre Schritte "
                         f"nicht (der erste: Schritt 5 von Lauf {run.id}).\n")
    assert _import(pair, later).stdout.endswith("1,000 notes of the file were not added: the runs here do not have "
                                                f"their steps (the first: step 5 of run {run.id}).\n")


def _with_step_moved(pair: Pair, sequence: int, started_at: str) -> Path:
    """The developer's first run exported again with a note on step ``sequence``, which started at ``started_at``."""
    exported = json.loads(pair.export("later.json").read_text(encoding="utf-8"))
    step = next(r for r in exported["runs"] if r["uid"] == pair.uid)["steps"][sequence - 1]
    assert step["sequence"] == sequence and step["started_at"] != started_at
    step["started_at"], step["payload"]["note"] = started_at, "not this one"
    path = pair.folder / "later.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    return path


def test_a_note_on_another_step_at_its_place_says_it_is_another_step(pair: Pair) -> None:
    later = _with_step_moved(pair, 2, "2026-11-30T09:30:00.000000Z")
    run = pair.eng_run()

    said, german = _import(pair, later).stdout, _import(pair, later, "--lang", "de").stdout

    assert said == (f"The runs of {later} are here already (nothing was imported): runs 1, 2, 3. "
                    f"1 note of the file was not added: step 2 of run {run.id} here is another step than the "
                    "file's (it started at another time).\n")
    assert german == (f"Die Läufe aus {later} sind schon hier (nichts wurde importiert): Läufe 1, 2, 3. "
                      f"1 Notiz der Datei wurde nicht hinzugefügt: Schritt 2 von Lauf {run.id} ist hier ein "
                      "anderer Schritt als der der Datei (er begann zu einer anderen Zeit).\n")
    assert step_note(pair.eng, step_id_of(pair.eng, run.id, 2)) == ""
    report = import_trace(pair.eng, later)
    assert (report.notes_stepless, report.first_stepless, report.first_stepless_why) == (1, (run.id, 2), "other")


def test_a_note_on_a_step_whose_stored_data_is_unreadable_says_so(pair: Pair) -> None:
    run = pair.eng_run()
    with pair.eng.transaction():
        pair.eng.db.execute("UPDATE steps SET payload = 'not json' WHERE run_id = ? AND sequence = 3", (run.id,))
    exported = json.loads(pair.export("later.json").read_text(encoding="utf-8"))
    next(r for r in exported["runs"] if r["uid"] == pair.uid)["steps"][2]["payload"]["note"] = "look here"
    later = pair.folder / "later.json"
    later.write_text(json.dumps(exported), encoding="utf-8")

    said = _import(pair, later).stdout

    assert said.endswith(f"1 note of the file was not added: step 3 of run {run.id} here cannot take a note (its "
                         "stored data is not readable).\n")
    assert pair.eng.db.execute("SELECT payload FROM steps WHERE run_id = ? AND sequence = 3",
                               (run.id,)).fetchone()[0] == "not json"
