"""`runs note`: a reviewer's finding on a run or a step, from the command line; `runs show` prints it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from inspector.store import RunStore
from tests.support.cli_process import cli_here
from tests.support.sample_runs import mixed_run

ROOT = Path(__file__).resolve().parents[2]


def cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # In this process: what it says is the point, not its process.
    return cli_here(*args, "--db", str(db), env={"LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""})


def test_notes_are_written_shown_and_removed(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = str(mixed_run(store))
    saved = cli(db, "runs", "note", run_id, "the hang is the server's, not the client's")
    assert (saved.returncode, saved.stdout) == (0, f"The note of run {run_id} was saved.\n")
    step = cli(db, "runs", "note", run_id, "--step", "5", "never answered\nsee the server log")
    assert step.returncode == 0 and "step 5" in step.stdout
    shown = cli(db, "runs", "show", run_id).stdout
    assert "  note: the hang is the server's, not the client's\n" in shown
    (line,) = [line for line in shown.splitlines() if line.startswith("    note: ")]
    assert line.startswith("    note: never answered ") and line.endswith(" see the server log")  # one line
    document = json.loads(cli(db, "runs", "show", run_id, "--json").stdout)
    assert document["run"]["note"] == "the hang is the server's, not the client's"
    assert [entry["note"] for entry in document["timeline"]] == [None] * 4 + ["never answered\nsee the server log",
                                                                               None]
    cleared = json.loads(cli(db, "runs", "note", run_id, "--clear", "--json").stdout)
    assert cleared == {"run": int(run_id), "step": None, "note": ""}
    assert json.loads(cli(db, "runs", "show", run_id, "--json").stdout)["run"]["note"] == ""


def test_clearing_a_note_that_is_not_there_says_nothing_was_removed(tmp_path: Path) -> None:
    """`runs note RUN --clear` run twice said "The note of run 1 was removed." twice: the second removed nothing."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = str(mixed_run(store))
    assert cli(db, "runs", "note", run_id, "found it").returncode == 0
    assert cli(db, "runs", "note", run_id, "--clear").stdout == f"The note of run {run_id} was removed.\n"
    assert cli(db, "runs", "note", run_id, "--clear").stdout == f"Run {run_id} has no note: nothing was removed.\n"
    assert cli(db, "runs", "note", run_id, "--step", "5", "--clear").stdout == (
        f"Step 5 of run {run_id} has no note: nothing was removed.\n")
    german = cli(db, "--lang", "de", "runs", "note", run_id, "--step", "5", "--clear")
    assert german.stdout == f"Schritt 5 von Lauf {run_id} hat keine Notiz: nichts wurde entfernt.\n"
    assert json.loads(cli(db, "runs", "note", run_id, "--clear", "--json").stdout)["note"] == ""  # as before


def test_bad_note_commands_say_what_is_wrong_and_change_nothing(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = str(mixed_run(store))
    for args, said in ((("runs", "note", run_id), "needs the note's text, or --clear"),
                       # Both said "needs the note's text, or --clear": the text and --clear were given.
                       (("runs", "note", run_id, "x", "--clear"), "takes the note's text or --clear, not both"),
                       (("runs", "note", run_id, "--step", "99", "x"),
                        f"Run {run_id} has no step 99: it has steps 1 to 6."),
                       # The steps the run has, not "a whole number from 1 to 9,223,372,036,854,775,807".
                       (("runs", "note", run_id, "--step", "0", "x"),
                        f"Run {run_id} has no step 0: it has steps 1 to 6."),
                       (("runs", "note", run_id, "--step", "-2", "x"),
                        f"Run {run_id} has no step -2: it has steps 1 to 6."),
                       # A step's number is not a run id (it said "a run id must be a whole number").
                       (("runs", "note", run_id, "--step", "two", "x"),
                        "argument --step: a step number must be a whole number, as the # column of `runs show` "
                        "prints it, not two"),
                       (("runs", "note", "42", "x"), "There is no run 42."),
                       (("runs", "note", run_id, "y" * 20_001), "has 20,001 characters; at most 20,000 are kept"),
                       (("--lang", "de", "runs", "note", run_id, "y" * 20_001),
                        "hat 20.001 Zeichen; höchstens 20.000")):
        done = cli(db, *args)
        assert done.returncode == 2 and said in done.stderr, (args, done.stderr)
    assert json.loads(cli(db, "runs", "show", run_id, "--json").stdout)["run"]["note"] == ""
    missing = cli(tmp_path / "none.db", "runs", "note", "1", "x")
    assert missing.returncode == 2 and "does not exist yet" in missing.stderr and not (tmp_path / "none.db").exists()


def test_runs_show_and_note_take_a_run_as_compare_and_replay_do(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        older = mixed_run(store)  # started at a time of the past; `last` is the run started most recently
        newer = store.start_run("newer", "live", None)
        store.finish_run(newer, "ok")
        uid = store.get_run(newer).uid
    assert json.loads(cli(db, "runs", "show", "last", "--json").stdout)["run"]["id"] == newer
    assert json.loads(cli(db, "runs", "show", "last~1", "--json").stdout)["run"]["id"] == older
    assert json.loads(cli(db, "runs", "show", uid[:8], "--json").stdout)["run"]["id"] == newer
    saved = cli(db, "runs", "note", "last~1", "checked")
    assert (saved.returncode, saved.stdout) == (0, f"The note of run {older} was saved.\n")  # said as its id
    assert json.loads(cli(db, "runs", "note", "last~1", "--step", "1", "seen", "--json").stdout)["run"] == older
    too_far = cli(db, "runs", "show", "last~2")
    assert too_far.returncode == 2 and "There is no run last~2" in too_far.stderr and not too_far.stdout
    unknown = cli(db, "runs", "note", "zz", "text")
    assert unknown.returncode == 2 and "names no run" in unknown.stderr


def stores_only_read(monkeypatch) -> None:
    """Every run database opened from now on (until ``monkeypatch.undo()``) can only be read: SQLite
    then refuses each write as it refuses one to a read-only file, folder or disk."""
    opened = RunStore.open.__func__

    def read_only(cls, path, *args, **kwargs):
        store = opened(cls, path, *args, **kwargs)
        store.db.conn.execute("PRAGMA query_only = ON")
        return store

    monkeypatch.setattr(RunStore, "open", classmethod(read_only))


def test_a_database_that_can_only_be_read_is_one_sentence_and_status_1(tmp_path: Path, monkeypatch,
                                                                        capsys) -> None:
    """A read-only run database (a file, folder or disk others made read-only) refused `runs note`
    and `servers set` with a traceback, and with --json no JSON object at all."""
    from inspector.cli import main

    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = str(mixed_run(store))
    stores_only_read(monkeypatch)
    capsys.readouterr()
    for args in (("runs", "note", run_id, "seen"), ("servers", "set", "http://127.0.0.1:9/mcp", "--name", "x")):
        assert main([*args, "--db", str(db), "--lang", "en"]) == 1
        said = capsys.readouterr()
        assert said.out == "" and said.err.count("\n") == 1, said.err
        assert f"The run database {db} cannot be written" in said.err and "Traceback" not in said.err
        assert main([*args, "--db", str(db), "--json", "--lang", "en"]) == 1
        (error,) = json.loads(capsys.readouterr().out).values()
        assert error["kind"] == "failed" and "cannot be written" in error["message"]
    monkeypatch.undo()
    assert json.loads(cli(db, "runs", "show", run_id, "--json").stdout)["run"]["note"] == ""


def test_an_operation_on_a_database_that_can_only_be_read_keeps_its_record_in_a_side_file(
        tmp_path: Path, monkeypatch, capsys) -> None:
    """The call went ahead, exited 0 and its record was lost (after a warning in SQLite's bare words);
    now its record is saved beside the database, as when the database is locked, and the status is 1."""
    from inspector.cli import main
    from inspector.demo import DemoServer

    db = tmp_path / "runs.db"
    RunStore.open(db).close()
    stores_only_read(monkeypatch)
    capsys.readouterr()
    with DemoServer() as demo:
        status = main(["call", demo.url, "echo", "--args", '{"text": "kept"}', "--db", str(db), "--lang", "de"])
    said = capsys.readouterr()
    assert status == 1 and "kept" in said.out
    (side,) = (tmp_path / "unsaved-runs").glob("run-*.json")
    assert f"weil die Datenbank {db} nur gelesen werden kann" in said.err and str(side) in said.err, said.err
    monkeypatch.undo()
    assert cli(db, "import", str(side)).returncode == 0
    listed = json.loads(cli(db, "runs", "list", "--json").stdout)
    assert [(run["title"], run["status"]) for run in listed["runs"]] == [("tools/call echo", "ok")]



def test_support_answers_a_customers_note_with_append_and_the_customer_gets_the_answer(tmp_path: Path) -> None:
    # The customer notes a run and a step, exports; support imports, answers under each note with
    # --append, exports; the customer imports that and has both words. Before, `runs note` could only
    # replace the customer's note (silently), and what came back was kept out of the customer's runs.
    customer, support = tmp_path / "customer.db", tmp_path / "support.db"
    with RunStore.open(customer) as store:
        run_id = str(mixed_run(store))
    cli(customer, "runs", "note", run_id, "Kunde: hängt seit Montag")
    cli(customer, "runs", "note", run_id, "--step", "5", "hier")
    sent = tmp_path / "sent.json"
    assert cli(customer, "export", run_id, "-o", str(sent)).returncode == 0
    assert cli(support, "import", str(sent)).returncode == 0

    answered = cli(support, "runs", "note", "1", "--append", "Support: the server's timeout, fixed in 1.5")
    step = cli(support, "runs", "note", "1", "--step", "5", "Support: see the server log", "--append")
    replaced = cli(support, "runs", "note", "1", "--step", "2", "Support: fine")  # a step with no note: nothing said
    back = tmp_path / "back.json"
    assert cli(support, "export", "1", "-o", str(back)).returncode == 0
    done = cli(customer, "import", str(back))

    assert (answered.returncode, answered.stdout) == (0, "The note of run 1 was saved.\n")
    assert (step.returncode, step.stdout) == (0, "The note of step 5 of run 1 was saved.\n")
    assert replaced.stdout == "The note of step 2 of run 1 was saved.\n"
    assert done.stdout == (f"The run of {back} is here already: run {run_id}. "
                           f"3 notes of the file were added to run {run_id}.\n")
    shown = json.loads(cli(customer, "runs", "show", run_id, "--json").stdout)
    assert shown["run"]["note"] == "Kunde: hängt seit Montag\n\nSupport: the server's timeout, fixed in 1.5"
    assert [entry["note"] for entry in shown["timeline"]] == [None, "Support: fine", None, None,
                                                              "hier\n\nSupport: see the server log", None]


def test_a_note_replaced_says_so_and_how_to_write_under_it(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = str(mixed_run(store))
    cli(db, "runs", "note", run_id, "Kunde: hängt seit Montag")

    replaced = cli(db, "runs", "note", run_id, "Support: by design")
    german = cli(db, "--lang", "de", "runs", "note", run_id, "Support: doch nicht")
    both = cli(db, "runs", "note", run_id, "--append", "--clear")
    empty = cli(db, "runs", "note", run_id, "--append", "  ")  # it removed the note it was to go under

    assert replaced.stdout == (f"The note of run {run_id} was saved.\n"
                               "It replaced the note there was; --append writes under a note instead.\n")
    assert german.stdout == (f"Die Notiz zu Lauf {run_id} wurde gespeichert.\n"
                             "Sie hat die bisherige Notiz ersetzt; --append schreibt stattdessen unter eine Notiz.\n")
    assert both.returncode == 2 and "takes --append (the text written under the note there is) or --clear" in \
        both.stderr
    assert empty.returncode == 2 and "--append needs the text to write under the note" in empty.stderr
    assert json.loads(cli(db, "runs", "show", run_id, "--json").stdout)["run"]["note"] == "Support: doch nicht"


def three_runs_noted(db: Path) -> tuple[str, str, str]:
    """Three runs stored in ``db``: the first with a note and one on its step 5, the second with one on its
    step 2 (three notes in all), the third with none."""
    with RunStore.open(db) as store:
        noted, plain, bare = (str(mixed_run(store)) for _time in range(3))
    cli(db, "runs", "note", noted, "the hang is the server's")
    cli(db, "runs", "note", noted, "--step", "5", "never answered")
    cli(db, "runs", "note", plain, "--step", "2", "fine")
    return noted, plain, bare


def test_export_says_how_many_notes_went_into_the_file(tmp_path: Path) -> None:
    """A support engineer who noted a run and a step exported it for the customer and was told only "Exported 1
    run … The file holds 6 steps.": nothing said the finding went with it. Now export counts the notes of the
    runs and steps it wrote (both formats, --json too, German), and says nothing of notes where there are none."""
    db = tmp_path / "runs.db"
    noted, plain, other = three_runs_noted(db)
    cli(db, "runs", "note", other, "not exported")  # a run left out of the file: its note is not counted
    for kind in ("trace", "otlp"):
        out = tmp_path / f"{kind}.json"
        done = cli(db, "export", noted, plain, "-o", str(out), "--format", kind)
        assert done.returncode == 0 and done.stdout.endswith(
            "The file holds 12 steps.\n3 notes of the runs and their steps are in the file: whoever opens it reads "
            "them.\n"), done.stdout
        # As many as the file brings to whoever imports it.
        assert cli(tmp_path / f"reader-{kind}.db", "import", str(out)).returncode == 0
        with RunStore.open(tmp_path / f"reader-{kind}.db") as reader:
            runs = reader.list_runs(limit=None)
            notes = sum(1 for run in runs if run.note) + reader.db.execute(
                "SELECT count(*) FROM steps WHERE json_extract(payload, '$.note') != ''").fetchone()[0]
        assert notes == 3, kind
    answer = json.loads(cli(db, "export", noted, "-o", str(tmp_path / "one.json"), "--json").stdout)
    assert (answer["runs"], answer["notes"]) == (1, 2)
    german = cli_here("--lang", "de", "export", noted, "-o", str(tmp_path / "de.json"), "--db", str(db))
    assert german.stdout.endswith("2 Notizen der Läufe und ihrer Schritte sind in der Datei: wer sie öffnet, liest "
                                  "sie.\n"), german.stdout
    one = cli(db, "export", plain, "-o", str(tmp_path / "plain.json"))
    assert one.stdout.endswith("1 note of the runs and their steps is in the file: whoever opens it reads it.\n")
    with RunStore.open(db) as store:
        bare = str(mixed_run(store))
    done = cli(db, "export", bare, "-o", str(tmp_path / "bare.json"))
    assert done.returncode == 0 and done.stdout.endswith("The file holds 6 steps.\n"), done.stdout
    again = cli(db, "export", bare, "-o", str(tmp_path / "bare.json"), "--force", "--json")  # over the one before
    assert json.loads(again.stdout)["notes"] == 0


def test_import_says_how_many_notes_came_with_the_runs(tmp_path: Path) -> None:
    """Export said "3 notes of the runs and their steps are in the file: whoever opens it reads them", and the
    import on the other side said only "Imported 2 runs … 12 steps were added.": whoever received the file was
    not told there were findings to read (and the window marks no step that has a note). Now the import counts
    the notes the new runs brought, in both formats and German; a file without notes says nothing of them."""
    db = tmp_path / "runs.db"
    noted, plain, bare = three_runs_noted(db)
    for kind in ("trace", "otlp"):
        out = tmp_path / f"{kind}.json"
        assert cli(db, "export", noted, plain, "-o", str(out), "--format", kind).returncode == 0
        done = cli(tmp_path / f"reader-{kind}.db", "import", str(out))
        assert done.returncode == 0 and "12 steps were added." in done.stdout and done.stdout.endswith(
            ". 3 notes of the runs and their steps came with the file.\n"), done.stdout
        again = cli(tmp_path / f"reader-{kind}.db", "import", str(out))  # nothing new: nothing came
        assert "came with the file" not in again.stdout, again.stdout
    one = tmp_path / "one.json"
    assert cli(db, "export", plain, "-o", str(one)).returncode == 0
    german = cli_here("--lang", "de", "import", str(one), "--db", str(tmp_path / "de.db"))
    assert german.stdout.endswith("1 Notiz der Läufe und ihrer Schritte kam mit der Datei.\n"), german.stdout
    assert cli(db, "export", bare, "-o", str(tmp_path / "bare.json")).returncode == 0
    done = cli(tmp_path / "bare.db", "import", str(tmp_path / "bare.json"))
    assert done.returncode == 0 and "6 steps were added." in done.stdout and "came with" not in done.stdout, done.stdout
