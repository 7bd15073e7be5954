"""`export -o FILE` writes over no file unless --force says so: the file there may be the customer's trace the
user imported, and the run database keeps only what the runs say, not the file as it was sent."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from inspector.cli import main
from inspector.store import RunStore

ROOT = Path(__file__).resolve().parents[2]
RESPAN = ROOT / "tests" / "fixtures" / "otel" / "respan.jsonl"


def test_an_imported_trace_is_not_replaced_by_an_export_of_its_run(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "runs.db")
    sent = tmp_path / "respan.jsonl"
    shutil.copyfile(RESPAN, sent)
    assert main(["import", str(sent), "--db", db]) == 0
    capsys.readouterr()
    assert main(["export", "last", "-o", str(sent), "--db", db]) == 2
    said = capsys.readouterr().err.strip()
    assert said == (f"run-inspector: {sent} is there already, and run 1 was imported from a file of that name: it "
                    "may be the trace you were sent. export does not write over a file. Give -o another file name, "
                    "or add --force to replace it.")
    assert sent.read_bytes() == RESPAN.read_bytes()
    assert main(["--lang", "de", "export", "last", "-o", str(sent), "--db", db]) == 2
    assert "--force" in (german := capsys.readouterr().err) and "Lauf 1 wurde aus einer Datei dieses Namens" in german
    assert sent.read_bytes() == RESPAN.read_bytes()
    assert [entry.name for entry in tmp_path.iterdir() if entry.name.endswith(".part")] == []


def test_any_file_there_is_kept_and_force_replaces_it_keeping_its_mode(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        store.start_run("one", "live", None)
    mine = tmp_path / "notes.json"
    mine.write_text("my own notes\n")
    os.chmod(mine, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to(mine)
    for target in (mine, link):
        assert main(["export", "last", "-o", str(target), "--json", "--db", db]) == 2
        error = json.loads(capsys.readouterr().out)["error"]["message"]
        assert error.startswith(f"{target} is there already: export does not write over a file.")
        assert mine.read_text() == "my own notes\n"
    assert main(["export", "last", "-o", str(link), "--force", "--db", db]) == 0
    assert [run["title"] for run in json.loads(mine.read_text())["runs"]] == ["one"]
    assert link.is_symlink() and oct(mine.stat().st_mode & 0o777) == oct(0o640)
    capsys.readouterr()
    fresh = tmp_path / "fresh.json"
    assert main(["export", "last", "-o", str(fresh), "--db", db]) == 0  # a new file needs no --force
    assert json.loads(fresh.read_text())["runs"][0]["title"] == "one"


def test_a_folder_is_refused_as_before_with_or_without_force(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        store.start_run("one", "live", None)
    for extra in ((), ("--force",)):
        assert main(["export", "last", "-o", str(tmp_path), *extra, "--db", db]) == 2
        assert "(it is a folder, not a file)" in capsys.readouterr().err


def test_a_link_to_an_imported_trace_names_the_runs_of_the_file_it_links_to(tmp_path: Path, capsys) -> None:
    # The runs keep the name of the file they were imported from; a link of another name to it said only "is there
    # already", not that it may be the trace the user was sent.
    db = str(tmp_path / "runs.db")
    sent = tmp_path / "respan.jsonl"
    shutil.copyfile(RESPAN, sent)
    assert main(["import", str(sent), "--db", db]) == 0
    link = tmp_path / "latest.jsonl"
    link.symlink_to(sent)
    capsys.readouterr()
    assert main(["export", "last", "-o", str(link), "--db", db]) == 2
    assert f"{link} is there already, and run 1 was imported from a file of that name" in capsys.readouterr().err
    assert sent.read_bytes() == RESPAN.read_bytes()
