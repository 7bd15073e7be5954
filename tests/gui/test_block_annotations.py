"""The result pane says a content block's annotations in words after the block's line (who it is for,
its priority, when it changed), in English and German, server text plain; screenshots of both go to
RUN_INSPECTOR_SHOTS (default: the screenshot folder). The server: the fault server on 127.0.0.1."""

from __future__ import annotations

import os
from pathlib import Path

from tests.gui.test_main_window import choose, finished
from tests.integration.test_block_annotations import work
from tests.support.fault_server import FaultServer

SHOTS = Path(os.environ.get("RUN_INSPECTOR_SHOTS", Path(__file__).parent / "screenshots"))



def test_annotations_are_said_in_the_result_pane(qtbot, make_window, utc) -> None:
    from inspector.gui.language import switch_language

    with FaultServer(work=work) as server:
        window = make_window((server.url, "annotating"), era="handshake")
        window.resize(1280, 800)
        choose(window, "annotated")
        assert finished(qtbot, window.workbench.run_current_tool()).status == "ok"
        text = window.workbench.result.text.toPlainText()
        assert ("Text (39 bytes).\n  Annotations: for the user only · priority 0.9 · changed 11/30/26, "
                "2:02\u202fPM\n") in text
        assert "Resource link log: demo://log/1.\n  Annotations: for the user and the assistant · priority 1" in text
        assert "Embedded resource demo://notes (text/plain, 5 bytes).\n    notes" in text  # hostile ones: left out
        assert text.count("Annotations:") == 4
        SHOTS.mkdir(parents=True, exist_ok=True)
        assert window.grab().save(str(SHOTS / "block-annotations-en.png"))
        switch_language("de")
        try:
            german = window.workbench.result.text.toPlainText()
            assert ("Text (39 Bytes).\n  Anmerkungen: nur für den Benutzer · Priorität 0,9 · geändert 30.11.26, "
                    "14:02\n") in german
            assert "Bild (image/png, 32 Bytes).\n  Anmerkungen: nur für den Assistenten · Priorität 0\n" in german
            qtbot.wait(50)  # the window lays itself out again in German before it is shot
            assert window.grab().save(str(SHOTS / "block-annotations-de.png"))
        finally:
            switch_language("en")
