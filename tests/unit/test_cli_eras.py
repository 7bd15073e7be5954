"""The era a command-line operation speaks: ``--era`` over the configured server's era over ``auto``,
for an address, a configured name (address or command) and ``--stdio``; ``servers set --era``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from inspector.agent.server_commands import configured_command, setting_of
from inspector.cli.parser import build_parser
from inspector.cli.server_choice import check_server_words, choose_server
from inspector.mcp.server_command import ServerCommand
from inspector.store import ServerRegistry, open_database

ADDRESS = "http://127.0.0.1:9/mcp"
COMMAND = ServerCommand(sys.executable, ("-m", "tests.support.stdio_server"))


def words(*argv: str) -> argparse.Namespace:
    args = build_parser().parse_args(list(argv))
    check_server_words(args)
    return args


@pytest.fixture
def registry(tmp_path: Path) -> ServerRegistry:
    from inspector.mcp import ServerEndpoint

    registry = ServerRegistry(open_database(tmp_path / "runs.db"))
    registry.save_server(ADDRESS, name="remote", era="stateless")
    registry.save_server(ServerEndpoint.for_command(COMMAND).key, name="local", command=setting_of(COMMAND),
                         era="handshake")
    return registry


def era_of(registry: ServerRegistry | None, *argv: str) -> str:
    return choose_server(registry, words(*argv), None, {}).server.era


def test_the_configured_era_applies_and_era_overrides_it(registry: ServerRegistry) -> None:
    assert era_of(registry, "ping", "remote") == "stateless"
    assert era_of(registry, "ping", ADDRESS) == "stateless"  # the address of a configured server
    assert era_of(registry, "tools", "remote", "--era", "handshake") == "handshake"
    assert era_of(registry, "call", "remote", "echo", "--era", "auto") == "auto"
    assert era_of(registry, "ping", "local") == "handshake"
    assert era_of(registry, "ping", "local", "--era", "stateless") == "stateless"
    stdio = f"{sys.executable} -m tests.support.stdio_server"
    assert era_of(registry, "ping", "--stdio", stdio) == "handshake"  # the configured command's
    assert era_of(registry, "ping", "--stdio", stdio, "--era", "auto") == "auto"


def test_an_unconfigured_server_is_auto_unless_era_says(registry: ServerRegistry) -> None:
    assert era_of(registry, "ping", "http://127.0.0.1:8/mcp") == "auto"
    assert era_of(None, "ping", "http://127.0.0.1:8/mcp", "--era", "stateless") == "stateless"
    assert era_of(None, "ping", "--stdio", "srv --flag", "--era", "handshake") == "handshake"
    assert era_of(None, "ping", "--stdio", "srv --flag") == "auto"


def test_an_unknown_era_is_refused_by_the_grammar() -> None:
    from inspector.cli.common import UsageError

    with pytest.raises(UsageError, match="'auto', 'handshake', 'stateless'"):
        words("ping", ADDRESS, "--era", "modern")


def test_a_configured_command_endpoint_carries_its_era(registry: ServerRegistry) -> None:
    from inspector.mcp import ServerEndpoint

    endpoint = configured_command(registry, ServerEndpoint.for_command(COMMAND).key, name="local")
    assert endpoint is not None and endpoint.era == "handshake"
