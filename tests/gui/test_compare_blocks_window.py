"""The window's Compare judges a tool step by its content blocks too, as ``compare`` does: two calls
whose answers have the same text and link to other addresses differ, and the row says how, in
English and German (screenshots: compare-content-blocks-en/de)."""

from __future__ import annotations

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_compare import cells, open_compare
from tests.gui.test_screenshots import save
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here
from tests.support.sdk_server import build_sdk_server


def test_answers_whose_resource_links_differ_are_not_alike(qtbot, make_window, qtmodeltester) -> None:
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        for _ in range(2):  # the first answer links to demo://a, the second to demo://b
            done = cli_here("call", url, "link", "--db", str(resolve_db_path()))
            assert done.returncode == 0, done.stderr
    # The two calls as long as each other: on a loaded machine one took 0.1 s longer, and the summary
    # counted it "faster" beside the blocks (it is the blocks this test is about).
    with RunStore.open(resolve_db_path()) as store, store.transaction():
        store.db.conn.execute("UPDATE steps SET duration_ms = 20, payload = json_set(payload, '$.durationMs', 20)")
    window = make_window(wait_tools=False)
    window.tabs.setCurrentWidget(window.runs_tab)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.row_of(2) is not None)
    dialog = open_compare(qtbot, tab, [1, 2])
    qtbot.addWidget(dialog)
    qtmodeltester.check(dialog.model)
    assert dialog.summary.text() == "0 steps alike and 1 with other content blocks"
    assert cells(dialog.model, "mark") == ["≠"] and cells(dialog.model, "differences") == ["other content blocks"]
    save(dialog, "compare-content-blocks-en")
    switch_language("de")
    try:
        assert dialog.summary.text() == "0 Schritte gleich und 1 mit anderen Inhaltsblöcken"
        assert cells(dialog.model, "differences") == ["andere Inhaltsblöcke"]
        save(dialog, "compare-content-blocks-de")
    finally:
        switch_language("en")
