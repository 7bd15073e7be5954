"""The Runs tab's transfers as a support engineer meets them, with real widgets and the mcp SDK's
trace imported into the test's SQLite file: Export… opens in the documents folder, then in the folder
used last; Delete asks naming the run; Copy says what it copied."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

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

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    for _time in range(2):
        tab.choose_export(True)
        qtbot.waitUntil(lambda: tab.transfers.job is None, timeout=20000)
    assert offered == [home / "Documents" / f"run-{run_id}.json", chosen / f"run-{run_id}.json"]
    assert tab.status.text() == f"Exported 1 run to {chosen / 'trace.json'}."
    assert '"resourceSpans"' in (chosen / "trace.json").read_text()


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
