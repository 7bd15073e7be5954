"""The Runs tab's Result names a stored step's content blocks that are not text, and every block's
annotations, in the lines ``runs show`` says for the same step: for a live run of the window, for an
imported trace of our format and an OTLP import, in English and German, as plain text and bounded
(an imported step of thousands of blocks names the first hundred and counts the rest). The server:
the fault server on 127.0.0.1 answering with annotated blocks; a real SQLite file."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.cli.results import block_lines as cli_block_lines
from inspector.store import RunStore, resolve_db_path
from inspector.transfer import export, import_trace
from tests.gui.test_main_window import choose, finished
from tests.integration.test_block_annotations import work
from tests.support.fault_server import FaultServer
from tests.support.runs_tab import RunsShown

SHOTS = Path(os.environ.get("RUN_INSPECTOR_SHOTS", Path(__file__).parent / "screenshots"))

ENGLISH = [
    "Text (39 bytes).\n  Annotations: for the user only · priority 0.9 · changed 11/30/26, 2:02\u202fPM",
    "Image (image/png, 32 bytes).\n  Annotations: for the assistant only · priority 0",
    "Resource link log: demo://log/1.\n  Annotations: for the user and the assistant · priority 1",
    "Embedded resource demo://notes (text/plain, 5 bytes).\n    notes",
    "Audio (audio/wav, 3 bytes).",
    "Image (image/png, 32 bytes).\n  Annotations: for no one",
]
GERMAN = [
    "Text (39 Bytes).\n  Anmerkungen: nur für den Benutzer · Priorität 0,9 · geändert 30.11.26, 14:02",
    "Bild (image/png, 32 Bytes).\n  Anmerkungen: nur für den Assistenten · Priorität 0",
    "Ressourcen-Link log: demo://log/1.\n  Anmerkungen: für den Benutzer und den Assistenten · Priorität 1",
    "Eingebettete Ressource demo://notes (text/plain, 5 Bytes).\n    notes",
]


def show_step(qtbot, window, run_id: int):
    """The Runs tab with the run's one step shown in its detail."""
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    RunsShown(qtbot, window).select(run_id, steps=1)
    tab.select_step(0)
    qtbot.waitUntil(lambda: tab.detail.step is not None, timeout=5000)
    return tab.detail


def said_by_the_command_line(capsys, run_id: int, language: str = "en") -> str:
    """The block lines of ``runs show`` for the run's one step (the CLI's own function on the stored
    payload), checked to be in what the command printed, indented under the step's row."""
    from inspector.i18n import current_language, set_language

    before = current_language()
    try:
        assert main(["runs", "show", str(run_id), "--db", str(resolve_db_path()), "--json"]) == 0
        [entry] = json.loads(capsys.readouterr().out)["timeline"]
        set_language(language)
        lines = [line for block in entry["payload"]["contentBlocks"] for line in cli_block_lines(block)]
        assert main(["runs", "show", str(run_id), "--db", str(resolve_db_path()), "--lang", language]) == 0
        assert "\n".join(f"    {line}" for line in lines) in capsys.readouterr().out
    finally:
        set_language(before)
    return "\n".join(lines)


def test_a_live_runs_step_names_its_blocks_and_annotations_as_runs_show_does(qtbot, make_window, capsys,
                                                                               utc) -> None:
    from inspector.gui.language import switch_language

    with FaultServer(work=work) as server:
        window = make_window((server.url, "annotating"), era="handshake")
        window.resize(1280, 800)
        choose(window, "annotated")
        outcome = finished(qtbot, window.workbench.run_current_tool())
        assert outcome.status == "ok"
    detail = show_step(qtbot, window, outcome.run_id)
    text = detail.result.toPlainText()
    assert text.startswith("[6 blocks are not shown as text: 1 audio clip, 3 images, 1 embedded resource, "
                           "1 resource link.]\nShown to the user, kept from the model.\nPlain words.\nText (39 bytes).")
    for line in ENGLISH:
        assert line in text
    assert text.count("Annotations:") == 4  # the hostile ones keep nothing valid
    assert said_by_the_command_line(capsys, outcome.run_id) in text
    assert detail._result_text == text  # what Copy result copies
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "runs-block-lines-en.png"))
    bar = detail.result.verticalScrollBar()
    bar.setValue(bar.maximum())  # the block lines, as a reader scrolls down to them
    assert detail.grab().save(str(SHOTS / "runs-block-lines-detail-en.png"))
    switch_language("de")
    try:
        german = detail.result.toPlainText()
        for line in GERMAN:
            assert line in german
        assert said_by_the_command_line(capsys, outcome.run_id, "de") in german
        qtbot.wait(50)  # the window lays itself out again in German before it is shot
        assert window.grab().save(str(SHOTS / "runs-block-lines-de.png"))
        bar.setValue(bar.maximum())
        assert detail.grab().save(str(SHOTS / "runs-block-lines-detail-de.png"))
    finally:
        switch_language("en")


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_an_imported_steps_blocks_are_named_as_runs_show_does(qtbot, make_window, capsys, tmp_path: Path,
                                                              file_format: str, utc) -> None:
    from inspector.gui.language import switch_language

    source = tmp_path / "source.db"
    with FaultServer("stateless", work=work) as server:
        assert main(["call", server.url, "annotated", "--db", str(source)]) == 0
    capsys.readouterr()
    with RunStore.open(source) as store:
        export(store, [1], None, tmp_path / "run.json", file_format)
    with RunStore.open(resolve_db_path()) as store:
        [run_id] = import_trace(store, tmp_path / "run.json").run_ids
    window = make_window(wait_tools=False)
    detail = show_step(qtbot, window, run_id)
    text = detail.result.toPlainText()
    for line in ENGLISH:
        assert line in text
    assert said_by_the_command_line(capsys, run_id) in text
    switch_language("de")
    try:
        german = detail.result.toPlainText()
        for line in GERMAN:
            assert line in german
        assert said_by_the_command_line(capsys, run_id, "de") in german
    finally:
        switch_language("en")


def test_thousands_of_imported_blocks_name_the_first_hundred_and_count_the_rest(qtbot, make_window,
                                                                                 tmp_path: Path) -> None:
    from inspector.gui.language import switch_language

    blocks = [{"type": "resource_link", "uri": f"demo://item/{number}", "name": f"<b>item {number}</b>",
               "annotations": {"audience": ["user"], "priority": 0.5}} for number in range(5000)]
    blocks[1] = {"type": "resource", "uri": "demo://big", "mimeType": "text/plain",
                 "text": "line\n" * 200_000}  # 200,000 lines of an embedded text
    trace = {"format": "run-inspector-trace", "version": 1, "exported_at": "2026-11-30T12:00:00.000000Z",
             "runs": [{"uid": "many-blocks-1", "title": "tools/call many", "source": "live", "server": None,
                       "status": "ok", "started_at": "2026-11-30T08:00:00.000000Z",
                       "finished_at": "2026-11-30T08:00:01.000000Z",
                       "steps": [{"sequence": 1, "started_at": "2026-11-30T08:00:00.500000Z", "payload": {
                           "kind": "tool", "round": 1, "durationMs": 12.5, "toolName": "many",
                           "toolResult": "Many links.", "toolIsError": False, "toolOutcome": "ok",
                           "contentBlocks": blocks, "contentBlocksDropped": 1234}}]}]}
    path = tmp_path / "many.trace.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    with RunStore.open(resolve_db_path()) as store:
        [run_id] = import_trace(store, path).run_ids
    window = make_window(wait_tools=False)
    started = time.monotonic()
    detail = show_step(qtbot, window, run_id)
    shown_in = time.monotonic() - started
    text = detail.result.toPlainText()
    assert text.startswith("Many links.\nResource link <b>item 0</b>: demo://item/0.\n"
                           "  Annotations: for the user only · priority 0.5\n"
                           "Embedded resource demo://big (text/plain).\n    line\n")
    assert text.count("Resource link ") == 99 and "demo://item/99." in text and "demo://item/100." not in text
    assert text.count("\n    line") == 10_000 // 5  # the embedded text cut before its lines are made
    assert text.endswith("\n4,900 more content blocks are not named here.\n1,234 more content blocks were not kept.")
    assert len(text) < 120_000
    assert shown_in < 5, f"the step took {shown_in:.2f} s to show"
    switch_language("de")
    try:
        assert detail.result.toPlainText().endswith(
            "\n4.900 weitere Inhaltsblöcke sind hier nicht genannt.\n1.234 weitere Inhaltsblöcke wurden nicht "
            "behalten.")
    finally:
        switch_language("en")
