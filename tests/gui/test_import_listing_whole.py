"""File → Import servers… of what ``servers --json --with-secrets`` printed gives the servers back as they were: a
header marked secret stays secret (it was kept in the database as a plain value), the address's secret query, the
budget, era and roots (all were dropped). And a listing without values imported where the server is configured
keeps its secret headers (they were taken away: the import replaced its settings with none).

Real parts: the real window and preview offscreen, a real SQLite file, the window's own keeper of secrets."""

from __future__ import annotations

import json
import os
from pathlib import Path

WHOLE = "http://127.0.0.1:9/mcp"
CONFIGURED = "http://127.0.0.1:10/mcp"
TOOL = "stdio:tool-server"


def _imported(window, qtbot, path: Path, servers: list[dict[str, object]]) -> str:
    """Import ``servers`` as ``servers --json`` lists them; what the preview said of the first one's place."""
    from inspector.gui.workbench.server_import import preview

    path.write_text(json.dumps({"servers": servers}), encoding="utf-8")
    dialog = preview(window.admin, path, window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    if shots := os.environ.get("REVIEW_SHOTS"):
        dialog.grab().save(str(Path(shots) / f"{path.stem}.png"))
    place = dialog.table.item(0, 2).text()
    dialog.accept()
    return place


def test_the_whole_listing_and_the_masked_one_keep_what_the_server_had(make_window, qtbot, tmp_path: Path) -> None:
    from inspector.mcp.server_command import ServerCommand
    from inspector.store.servers import HeaderSetting

    window = make_window(wait_tools=False)
    registry = window.admin.registry
    registry.save_server(CONFIGURED, name="configured", headers={"X-Api-Key": "k-3Rt8", "X-Tenant": "acme"})
    place = _imported(window, qtbot, tmp_path / "whole.json", [{
        "url": WHOLE, "name": "whole", "transport": "http", "era": "stateless", "budget_s": 17.0,
        "headers": [{"name": "X-Team", "secret": True, "value": "team-5Nc4"},
                    {"name": "X-Region", "secret": False, "value": "eu"}],
        "secret_query": True, "query": "api_key=q-7Yh2", "roots": [tmp_path.as_uri()]}])
    assert place == f"{WHOLE} (its query kept as a secret); offered the folders (roots): {tmp_path.as_uri()}"
    settings = registry.settings(WHOLE)
    assert settings is not None
    assert (settings.budget_s, settings.era, settings.roots, settings.secret_query) == (
        17.0, "stateless", (tmp_path.as_uri(),), True)
    assert settings.headers == (HeaderSetting("X-Team", True, None), HeaderSetting("X-Region", False, "eu"))
    assert registry.headers_for(WHOLE) == {"X-Team": "team-5Nc4", "X-Region": "eu"}
    assert registry.query_for(WHOLE) == "api_key=q-7Yh2"
    _imported(window, qtbot, tmp_path / "masked.json", [{
        "url": CONFIGURED, "name": "configured", "transport": "http",
        "headers": [{"name": "X-Api-Key", "secret": True}, {"name": "X-Tenant", "secret": False}]}])
    assert registry.headers_for(CONFIGURED) == {"X-Api-Key": "k-3Rt8", "X-Tenant": "acme"}
    # A command server's variables left out of the listing keep the configured values, secret or plain as they were.
    window.admin.save_server(TOOL, "tool", None, {}, set(), command=ServerCommand("tool-server", (), {
        "API_KEY": "e-9Pk2", "DATABASE_URL": "postgres://app:d-4Fg7@db/app"}))
    _imported(window, qtbot, tmp_path / "tool.json", [{
        "url": TOOL, "name": "tool", "transport": "stdio", "command": {
            "program": "tool-server", "args": [], "cwd": None,
            "env": [{"name": "API_KEY", "secret": True}, {"name": "DATABASE_URL", "secret": False}]}}])
    command = registry.command_for(TOOL)
    assert command is not None and {(variable.name, variable.secret, variable.value) for variable in command.env} == {
        ("API_KEY", True, "e-9Pk2"), ("DATABASE_URL", False, "postgres://app:d-4Fg7@db/app")}
    assert registry.settings(CONFIGURED).headers == (HeaderSetting("X-Api-Key", True, None),
                                                     HeaderSetting("X-Tenant", False, "acme"))
