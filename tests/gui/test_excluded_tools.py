"""The window's tool list shows the tools a server listed but that must not be called: after the
others, greyed and disabled, the reason in the tooltip and the accessible text."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.workbench.engine import OperationsEngine
from inspector.gui.workbench.tools_panel import ToolsPanel
from inspector.mcp import McpClient, ServerEndpoint
from inspector.mcp.param_headers import split_catalogue
from inspector.mcp.results import ToolCatalogue
from tests.support.fault_server import Exchange, FaultServer

SHOTS = Path(__file__).parent / "screenshots"  # git-ignored: for looking at, not for comparing

TOOLS = [
    {"name": "valid_tool", "description": "Routes on its region.",
     "inputSchema": {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}},
    {"name": "invalid_number_header", "description": "A score sent as a header.",
     "inputSchema": {"type": "object", "properties": {"score": {"type": "number", "x-mcp-header": "Score"}}}},
    {"name": "plain", "inputSchema": {"type": "object"}},
    {"name": "invalid_space_in_name",
     "inputSchema": {"type": "object", "properties": {"value": {"type": "string", "x-mcp-header": "My Region"}}}},
]


class SplittingClient(McpClient):
    """What the stateless era over HTTP does with a catalogue (the lead's client calls the same)."""

    async def list_tools(self, *args, **kwargs) -> ToolCatalogue:
        catalogue = await super().list_tools(*args, **kwargs)
        valid, excluded = split_catalogue(catalogue.tools)
        return ToolCatalogue(valid, catalogue.pages, excluded)


def catalogue_work(exchange: Exchange) -> None:
    if exchange.request.rpc_method == "tools/list":
        exchange.send_result({"tools": TOOLS})
    else:
        exchange.send_result({})


def test_excluded_tools_are_listed_greyed_after_the_others_with_the_reason(qtbot) -> None:
    engine = OperationsEngine(None, client_factory=SplittingClient)
    panel = ToolsPanel()
    qtbot.addWidget(panel)
    panel.resize(420, 260)
    panel.show()
    try:
        with FaultServer("stateless", work=catalogue_work) as server:
            task = engine.list_tools(ServerEndpoint(server.url), budget_s=10)
            panel.loading(task)
            with qtbot.waitSignal(task.finished, timeout=15000):
                pass
        model, proxy = panel.model, panel.proxy
        assert model.rowCount() == 4
        shown = [proxy.index(row, 0).data() for row in range(proxy.rowCount())]
        assert shown == ["valid_tool", "plain", "invalid_number_header (excluded)",
                         "invalid_space_in_name (excluded)"]
        excluded = model.index(2, 0)
        assert not model.flags(excluded) & Qt.ItemFlag.ItemIsEnabled
        assert not model.flags(excluded) & Qt.ItemFlag.ItemIsSelectable
        assert excluded.data(Qt.ItemDataRole.UserRole + 1) is None  # nothing can run it
        assert "of type number" in excluded.data(Qt.ItemDataRole.ToolTipRole)
        assert "A score sent as a header." in excluded.data(Qt.ItemDataRole.ToolTipRole)
        assert "excluded: The x-mcp-header annotation" in excluded.data(Qt.ItemDataRole.AccessibleTextRole)
        assert panel.state.text() == "2 tools in 1 page. 2 more excluded (point at one to see why)."
        assert panel.current_tool()["name"] == "valid_tool"
        qtbot.keyClicks(panel.filter, "space")  # the filter finds excluded tools too
        assert [proxy.index(row, 0).data() for row in range(proxy.rowCount())] == [
            "invalid_space_in_name (excluded)"]
        panel.filter.clear()
        SHOTS.mkdir(parents=True, exist_ok=True)
        panel.grab().save(str(SHOTS / "excluded-tools-en.png"))
        switch_language("de")
        try:
            assert "vom Typ number" in excluded.data(Qt.ItemDataRole.ToolTipRole)
            assert panel.state.text() == "2 Tools auf 1 Seite. 2 weitere ausgeschlossen (Grund im Tooltip)."
            assert excluded.data() == "invalid_number_header (ausgeschlossen)"
            panel.grab().save(str(SHOTS / "excluded-tools-de.png"))
        finally:
            switch_language("en")
    finally:
        engine.shutdown()
