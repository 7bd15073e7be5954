"""A tool's structured content in a stored run, in the window: a tool that returns structured content and
no text (MCP allows it) shows its JSON in the Runs tab's Result under "Its structured content:", as
``runs show`` says it, and its Structured tab holds it; a tool that returns text and structured content
shows its text, and its structured content in the Structured tab. English and German; the server: the
official SDK's low-level server on 127.0.0.1 (tests/support/output_schema_server.py); a real SQLite file."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from inspector.cli import main
from inspector.gui.language import switch_language
from inspector.store import resolve_db_path
from tests.gui.test_runs_block_lines import SHOTS, show_step
from tests.support.asgi_server import serve_asgi
from tests.support.output_schema_server import build_app

JSON_LINES = "\n".join(f"    {line}" for line in json.dumps({"items": [{"price": 3, "note": "Grüße"}]}, indent=2,
                                                               ensure_ascii=False).splitlines())


@pytest.fixture
def schema_server() -> Iterator[str]:
    with serve_asgi(build_app("http://127.0.0.1:9/never.json")) as url:
        yield url


def run_tool(qtbot, window, tool: str):
    assert window.workbench.tools.select_tool(tool)
    task = window.workbench.run_current_tool()
    with qtbot.waitSignal(task.finished, timeout=15000):
        pass
    return task.outcome


def said_by_runs_show(capsys, run_id: int, language: str) -> str:
    assert main(["runs", "show", str(run_id), "--db", str(resolve_db_path()), "--lang", language]) == 0
    return capsys.readouterr().out


def test_structured_content_without_text_is_shown_in_the_runs_tab_as_runs_show_says_it(
        qtbot, make_window, schema_server, capsys) -> None:
    window = make_window((schema_server, "Schema server"))
    window.resize(1280, 800)
    outcome = run_tool(qtbot, window, "structure_only")
    assert outcome.status == "ok"
    result = window.workbench.result  # the Workbench shows the answer's structure as a tree
    qtbot.waitUntil(lambda: result.tree.isVisible() and result.tree.height() > 0, timeout=5000)
    assert result.structure.item(0, 0).text() == "items"
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(SHOTS / "structured-workbench-en.png"))
    detail = show_step(qtbot, window, outcome.run_id)
    text = detail.result.toPlainText()
    assert text == "The tool returned no textual content.\nIts structured content:\n" + JSON_LINES
    assert "    Its structured content:\n" + "\n".join(f"    {line}" for line in JSON_LINES.splitlines()) in \
        said_by_runs_show(capsys, outcome.run_id, "en")
    assert json.loads(detail.structured.toPlainText()) == {"structuredContent": {"items": [{"price": 3,
                                                                                            "note": "Grüße"}]}}
    assert detail.tabs.isTabVisible(detail.tabs.indexOf(detail.structured))
    timeline = window.runs_tab.timeline
    assert len(timeline.find("its structured content")) == 1  # Find finds what the Result tab shows
    assert window.grab().save(str(SHOTS / "structured-runs-en.png"))
    switch_language("de")
    try:
        german = detail.result.toPlainText()
        assert german == "Das Tool gab keinen Text zurück.\nSein strukturierter Inhalt:\n" + JSON_LINES
        assert "    Sein strukturierter Inhalt:\n" in said_by_runs_show(capsys, outcome.run_id, "de")
        assert len(timeline.find("sein strukturierter inhalt")) == 1
        qtbot.wait(50)  # the window lays itself out again in German before it is shot
        assert window.grab().save(str(SHOTS / "structured-runs-de.png"))
    finally:
        switch_language("en")


def test_text_and_structured_content_show_the_text_and_keep_the_structure_in_its_tab(
        qtbot, make_window, schema_server) -> None:
    window = make_window((schema_server, "Schema server"))
    window.resize(1280, 800)
    window.workbench.tools.select_tool("quote")
    outcome = run_tool(qtbot, window, "quote")  # its default arguments break the schema (a price of -1)
    assert outcome.status == "failed"
    detail = show_step(qtbot, window, outcome.run_id)
    assert detail.result.toPlainText().endswith("\nquote answered")
    assert "structured" not in detail.result.toPlainText()
    assert json.loads(detail.structured.toPlainText())["structuredContent"] == {
        "items": [{"price": 3}, {"price": 5}, {"price": -1}]}  # what broke the schema, kept
    detail.tabs.setCurrentWidget(detail.structured)
    assert window.grab().save(str(SHOTS / "structured-beside-text-en.png"))


def test_a_replay_with_other_structured_content_is_named_a_different_result(qtbot, make_window,
                                                                             schema_server) -> None:
    """Both answers' text is "The tool returned no textual content.": the window said "the same result"."""
    from inspector.runs import RunStep, StepKind
    from tests.gui.test_replay_step import _finish, _select_step, _stored_tool_step

    window = make_window((schema_server, "Schema server"), wait_tools=False)
    tab, run_id = _stored_tool_step(window, "tools/call tally", "live", schema_server, RunStep(
        kind=StepKind.TOOL, round=0, duration_ms=3.0, tool_name="tally", tool_arguments={},
        tool_result="The tool returned no textual content.", tool_is_error=False, tool_outcome="ok",
        structured_content={"calls": 99}, budget_s=4))
    _select_step(qtbot, tab, run_id)
    with qtbot.waitSignal(window.engine.submitted, timeout=5000) as submitted:
        tab.detail.replay.click()
    assert _finish(qtbot, submitted.args[0]).status == "ok"
    window.tabs.setCurrentWidget(tab)
    _select_step(qtbot, tab, run_id)
    view = tab.detail.replays
    qtbot.waitUntil(lambda: not view.other.isHidden(), timeout=5000)
    assert view.verdict.text().startswith("Replay: the same outcome, a different result, ")
    assert view.other.result.toPlainText().endswith('Its structured content:\n    {\n      "calls": 1\n    }')
