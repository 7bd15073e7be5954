"""A run of ours with the spans the demo server (the official mcp SDK, with the OpenTelemetry SDK's
tracer provider) wrote for its requests: imported, they are steps of the run under ours (the step
whose leg carried the request), the server's tools/call with its service and attributes in the step
detail; English and German."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.gui.runs.timeline_tree import DepthRole
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import open_run, tab_shown
from tests.gui.test_screenshots import save
from tests.support.cli_process import cli_here
from tests.support.traced_demo import traced_demo


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_servers_spans_sit_beside_our_step(qtbot, make_window, tmp_path: Path, language: str) -> None:
    spans = tmp_path / "server-spans.jsonl"
    with traced_demo(spans) as url:
        done = cli_here("call", url, "echo", "--args", '{"text": "hi"}', "--db", str(resolve_db_path()))
        assert done.returncode == 0, done.stderr
    with RunStore.open(resolve_db_path()) as store:
        [run] = store.list_runs()
        assert import_trace(store, spans).joined_uids == (run.uid,)
    window, tab = open_run(qtbot, make_window, run.id)
    switch_language(language)
    try:
        details = COLUMNS.index("details")
        texts = [tab.timeline.index(row, details).data() for row in range(tab.timeline.rowCount())]
        # Our step first, the server's spans of its legs under it (their parent is one of its legs), in time order.
        assert len(texts) == 4 and texts[0].startswith("echo")
        assert [tab.timeline.index(row, 0).data(DepthRole) for row in range(4)] == [0, 1, 1, 1]
        server = next(row for row, text in enumerate(texts) if row and text.startswith("echo"))
        tab.select_step(server)
        detail = tab.detail
        assert "demo-mcp-server" in detail.summary.text()
        assert tab_shown(detail, detail.span.attributes)
        model = detail.span.attributes.model
        keys = {model.row_at(row).key for row in range(model.rowCount())}
        assert {"mcp.method.name", "gen_ai.tool.name", "jsonrpc.request.id"} <= keys
        save(window, f"runs-joined-server-spans-{language}", grey=True)
    finally:
        switch_language("en")
