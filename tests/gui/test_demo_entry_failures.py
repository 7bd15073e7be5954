"""A call of the window's demo entry that ran out of its budget: the German window's Result said "Der Server Demo
server hat tools/call …", the entry's stored English name, where the rest of the window says "Demo-Server" (the
client says the sentence before the window sees it). It now names the entry as the window shows it, in the language
switched to as well; the run stored keeps the English sentence with the stored name. The real window with its real
demo server process."""

from __future__ import annotations

from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from tests.gui.test_demo_entry import demo_entry, launch  # noqa: F401 - the fixture, with its window
from tests.gui.test_server_questions import finish


def test_a_call_that_ran_out_of_its_budget_names_the_demo_entry_as_shown(qtbot, launch) -> None:  # noqa: F811
    switch_language("de")
    try:
        window = launch()
        entry = demo_entry(window)
        window.admin.save_server(entry.url, "Demo server", 1, {}, set())  # a budget of 1 s: "hang" runs out of it
        window.admin.reload_servers(select_url=entry.url)
        qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=30000)
        assert window.workbench.tools.select_tool("hang")
        outcome = finish(qtbot, window.workbench.run_current_tool(), timeout_ms=20000)
        assert outcome.status == "failed"
        result = window.workbench.result.text
        # "… der 1 s beantwortet, die vom Budget … übrig waren", or "… der ihm zugeteilten 1 s …" where less than a
        # second was left when the call was sent (a loaded machine): the server named as shown either way.
        assert result.toPlainText().startswith("Der Server Demo-Server hat tools/call nicht innerhalb der "), \
            result.toPlainText()
        model = window.workbench.operations.model
        assert "tools/call hang @ Demo-Server\n" in model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
        switch_language("en")
        assert result.toPlainText().startswith("The server Demo server did not finish answering tools/call within "
                                               "the "), result.toPlainText()
    finally:
        switch_language("en")
    [stored] = window.store.db.conn.execute("SELECT payload FROM steps WHERE run_id = ?", (outcome.run_id,)).fetchall()
    assert '"toolResult":"The server Demo server did not finish answering tools/call' in stored[0]
