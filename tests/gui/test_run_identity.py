"""The selected run's uid in the Runs tab (its number belongs to one database: an import numbers runs
anew, the uid stays), with Copy uid, and where an imported run came from; screenshots in English
and German."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from inspector.cli import main
from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_screenshots import runs_window
from tests.gui.test_screenshots import save
from tests.support.sample_runs import mixed_run


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_runs_heading_shows_the_uid_with_copy_and_an_imported_runs_origin(qtbot, make_window, tmp_path,
                                                                               language) -> None:
    elsewhere = tmp_path / "elsewhere.db"
    with RunStore.open(elsewhere) as store:
        for title in ("first", "second", "user-cancels"):
            mixed_run(store, title)
        uid = store.get_run(3).uid
    trace = tmp_path / "from-support.json"
    assert main(["--db", str(elsewhere), "export", "3", "-o", str(trace)]) == 0
    with RunStore.open(resolve_db_path()) as store:
        live = mixed_run(store, "made here", source="live")
        live_uid = store.get_run(live).uid
    assert main(["import", str(trace)]) == 0  # run 3 there becomes run 2 here
    window = runs_window(make_window)
    tab = window.runs_tab
    switch_language(language)
    try:
        qtbot.waitUntil(lambda: tab.runs.rowCount() == 2)
        tab.select_runs([2])
        identity = tab.timeline_pane.identity
        qtbot.waitUntil(lambda: identity.isVisibleTo(tab) and uid in identity.line.text())
        assert "from-support.json" in identity.line.text()
        qtbot.wait(200)
        save(window, f"runs-uid-imported-{language}")
        identity.copy_button.click()
        assert QApplication.clipboard().text() == uid
        assert uid in tab.status.text()
        tab.select_runs([live])
        qtbot.waitUntil(lambda: live_uid in identity.line.text())
        assert "from-support.json" not in identity.line.text()
    finally:
        switch_language("en")
