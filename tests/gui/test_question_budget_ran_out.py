"""A question the server asked while the operation's budget ran out (its dialog still open): the
dialog closes, and the result says the client declined, never "the answer was ?" (the client had
answered with an error, not an action). The official SDK server on 127.0.0.1 (`ask_name`), English and
German, in the Workbench's result and in the stored step's detail."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.store.browse import step_in_full, timeline_page

DECLINED = {"en": "The server asked the client for elicitation/create once; the client declined.",
            "de": "Der Server hat den Client einmal um elicitation/create gebeten; der Client hat abgelehnt."}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_question_left_open_until_the_budget_ran_out_reads_declined(qtbot, make_window, sdk_server,
                                                                      language) -> None:
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    switch_language(language)
    try:
        endpoint = window.admin.endpoint_for(window.servers.current())
        task = window.engine.call_tool(endpoint, "ask_name", {}, budget_s=1.5)
        qtbot.waitUntil(lambda: bool(window.dialogs), timeout=5000)
        [dialog] = window.dialogs.values()
        with qtbot.waitSignal(task.finished, timeout=10000):
            pass  # nobody answers
        qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5000)
        window.workbench.result.show_task(task)
        shown = window.workbench.result.text.toPlainText()
        assert DECLINED[language] in shown, shown
        assert "?." not in shown, shown
        with RunStore.open(resolve_db_path()) as store:
            run_id = store.list_runs(limit=1)[0].id
            (row,) = timeline_page(store, run_id, 0, 10)
            step = step_in_full(store, row.id)
        from inspector.gui.runs.step_detail import StepDetail

        detail = StepDetail()
        qtbot.addWidget(detail)
        detail.show_step(step)
        stored = detail.server_side.toPlainText()
        assert DECLINED[language] in stored and "?." not in stored, stored
    finally:
        switch_language("en")
