"""Cancel pressed while the server's question is open: the dialog closes, the operation ends cancelled,
and the step says what the server had asked and that no answer was sent. It said nothing of the question
(server-everything's trigger-elicitation-request cancelled in the window: an empty Result below
"Cancelled after the request was sent"). The server: the official SDK's on 127.0.0.1. Screenshots (en,
de) go to RUN_INSPECTOR_SHOTS (default: the screenshot folder)."""

from __future__ import annotations

import os
from pathlib import Path

from inspector.gui.dialogs.elicitation_dialog import ElicitationDialog
from tests.gui.test_main_window import finished

SHOTS = Path(os.environ.get("RUN_INSPECTOR_SHOTS", Path(__file__).parent / "screenshots"))
SAID = ("The server asked the client for elicitation/create once; no answer was sent, as the operation ended "
        "while the client was answering (cancelled, say).")


def test_a_question_open_at_cancel_is_named_in_the_result(qtbot, sdk_server, make_window) -> None:
    from inspector.gui.language import switch_language

    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    window.resize(1280, 800)
    task = window.engine.call_tool(window.admin.endpoint_for(window.servers.current()), "ask_name", {}, budget_s=10)
    qtbot.waitUntil(lambda: bool(window.dialogs), timeout=5000)
    [dialog] = window.dialogs.values()
    assert isinstance(dialog, ElicitationDialog) and dialog.isVisible()
    window.workbench.operations.cancel(task)
    assert finished(qtbot, task).status == "cancelled"
    qtbot.waitUntil(lambda: not window.dialogs)
    [asked] = task.outcome.record.step.to_payload()["serverRequests"]
    assert asked["method"] == "elicitation/create" and asked["declined"] is True
    assert asked["exchanges"][0]["answered"]["code"] == -32800  # kept, never sent
    window.workbench.operations.select(task)
    result = window.workbench.result.text
    qtbot.waitUntil(lambda: SAID in result.toPlainText())
    SHOTS.mkdir(parents=True, exist_ok=True)
    qtbot.wait(50)  # the result pane lays out its sentence before it is shot
    assert window.grab().save(str(SHOTS / "question-open-at-cancel-en.png"))
    switch_language("de")
    try:
        assert ("Der Server hat den Client einmal um elicitation/create gebeten; es wurde keine Antwort gesendet, "
                "da der Vorgang endete, während der Client antwortete (etwa abgebrochen).") in result.toPlainText()
        qtbot.wait(50)  # the window lays itself out again in German before it is shot
        assert window.grab().save(str(SHOTS / "question-open-at-cancel-de.png"))
    finally:
        switch_language("en")
