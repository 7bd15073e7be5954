"""Command servers in the store: the transport and the command kept, secret variables only in the keyring."""

from __future__ import annotations

import sqlite3

from inspector.agent.server_commands import command_of, configured_command, setting_of
from inspector.mcp.server import ServerEndpoint
from inspector.mcp.server_command import ServerCommand
from inspector.store import ServerRegistry, open_database
from tests.unit.store.test_store_servers import MemoryKeeper


def test_a_command_server_is_kept_with_its_secret_variables_in_the_keyring_only(tmp_path) -> None:
    path = tmp_path / "runs.db"
    keeper = MemoryKeeper()
    registry = ServerRegistry(open_database(path), keeper)
    command = ServerCommand("npx", ("-y", "@modelcontextprotocol/server-everything", "stdio"),
                            {"GITHUB_TOKEN": "ghp_secret_value_123", "LOG": "debug", "MARKED": "hidden-value-77"},
                            "/tmp", secret_env=frozenset({"MARKED"}))
    server = ServerEndpoint.for_command(command, name="everything")
    registry.save_server(server.key, name="everything", command=setting_of(command))

    raw = sqlite3.connect(path).execute("SELECT transport, command FROM servers").fetchone()
    assert raw[0] == "stdio"
    assert "ghp_secret_value_123" not in raw[1] and "hidden-value-77" not in raw[1] and '"debug"' in raw[1]
    assert keeper.kept == {(server.key, "env:GITHUB_TOKEN"): "ghp_secret_value_123",
                           (server.key, "env:MARKED"): "hidden-value-77"}

    [record] = registry.all()
    assert record.transport == "stdio" and record.url == "stdio:npx -y @modelcontextprotocol/server-everything stdio"
    assert record.to_dict()["command"]["env"] == [{"name": "GITHUB_TOKEN", "secret": True},
                                                  {"name": "LOG", "secret": False, "value": "debug"},
                                                  {"name": "MARKED", "secret": True}]
    found = registry.find("everything")
    assert found is not None and found.url == server.key
    endpoint = configured_command(registry, server.key, name="everything")
    assert endpoint is not None and endpoint.command is not None
    assert dict(endpoint.command.env) == dict(command.env) and endpoint.command.cwd == "/tmp"
    assert endpoint.secrets().scrub("token ghp_secret_value_123 and debug") == "token [REDACTED] and debug"


def test_without_a_keyring_a_secret_variable_is_asked_for(tmp_path) -> None:
    registry = ServerRegistry(open_database(tmp_path / "runs.db"))
    command = ServerCommand("srv", (), {"API_KEY": "k-1234567"})
    registry.save_server("stdio:srv", command=setting_of(command))
    assert dict(command_of(registry.command_for("stdio:srv")).env) == {}
    asked = registry.command_for("stdio:srv", ask=lambda name: f"typed-{name}")
    assert dict(command_of(asked).env) == {"API_KEY": "typed-API_KEY"}


def test_an_address_keeps_its_transport_and_an_update_keeps_what_is_not_given(tmp_path) -> None:
    registry = ServerRegistry(open_database(tmp_path / "runs.db"))
    registry.save_server("http://127.0.0.1:9/sse", name="old", transport="sse")
    registry.save_server("http://127.0.0.1:9/sse", budget_s=5)
    settings = registry.settings("http://127.0.0.1:9/sse")
    assert settings is not None and settings.transport == "sse" and settings.name == "old"
    registry.save_server("http://127.0.0.1:9/mcp")
    assert registry.settings("http://127.0.0.1:9/mcp").transport == "http"
