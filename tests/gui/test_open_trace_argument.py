"""``run-inspector FILE``: the window opens, imports the file in a worker and selects its run."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from inspector.cli import main
from inspector.cli.app import file_to_open
from inspector.gui.main_window import MainWindow
from inspector.store import RunStore
from inspector.transfer import export
from tests.support.sample_runs import mixed_run


def test_the_file_argument_is_told_from_commands() -> None:
    assert file_to_open(["runs", "list"]) == (None, ["runs", "list"])
    assert file_to_open(["--db", "x.db", "trace.json"]) == ("trace.json", ["--db", "x.db"])
    assert file_to_open(["trace.json"]) == ("trace.json", [])
    assert file_to_open(["--help"]) == (None, ["--help"])


def test_a_missing_file_is_one_sentence_and_exit_2(capsys, tmp_path) -> None:
    assert main([str(tmp_path / "nope.json")]) == 2
    error = capsys.readouterr().err
    assert "There is no file" in error and "nope.json" in error and error.count("\n") == 1
    assert main(["frobnicate"]) == 2  # not a file name: a mistyped command
    assert "'frobnicate' is not a command of run-inspector." in capsys.readouterr().err


def test_a_servers_address_in_place_of_a_file_names_a_command_and_repeats_no_secret(capsys, tmp_path) -> None:
    """`run-inspector http://user:pw@host/mcp?key=K`: not "there is no file" with the password and the key
    in it, but what to write, the address shown without either; no window and no database."""
    db = tmp_path / "data" / "runs.db"
    assert main(["--db", str(db), "http://user:pw@host.example/mcp?api_key=K3y-S3cret"]) == 2
    error = capsys.readouterr().err
    assert error == ("run-inspector: http://host.example/mcp?… is a server's address, not a trace file: name a "
                     "command before it, e.g. run-inspector tools http://host.example/mcp?… (see run-inspector "
                     "--help).\n")
    assert main(["--db", str(db), "--lang", "de", "https://pw@host.example/mcp"]) == 2
    error = capsys.readouterr().err
    assert "ist die Adresse eines Servers, keine Trace-Datei" in error and "pw" not in error
    assert not db.parent.exists()


def test_run_inspector_file_opens_the_window_with_the_imported_run_selected(qtbot, tmp_path) -> None:
    with RunStore.open(tmp_path / "source.db") as source:
        run_id = mixed_run(source)
        uid = source.get_run(run_id).uid
        export(source, [run_id], None, tmp_path / "sent-by-support.json", "trace")
    app = QApplication.instance()
    seen = {}

    def close_when_imported() -> None:
        windows = [w for w in app.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        run = windows[0].runs_tab.current_run() if windows else None
        if run is not None:
            seen["uid"], seen["tab"] = run.uid, windows[0].tabs.currentWidget() is windows[0].runs_tab
            seen["rows"] = windows[0].runs_tab.timeline.rowCount()
            windows[0].close()
        else:
            QTimer.singleShot(50, close_when_imported)

    QTimer.singleShot(50, close_when_imported)
    status = main(["--db", str(tmp_path / "mine.db"), str(tmp_path / "sent-by-support.json")])
    assert status == 0
    assert seen == {"uid": uid, "tab": True, "rows": 6}


def test_a_folder_or_a_device_is_said_for_what_it_is_and_nothing_is_written(capsys, tmp_path) -> None:
    """`run-inspector FOLDER` or `run-inspector /dev/zero`: one sentence naming what the path is (it
    exists: not "there is no file"), exit 2, no window and no database."""
    db = tmp_path / "data" / "runs.db"
    folder = tmp_path / "traces"
    folder.mkdir()
    assert main(["--db", str(db), str(folder)]) == 2
    error = capsys.readouterr().err
    assert "is a folder, not a trace file" in error and "There is no file" not in error and error.count("\n") == 1
    assert main(["--db", str(db), "/dev/zero"]) == 2
    error = capsys.readouterr().err
    assert "'/dev/zero' is not a regular file" in error and error.count("\n") == 1
    assert main(["--db", str(db), "--lang", "de", str(folder)]) == 2
    assert "ist ein Ordner, keine Trace-Datei" in capsys.readouterr().err
    assert not db.parent.exists()
