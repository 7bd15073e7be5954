"""The step detail names how a stored step's server was reached and shows what it wrote on stderr:
a real command server's step and a real Streamable HTTP server's step, stored in a real database."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from inspector.gui.runs.step_detail import StepDetail
from inspector.mcp import McpClient, ServerEndpoint
from inspector.store import RunStore
from inspector.store.browse import step_in_full, timeline_page
from tests.integration.test_stdio_runs import BEARER, operate, stdio_server
from tests.support.asgi_server import serve_asgi
from tests.support.stdio_server import server as sdk_server


def record(db: Path, server: ServerEndpoint, **arguments: str) -> int:
    async def scenario() -> int:
        client = McpClient()
        try:
            with RunStore.open(db) as store:
                return await operate(store, db, server, client, "call", **arguments)
        finally:
            await client.close()

    return asyncio.run(scenario())


def shown(qtbot, db: Path, run_id: int) -> StepDetail:
    detail = StepDetail()
    qtbot.addWidget(detail)
    with RunStore.open(db) as store:
        (row,) = timeline_page(store, run_id, 0, 10)
        detail.show_step(step_in_full(store, row.id))
    return detail


def test_a_command_servers_step_names_stdio_its_command_and_its_stderr(qtbot, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    run_id = record(db, stdio_server(), tool="say_on_stderr", text=f"Authorization: {BEARER}\n<b>not bold</b>")
    detail = shown(qtbot, db, run_id)
    assert detail.wire.text().startswith("Reached over stdio, MCP 20")
    # The token its command line was started with as "…", as everything that names the server says it.
    assert f"Command: API_TOKEN=… {sys.executable} -m tests.support.stdio_server --token …" in detail.wire.text()
    assert "ghp_" not in detail.wire.text() + detail.stderr.toPlainText()
    assert detail.wire.textFormat() == detail.wire.textFormat().PlainText and not detail.wire.isHidden()
    text = detail.stderr.toPlainText()
    assert f"The server wrote on stderr:\nstdio test server starting\nAuthorization: {BEARER}\n<b>not bold</b>" in text
    assert "Reached over stdio" in text.splitlines()[0]
    assert detail.tabs.isTabVisible(detail.tabs.indexOf(detail.stderr))
    detail.show_step(None)
    assert detail.stderr.toPlainText() == "" and detail.wire.isHidden()
    assert not detail.tabs.isTabVisible(detail.tabs.indexOf(detail.stderr))


def test_a_streamable_http_step_names_its_transport_and_has_no_command(qtbot, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with serve_asgi(sdk_server.streamable_http_app(), "/mcp") as url:
        run_id = record(db, ServerEndpoint(url), tool="echo", text="hi")
    detail = shown(qtbot, db, run_id)
    assert detail.wire.text().startswith("Reached over Streamable HTTP, MCP 20")
    assert "Command" not in detail.wire.text()
    # An address's step has no process to show: its detail keeps the five tabs that fit.
    assert not detail.tabs.isTabVisible(detail.tabs.indexOf(detail.stderr))
