"""The Runs tab's transfers as a support engineer meets them, with real widgets and the mcp SDK's
trace imported into the test's SQLite file: Export… opens in the documents folder, then in the folder
used last, and a name typed without a suffix is written as a .json file; Delete asks naming the run;
Copy says what it copied."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QMessageBox

from inspector.gui.runs import transfers
from tests.gui.test_runs_span_detail import imported_agent_run, open_run, step_row


def test_export_opens_in_the_documents_folder_then_in_the_one_used_last(qtbot, make_window, tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "Documents").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    run_id = imported_agent_run("mcp_sdk.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    chosen = tmp_path / "for-the-customer"
    chosen.mkdir()
    offered: list[Path] = []

    def save_as(_parent, _caption, directory, filters):
        offered.append(Path(directory))
        return str(chosen / "trace.json"), filters.split(";;")[1]  # OTLP JSON

    monkeypatch.setattr(transfers, "save_file_name", lambda *asked, suffix: save_as(*asked))
    for _time in range(2):
        tab.choose_export(True)
        qtbot.waitUntil(lambda: tab.transfers.job is None, timeout=20000)
    assert offered == [home / "Documents" / f"run-{run_id}.json", chosen / f"run-{run_id}.json"]
    assert tab.status.text() == f"Exported 1 run to {chosen / 'trace.json'}."
    assert '"resourceSpans"' in (chosen / "trace.json").read_text()


@pytest.mark.parametrize("kind", [0, 1])  # the Run Inspector trace, OTLP JSON
def test_a_name_typed_without_a_suffix_is_written_as_a_json_file(qtbot, make_window, tmp_path, kind):
    """Export…'s own dialog (Qt's, offscreen): "for-the-customer" typed and Enter wrote the file
    ``for-the-customer``, which Open trace… (``*.json``) did not list."""
    run_id = imported_agent_run("mcp_sdk.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    typed = tmp_path / "for-the-customer"

    def type_the_name() -> None:
        dialog = next(widget for widget in QApplication.topLevelWidgets()
                      if isinstance(widget, QFileDialog) and widget.isVisible())
        dialog.selectNameFilter(dialog.nameFilters()[kind])
        name = dialog.findChild(QLineEdit, "fileNameEdit")
        name.setText(str(typed))
        QTest.keyClick(name, Qt.Key.Key_Return)

    QTimer.singleShot(0, type_the_name)  # in the dialog's own loop
    tab.choose_export(True)
    qtbot.waitUntil(lambda: tab.transfers.job is None, timeout=20000)
    written = tmp_path / "for-the-customer.json"
    assert not typed.exists() and written.is_file()
    assert tab.status.text() == f"Exported 1 run to {written}."
    assert ('"resourceSpans"' in written.read_text()) is (kind == 1)


def test_delete_asks_naming_the_run_and_copy_says_what_it_copied(qtbot, make_window, monkeypatch):
    run_id = imported_agent_run("mcp_sdk.jsonl")
    _window, tab = open_run(qtbot, make_window, run_id)
    asked: list[str] = []

    def answer_no(box):
        asked.append(box.text())
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "exec", answer_no)
    assert tab.delete_selected() is None
    assert asked == [f"Delete run {run_id} “invoke_agent support-agent” and all its steps? This cannot be undone."]
    assert tab.current_run() is not None and tab.current_run().id == run_id  # kept
    tab.select_step(step_row(tab, "slow: TimeoutError"))
    said = tab.detail.copy_result_text()
    copied = QApplication.clipboard().text()
    assert copied.splitlines()[0] == "TimeoutError" and said == tab.status.text()
    assert said == f"Copied the result of step 5 ({len(copied)} characters)."


@pytest.mark.parametrize(("language", "exported", "deleted", "imported"), [
    ("en", "Exported 1,200 runs to {path}.", "Deleted 1,200 runs.", "Imported 1,200 runs from runs.json."),
    ("de", "1.200 Läufe nach {path} exportiert.", "1.200 Läufe gelöscht.", "1.200 Läufe aus runs.json importiert."),
])
def test_the_counts_of_a_big_export_delete_and_import_are_grouped(qtbot, runs_tab_showing, tmp_path, language,
                                                                 exported, deleted, imported):
    """The status line said "Imported 2000 runs" beside the status bar's "2,000 runs": the sentences
    of the Runs tab's transfers group their counts as the locale does, as every other sentence."""
    from inspector.store import RunStore, resolve_db_path
    from tests.support.sample_runs import T0

    with RunStore.open(resolve_db_path()) as store, store.transaction():
        ids = [store.insert_run(f"run {n}", "live", None, T0, None, "ok", None, finished_at=T0) for n in range(1200)]
    tab = runs_tab_showing(language=language).tab
    path = tmp_path / "runs.json"
    said = []
    for start in (lambda: tab.export_runs(path, "trace", ids), lambda: tab.delete_runs(ids),
                  lambda: tab.open_trace(path)):
        with qtbot.waitSignal(tab.transfer_ended, timeout=60000) as ended:
            assert start() is not None
        assert ended.args[1] == "ok" and tab.status.text() == ended.args[2]
        said.append(ended.args[2])
    assert said == [exported.format(path=path), deleted, imported]


@pytest.mark.parametrize(("language", "exported"), [
    ("en", "Exported 2 runs to {path}. 2 notes of the runs and their steps are in the file: whoever opens it reads "
           "them."),
    ("de", "2 Läufe nach {path} exportiert. 2 Notizen der Läufe und ihrer Schritte sind in der Datei: wer sie "
           "öffnet, liest sie."),
])
def test_export_says_how_many_notes_went_into_the_file(qtbot, runs_tab_showing, tmp_path, language, exported):
    """Export runs… said "Exported 2 runs to …" of runs with a support engineer's notes: now it says that the
    notes went with them (the run's and the step's of a run exported; a note of a run left out is not counted),
    as `export` says it; runs without notes are exported as before."""
    from inspector.store import RunStore, resolve_db_path
    from inspector.store.notes import step_id_of, write_run_note, write_step_note
    from tests.support.sample_runs import mixed_run

    with RunStore.open(resolve_db_path()) as store:
        noted, plain, left_out = mixed_run(store), mixed_run(store), mixed_run(store)
        write_run_note(store, noted, "the hang is the server's")
        write_step_note(store, step_id_of(store, plain, 5), "never answered")
        write_run_note(store, left_out, "not in the file")
    tab = runs_tab_showing(language=language).tab
    path = tmp_path / "noted.json"
    with qtbot.waitSignal(tab.transfer_ended, timeout=60000) as ended:
        assert tab.export_runs(path, "trace", [noted, plain]) is not None
    assert ended.args[1] == "ok" and tab.status.text() == ended.args[2] == exported.format(path=path)
    with RunStore.open(resolve_db_path()) as store:
        bare = mixed_run(store)
    with qtbot.waitSignal(tab.transfer_ended, timeout=60000) as ended:
        assert tab.export_runs(tmp_path / "bare.json", "trace", [bare]) is not None
    assert ended.args[2] == {"en": "Exported 1 run to {path}.",
                             "de": "1 Lauf nach {path} exportiert."}[language].format(path=tmp_path / "bare.json")
