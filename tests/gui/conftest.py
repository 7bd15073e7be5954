"""Window tests: offscreen Qt, settings in a temporary file, real servers on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from inspector.mcp import ServerEndpoint
from tests.support.asgi_server import serve_asgi
from tests.support.sdk_server import ToolEvents, build_sdk_server


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never the user's settings: every test gets its own settings file."""
    path = tmp_path / "settings.ini"
    monkeypatch.setenv("RUN_INSPECTOR_SETTINGS", str(path))
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    return path


@dataclass
class SdkServer:
    url: str
    events: ToolEvents

    @property
    def endpoint(self) -> ServerEndpoint:
        return ServerEndpoint(self.url, name="sdk server")


@pytest.fixture
def sdk_server() -> Iterator[SdkServer]:
    """The official SDK server (echo, add, explode, slow) on a free port."""
    events = ToolEvents()
    app = build_sdk_server(events).streamable_http_app(json_response=False, stateless_http=False)
    with serve_asgi(app) as url:
        yield SdkServer(url, events)
