"""The Compare view's two sides and the replay shown beside a step name a stored step's content blocks
that are not text, and every block's annotations, in the lines the step detail and ``runs show`` say
for the same step: for live runs of the command line (``call`` and ``replay``, whose own output names
them too), in English and German, as plain text and bounded as the step detail is (an imported step
of thousands of blocks names the first hundred and counts the rest). The server: the fault server on
127.0.0.1 answering with annotated blocks; a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QApplication

from inspector.cli import main
from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.transfer import import_trace
from tests.gui.test_runs_block_lines import ENGLISH, GERMAN, SHOTS, said_by_the_command_line, show_step
from tests.gui.test_runs_compare import open_compare
from tests.integration.test_block_annotations import work
from tests.support.fault_server import FaultServer


def called_twice(capsys) -> tuple[int, int]:
    """Two runs of the ``annotated`` tool, made by ``call``; the second a ``replay`` of the first's step,
    whose own output names the blocks as ``call``'s does."""
    db = str(resolve_db_path())
    with FaultServer("stateless", work=work) as server:
        assert main(["call", server.url, "annotated", "--db", db]) == 0
        called = capsys.readouterr().out
        assert main(["replay", "last:1", "--db", db]) == 0
        replayed = capsys.readouterr().out
    for line in ENGLISH:
        assert line in called and line in replayed
    with RunStore.open(resolve_db_path()) as store:
        first, second = sorted(run.id for run in store.list_runs())
    return first, second


def _side_texts(dialog) -> tuple[str, str]:
    return dialog.sides.first.text.toPlainText(), dialog.sides.second.text.toPlainText()


def test_compare_names_each_sides_blocks_as_the_step_detail_does(qtbot, make_window, capsys, utc) -> None:
    first, second = called_twice(capsys)
    cli = {run_id: said_by_the_command_line(capsys, run_id) for run_id in (first, second)}
    window = make_window(wait_tools=False)
    window.resize(1300, 820)
    detail_text = show_step(qtbot, window, first).result.toPlainText()
    dialog = open_compare(qtbot, window.runs_tab, [first, second])
    qtbot.addWidget(dialog)
    dialog.view.selectRow(0)
    texts = _side_texts(dialog)
    for run_id, text in zip((first, second), texts, strict=True):
        for line in ENGLISH:
            assert line in text
        assert cli[run_id] in text
        assert text.count("Annotations:") == 4  # the hostile ones keep nothing valid
    # The same result lines as the step detail's, blocks and all.
    assert texts[0].endswith(detail_text)
    dialog.resize(1280, 800)
    bar = dialog.sides.first.text.verticalScrollBar()
    dialog.sides.second.text.verticalScrollBar().setValue(bar.maximum())
    bar.setValue(bar.maximum())  # the block lines, as a reader scrolls down to them
    SHOTS.mkdir(parents=True, exist_ok=True)
    QApplication.processEvents()
    assert dialog.grab().save(str(SHOTS / "compare-block-lines-en.png"))
    switch_language("de")
    try:
        QApplication.processEvents()
        german = _side_texts(dialog)
        for text in german:
            for line in GERMAN:
                assert line in text
        assert said_by_the_command_line(capsys, second, "de") in german[1]
        for side in (dialog.sides.first, dialog.sides.second):
            side.text.verticalScrollBar().setValue(side.text.verticalScrollBar().maximum())
        QApplication.processEvents()
        assert dialog.grab().save(str(SHOTS / "compare-block-lines-de.png"))
    finally:
        switch_language("en")


def test_a_replay_beside_its_step_names_its_blocks_as_the_step_detail_does(qtbot, make_window, capsys,
                                                                           utc) -> None:
    original, replay = called_twice(capsys)
    cli = said_by_the_command_line(capsys, replay)
    window = make_window(wait_tools=False)
    window.resize(1280, 800)
    detail = show_step(qtbot, window, original)
    view = detail.replays
    qtbot.waitUntil(lambda: not view.other.isHidden(), timeout=5000)
    assert view.other.heading.text() == f"Replay (run {replay})"
    beside = view.other.result.toPlainText()
    for line in ENGLISH:
        assert line in beside
    assert cli in beside
    assert beside == detail.result.toPlainText()  # the same answer, said the same way on both sides
    tab = window.runs_tab  # room for the two sides, as a reader makes it
    tab.arrangement.user_split = True  # as a drag of the splitters leaves it
    window.main.setSizes([180, 1100])
    tab.split.setSizes([110, 650])
    tab.lower.setSizes([240, 860])
    QApplication.processEvents()
    bar = view.other.result.verticalScrollBar()
    bar.setValue(bar.maximum())
    detail.result.verticalScrollBar().setValue(detail.result.verticalScrollBar().maximum())
    SHOTS.mkdir(parents=True, exist_ok=True)
    QApplication.processEvents()
    assert window.grab().save(str(SHOTS / "replay-block-lines-en.png"))
    assert detail.grab().save(str(SHOTS / "replay-block-lines-detail-en.png"))
    switch_language("de")
    try:
        QApplication.processEvents()
        german = view.other.result.toPlainText()
        for line in GERMAN:
            assert line in german
        assert said_by_the_command_line(capsys, replay, "de") in german
        qtbot.wait(200)  # the window lays itself out again in German before it is shot
        bar.setValue(bar.maximum())
        detail.result.verticalScrollBar().setValue(detail.result.verticalScrollBar().maximum())
        QApplication.processEvents()
        assert window.grab().save(str(SHOTS / "replay-block-lines-de.png"))
        assert detail.grab().save(str(SHOTS / "replay-block-lines-detail-de.png"))
    finally:
        switch_language("en")
    # The replay's own step: the original beside it, named the same way.
    detail = show_step(qtbot, window, replay)
    qtbot.waitUntil(lambda: view.other.heading.text().startswith("Original"), timeout=5000)
    for line in ENGLISH:
        assert line in view.other.result.toPlainText()


def _many_blocks_step(replay_of: dict | None = None) -> dict:
    blocks = [{"type": "resource_link", "uri": f"demo://item/{number}", "name": f"<b>item {number}</b>",
               "annotations": {"audience": ["user"], "priority": 0.5}} for number in range(5000)]
    blocks[1] = {"type": "resource", "uri": "demo://big", "mimeType": "text/plain", "text": "line\n" * 200_000}
    payload = {"kind": "tool", "round": 1, "durationMs": 12.5, "toolName": "many", "toolResult": "Many links.",
               "toolIsError": False, "toolOutcome": "ok", "contentBlocks": blocks, "contentBlocksDropped": 1234}
    if replay_of is not None:
        payload["replayOf"] = replay_of
    return {"sequence": 1, "started_at": "2026-11-30T08:00:00.500000Z", "payload": payload}


def _many_blocks_runs(tmp_path: Path) -> tuple[int, int]:
    """Two imported runs of one step of 5,000 blocks each, the second a replay of the first's step."""
    runs = [{"uid": uid, "title": "tools/call many", "source": "live", "server": None, "status": "ok",
             "started_at": f"2026-11-30T0{hour}:00:00.000000Z", "finished_at": f"2026-11-30T0{hour}:00:01.000000Z",
             "steps": [step]}
            for uid, hour, step in (("many-blocks-1", 8, _many_blocks_step()),
                                    ("many-blocks-2", 9, _many_blocks_step({"run": "many-blocks-1", "step": 1})))]
    path = tmp_path / "many.trace.json"
    path.write_text(json.dumps({"format": "run-inspector-trace", "version": 1,
                                "exported_at": "2026-11-30T12:00:00.000000Z", "runs": runs}), encoding="utf-8")
    with RunStore.open(resolve_db_path()) as store:
        first, second = import_trace(store, path).run_ids
    return first, second


def _bounded(text: str) -> None:
    assert "Many links.\nResource link <b>item 0</b>: demo://item/0.\n" in text
    assert text.count("Resource link ") == 99 and "demo://item/99." in text and "demo://item/100." not in text
    assert text.count("\n    line") == 10_000 // 5  # the embedded text cut before its lines are made
    assert text.endswith("\n4,900 more content blocks are not named here.\n1,234 more content blocks were not kept.")
    assert len(text) < 120_000


def _german_bounded(text: str) -> None:
    assert text.endswith("\n4.900 weitere Inhaltsblöcke sind hier nicht genannt.\n1.234 weitere Inhaltsblöcke wurden "
                         "nicht behalten.")


def test_thousands_of_blocks_are_named_bounded_in_compare_and_beside_a_replay(qtbot, make_window,
                                                                              tmp_path: Path) -> None:
    first, second = _many_blocks_runs(tmp_path)
    window = make_window(wait_tools=False)
    detail = show_step(qtbot, window, second)  # the replay: the step it replays beside it
    view = detail.replays
    qtbot.waitUntil(lambda: not view.other.isHidden(), timeout=5000)
    assert view.other.heading.text() == f"Original (run {first}, step 1)"
    _bounded(view.other.result.toPlainText())
    assert view.other.result.toPlainText() == detail.result.toPlainText()
    switch_language("de")
    try:
        QApplication.processEvents()
        assert view.other.heading.text() == f"Original (Lauf {first}, Schritt 1)"
        _german_bounded(view.other.result.toPlainText())
    finally:
        switch_language("en")
    dialog = open_compare(qtbot, window.runs_tab, [first, second])
    qtbot.addWidget(dialog)
    dialog.view.selectRow(0)
    for text in _side_texts(dialog):
        _bounded(text)
    switch_language("de")
    try:
        QApplication.processEvents()
        for text in _side_texts(dialog):
            _german_bounded(text)
    finally:
        switch_language("en")
