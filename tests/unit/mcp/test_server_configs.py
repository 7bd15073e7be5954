"""Other clients' configuration files read as server entries, and commands typed as a shell splits them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from inspector.mcp.server_command import (
    InvalidCommandError,
    ServerCommand,
    parse_command_line,
    parse_env_assignment,
)
from inspector.mcp.server_configs import ServerConfigError, parse_server_config, read_server_config


def config(document: object) -> bytes:
    return json.dumps(document).encode()


def test_a_command_line_is_split_as_a_shell_would_and_nothing_is_expanded() -> None:
    command = parse_command_line("npx -y '@scope/server x' \"a b\" $HOME *.txt", env={"API_KEY": "sk-secret"})
    assert command.argv == ["npx", "-y", "@scope/server x", "a b", "$HOME", "*.txt"]
    assert "sk-secret" not in repr(command) and "sk-secret" not in command.shown()
    assert command.shown() == "API_KEY=… npx -y '@scope/server x' 'a b' '$HOME' '*.txt'"


@pytest.mark.parametrize(("text", "words"), [
    ("", "empty"), ("   ", "empty"), ("npx 'unclosed", "not closed"), ("a\0b", "NUL"),
    ("x" * 40_000, "40,000 characters"), ("prog " + "a " * 1_001, "more than 1,000"),
])
def test_a_command_that_cannot_start_is_named(text: str, words: str) -> None:
    with pytest.raises(InvalidCommandError) as raised:
        parse_command_line(text)
    assert words in str(raised.value)


def test_an_environment_assignment_names_a_bad_name_but_never_the_value() -> None:
    assert parse_env_assignment("TOKEN=a=b") == ("TOKEN", "a=b")
    with pytest.raises(InvalidCommandError, match="NAME=value"):
        parse_env_assignment("TOKEN")
    with pytest.raises(InvalidCommandError) as raised:
        ServerCommand("prog", env={"1BAD NAME": "sk-live-secret"})
    assert "1BAD NAME" in str(raised.value) and "sk-live-secret" not in str(raised.value)


def test_claude_desktop_and_cursor_entries_become_commands_and_addresses() -> None:
    read = parse_server_config(config({"mcpServers": {
        "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
                       "env": {"API_KEY": "sk-1"}},
        "remote": {"url": "https://api.example.com/mcp", "headers": {"X-Tenant": "acme"}},
        "legacy": {"type": "sse", "url": "http://127.0.0.1:8080/sse"},
        "broken": {"args": ["x"]},
    }}))
    assert read.format == "mcpServers"
    by_name = {server.name: server for server in read.servers}
    assert by_name["filesystem"].command.argv == ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
    assert dict(by_name["filesystem"].command.env) == {"API_KEY": "sk-1"}
    assert (by_name["remote"].url, by_name["remote"].transport, dict(by_name["remote"].headers)) == (
        "https://api.example.com/mcp", "http", {"X-Tenant": "acme"})
    assert by_name["legacy"].transport == "sse"
    [skipped] = read.skipped
    assert skipped.name == "broken" and "neither a 'command' nor a 'url'" in str(skipped.reason)


def test_vscode_entries_need_a_type_and_their_prompted_values_are_left_for_the_user() -> None:
    read = parse_server_config(config({
        "inputs": [{"type": "promptString", "id": "api-key", "password": True}],
        "servers": {"my": {"type": "stdio", "command": "npx", "args": ["-y", "pkg"],
                           "env": {"API_KEY": "${input:api-key}", "MODE": "fast"}},
                    "untyped": {"command": "npx"},
                    "web": {"type": "http", "url": "http://127.0.0.1:3000/mcp",
                            "headers": {"Authorization": "Bearer ${input:token}"}},
                    "websocket": {"type": "ws", "url": "ws://x"}}}))
    assert read.format == "vscode"
    by_name = {server.name: server for server in read.servers}
    assert by_name["my"].asks_for == ("API_KEY",) and dict(by_name["my"].command.env) == {"MODE": "fast"}
    assert by_name["web"].asks_for == ("Authorization",) and dict(by_name["web"].headers) == {}
    reasons = {skipped.name: str(skipped.reason) for skipped in read.skipped}
    assert "no 'type'" in reasons["untyped"] and "'ws'" in reasons["websocket"]


@pytest.mark.parametrize(("data", "words"), [
    (b"\xff\xfe{", "not UTF-8"), (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"mcpServers": ', "not valid JSON"), (b"[]", "no server list"), (b'{"servers": "none"}', "no server list"),
    (config({"mcpServers": {f"s{n}": {"command": "x"} for n in range(501)}}), "501 servers"),
])
def test_a_file_that_is_no_server_configuration_is_named(data: bytes, words: str) -> None:
    with pytest.raises(ServerConfigError) as raised:
        parse_server_config(data, "mcp.json")
    assert words in str(raised.value)


def test_json_that_does_not_parse_is_said_where_and_why_in_the_readers_language() -> None:
    """It said Python's English ("Invalid control character at: line 1 column 9 (char 8)"), in German too."""
    from inspector import i18n
    from inspector.i18n.messages import translate

    with pytest.raises(ServerConfigError) as raised:
        parse_server_config(b'{"broken\n', "mcp.json")
    assert str(raised.value) == ("mcp.json is not valid JSON at line 1, column 9: a control character inside a "
                                 "string (it must be escaped)")
    assert i18n.set_language("de") == "de"
    try:
        assert translate(raised.value.sentence) == (
            "mcp.json ist in Zeile 1, Spalte 9 kein gültiges JSON: ein Steuerzeichen in einer Zeichenkette (es muss "
            "maskiert werden)")
    finally:
        i18n.set_language("en")


def test_entries_of_the_wrong_shape_are_skipped_with_a_reason_and_the_rest_kept() -> None:
    read = parse_server_config(config({"mcpServers": {
        "args-not-list": {"command": "x", "args": "-y"}, "env-number": {"command": "x", "env": {"A": 1}},
        "not-object": 3, "bad-url": {"url": "file:///etc/passwd"},
        "bad-env-name": {"command": "x", "env": {"A B": "v"}},
        "fine": {"command": "uvx", "args": ["mcp-server-time"]}}}))
    assert [server.name for server in read.servers] == ["fine"]
    assert len(read.skipped) == 5 and all(str(skipped.reason) for skipped in read.skipped)


def test_special_files_and_huge_files_are_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(ServerConfigError, match="not a regular file"):
        read_server_config(fifo)
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (4 * 1024 * 1024 + 1))
    with pytest.raises(ServerConfigError, match="larger than 4 MB"):
        read_server_config(huge)
    with pytest.raises(ServerConfigError, match="cannot read missing.json"):
        read_server_config(tmp_path / "missing.json")
    good = tmp_path / "claude_desktop_config.json"
    good.write_text('\ufeff{"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}', encoding="utf-8")
    assert [server.command.argv for server in read_server_config(good).servers] == [["uvx", "mcp-server-time"]]
