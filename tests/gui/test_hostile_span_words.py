"""A hostile trace's words in the window (hostile-input tests): roles, tool names and texts that hold
HTML, bidi overrides, control characters, lone surrogates and wrong types, in a model call's
conversation, a Logfire MCP request and a lone content block. The window opens each step and shows
every one of them as plain text: no widget renders the trace's markup."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import open_run
from tests.gui.test_screenshots import save

MARKUP = "<b>bold</b><img src=x>"
ROLE = "\u202e" + MARKUP + "\x1b[31m"
TRACE = "5b8efff798038103d269b633813fc60c"


def _attr(key: str, value) -> dict:
    return {"key": key, "value": value if isinstance(value, dict) else {"stringValue": value}}


def _span(number: int, name: str, attributes: list[dict]) -> dict:
    return {"traceId": TRACE, "spanId": f"{number:016x}", "name": name, "kind": 3,
            "startTimeUnixNano": str(1700000000000000000 + number),
            "endTimeUnixNano": str(1700000001000000000 + number),
            "attributes": attributes}


def _hostile_trace(path: Path) -> Path:
    messages = json.dumps([
        {"role": ROLE, "parts": [{"type": "text", "content": MARKUP + "\u0007"},
                                 {"type": "tool_call", "name": MARKUP, "arguments": {"a": MARKUP}},
                                 {"type": "tool_call_response", "id": MARKUP, "response": 5}]},
        {"role": {"not": "text"}, "parts": 7}, {"role": ["x"], "content": 12}, 1, None])
    messages = messages.replace("\\u0007", "\\u0007\\ud800")  # a lone surrogate the JSON text spells
    chat = _span(1, "chat m", [_attr("gen_ai.operation.name", "chat"), _attr("gen_ai.request.model", MARKUP),
                               _attr("gen_ai.input.messages", messages),
                               _attr("gen_ai.output.messages", '[{"role":"' + MARKUP + '","parts":[NaN]}]'),
                               _attr("gen_ai.system_instructions", "[" * 5000 + "]" * 5000)])
    flat = _span(2, "chat n", [_attr("openinference.span.kind", "LLM"),
                               _attr("llm.input_messages.99999999999.message.content", "too far"),
                               _attr("llm.input_messages.0.message.role", MARKUP),
                               _attr("llm.input_messages.0.message.content", {"intValue": "5"}),
                               _attr("llm.input_messages.1.message.role", {"kvlistValue": {"values": []}})])
    logfire = _span(3, "MCP request: tools/call t", [_attr("request", json.dumps(
        {"method": "tools/call", "params": {"name": ROLE, "arguments": {"k": MARKUP}}}))])
    block = _span(4, "execute_tool t", [_attr("gen_ai.tool.name", ROLE), _attr(
        "gen_ai.tool.call.result", '{"type":"image","data":"!!","mimeType":"' + MARKUP + "\\u202e\\ud800\\u001b\"}")])
    doc = {"resourceSpans": [
        {"resource": {"attributes": [_attr("service.name", MARKUP)]},
         "scopeSpans": [{"scope": {"name": "their-lib"}, "spans": [chat, flat, block]},
                        {"scope": {"name": "logfire"}, "spans": [logfire]}]}]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_every_step_of_a_hostile_trace_shows_its_words_as_plain_text(qtbot, make_window, tmp_path: Path) -> None:
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, _hostile_trace(tmp_path / "hostile.json")).run_ids
    window, tab = open_run(qtbot, make_window, run_id)
    assert tab.timeline.rowCount() == 4
    seen = []
    for row in range(tab.timeline.rowCount()):
        tab.select_step(row)
        shown = tab.detail.result.toPlainText()
        seen.append(shown)
        for label in window.findChildren(QLabel):
            if "<b>" in label.text() and label.isVisible():
                assert label.textFormat() == Qt.TextFormat.PlainText, (label.objectName(), label.text())
        if row == 0:
            save(window, "runs-hostile-model-call")
    said = "\n".join(seen)
    assert "What the model was asked (as the trace recorded it):" in said
    # the role's bidi override is shown as U+FFFD, its escape as a picture of it (as runs show does)
    assert f"  \ufffd{MARKUP}\u241b[31m: {MARKUP}\u2407\ufffd\n" in said
    assert not {"\u202e", "\x1b", "\x07"} & set(said)
    assert f"calls the tool {MARKUP} with" in said
    assert "  ?: (nothing)" in said  # a role that is no text, parts that are no list
    assert "\ud800" not in said


def test_the_timeline_shows_a_hostile_traces_names_as_plain_text(qtbot, make_window, tmp_path: Path) -> None:
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, _hostile_trace(tmp_path / "hostile.json")).run_ids
    window, tab = open_run(qtbot, make_window, run_id)
    model = tab.timeline
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            text = index.data(Qt.ItemDataRole.DisplayRole)
            if isinstance(text, str):
                assert not {"\u202e", "\x1b", "\x07", "\ud800"} & set(text), (row, column, text)
            tip = index.data(Qt.ItemDataRole.ToolTipRole)
            if isinstance(tip, str) and "bold" in tip:
                assert "<b>bold" not in tip and "\u202e" not in tip, (row, column, tip)
    for label in window.findChildren(QLabel):
        if "<b>bold" in label.text():
            assert label.textFormat() == Qt.TextFormat.PlainText, label.text()
