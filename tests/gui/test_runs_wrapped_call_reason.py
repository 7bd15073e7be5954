"""A failed MCP call under an agent's tool span of another name (a framework that names the MCP tool
``fail`` as ``mcp__weather__fail``) that says ok: the importer keeps the agent's own ok (another
tool: not the same call), and the run read "failed" with no reason, in ``runs list``, ``runs show``
and the window's heading alike: the counts were only of calls under no other tool span. The MCP call
is a call of its own: "failed (1 of 2 tool calls failed)" in all three. The real trace of the OpenAI
Agents SDK instrumented by Traceloop (tests/fixtures/otel/), its agent's tool span renamed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import open_run
from tests.support.cli_process import cli_here
from tests.unit.traces.test_otel_agents import FIXTURES

#: The trace of openai_agents_traceloop.jsonl whose agent called the MCP tool ``fail``.
FAIL_TRACE = "8e2e516fa1a32a51daf577bd98c86127"
SAID = {"en": "failed (1 of 2 tool calls failed)", "de": "fehlgeschlagen (1 von 2 Tool-Aufrufen schlug fehl)"}


def prefixed_trace(to: Path) -> Path:
    """That trace alone, its agent's tool span (status OK over the failed call) named ``mcp__weather__fail``."""
    lines = [json.loads(line) for line in
             (FIXTURES / "openai_agents_traceloop.jsonl").read_text(encoding="utf-8").splitlines()]
    for line in lines:
        for resource in line["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                scope["spans"] = [span for span in scope["spans"] if span["traceId"] == FAIL_TRACE]
                for span in scope["spans"]:
                    if span["name"] == "fail.tool":
                        span["name"] = "mcp__weather__fail.tool"
                        for attribute in span["attributes"]:
                            if attribute["key"] == "gen_ai.tool.name":
                                attribute["value"] = {"stringValue": "mcp__weather__fail"}
    to.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return to


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_failed_call_under_an_ok_tool_of_another_name_is_counted_alike(qtbot, make_window, tmp_path: Path,
                                                                          language: str) -> None:
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, prefixed_trace(tmp_path / "prefixed.jsonl")).run_ids
        assert store.get_run(run_id).status == "failed"
        outcomes = {step.payload["toolName"]: step.outcome for step in store.iter_steps(run_id)
                    if step.payload["kind"] == "tool"}
    assert outcomes == {"mcp__weather__fail": "ok", "fail": "failed"}  # the agent's own ok stands
    db = str(resolve_db_path())
    shown = cli_here("--lang", language, "--db", db, "runs", "show", str(run_id)).stdout.splitlines()
    assert f" {SAID[language]}, " in shown[1], shown[1]
    listed = cli_here("--lang", language, "--db", db, "runs", "list", env={"COLUMNS": "250"}).stdout
    assert SAID[language] in listed, listed
    _window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        assert f" — {SAID[language]}, " in tab.timeline_pane.heading.text(), tab.timeline_pane.heading.text()
    finally:
        switch_language("en")
